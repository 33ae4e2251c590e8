// swift-tools-version:6.1
// apnsbench — load-test and batch-replay harness for the APNs delivery hot path.
// Each C dependency has its own shim target: CCurl (only APNsEngine imports it) and CLibcrypto (APNsCore
// signs with it, APNsSimulator verifies and makes its certificates with it).
//
// The one BoringSSL in the build is swift-nio-ssl's (the simulator's TLS). Certificates, ES256 signing and
// verification go through OpenSSL's libcrypto, which libcurl links anyway: swift-crypto and
// swift-certificates (with swift-asn1) would compile a second BoringSSL (CCryptoBoringSSL) and their own
// Swift layers, for a CA, two certificates and one signature check.
import PackageDescription

// Every target builds in the Swift 6 language mode (tools version 6.1's default). Where a value crosses
// threads without a lock of its own (an engine and its queue handed to their worker thread), a small
// @unchecked Sendable hand-over says so at that one place.

// apnsbench's allocator is jemalloc (libjemalloc-dev), as the design names it: libcurl allocates per
// transfer. docs/benchmarks.md has the measurement against glibc malloc; APNSBENCH_MALLOC=system builds
// without it, to repeat that measurement (scripts/bench-allocator.sh). Only the executable links it: the
// libraries, the tests and the Benchmarks package count allocations through whatever allocator serves them.
let allocator: [LinkerSetting] = Context.environment["APNSBENCH_MALLOC"] == "system" ? [] : [.linkedLibrary("jemalloc")]

let package = Package(
    name: "apnsbench",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "apnsbench", targets: ["apnsbench"]),
        .library(name: "APNsCore", targets: ["APNsCore"]),
        .library(name: "APNsEngine", targets: ["APNsEngine"]),
        .library(name: "APNsSimulator", targets: ["APNsSimulator"]),
        .library(name: "Replay", targets: ["Replay"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        .library(name: "Harness", targets: ["Harness"]),
        .library(name: "DeviceContract", targets: ["DeviceContract"]),
        .library(name: "DeviceDelivery", targets: ["DeviceDelivery"]),
        // Fake push sources and outcome sinks, for the tests and the Benchmarks package.
        .library(name: "TestSupport", targets: ["TestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // libcurl: module map plus non-variadic wrappers (Swift cannot call curl_easy_setopt).
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        // OpenSSL's libcrypto (libssl-dev), the one libcurl already links: ES256 signing and SHA-256 for
        // APNsCore; ES256 verification and the in-process CA and server certificate for APNsSimulator.
        .target(
            name: "CLibcrypto",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        // zlib: DEFLATE for HdrHistogram's compressed histogram encoding (Reporting only).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The APNs vocabulary shared by engine, simulator and reports.
        .target(
            name: "APNsCore",
            dependencies: ["CLibcrypto"]
        ),
        // The device side of delivery: what a device does with each push APNs accepted, in recorded time (a pure
        // state machine), and its input collected from the delivered pushes. The simulator runs it, the reports
        // count and show its outcomes, the harness feeds it; the engine, the workloads and the contract never see it.
        .target(name: "DeviceDelivery", dependencies: ["APNsCore"]),
        // The client hot path: libcurl multi, HTTP/2 multiplexing.
        .target(
            name: "APNsEngine",
            dependencies: ["CCurl", "APNsCore"]
        ),
        // An APNs-like HTTP/2 server over TLS, and its configuration: a table of keys, and the strict reader of its
        // files (YAMLReading, and Yams for a profile's section read node by node).
        .target(
            name: "APNsSimulator",
            dependencies: [
                "APNsCore", "DeviceDelivery", "CLibcrypto", "YAMLReading", .product(name: "Yams", package: "Yams"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Does a Live Activity payload decode into the app's ActivityKit model on the device? Reads the model's
        // Swift declaration (a subset) and checks payload bytes with JSONDecoder's rules, scanned by APNsCore's JSONTape.
        .target(name: "DeviceContract", dependencies: ["APNsCore"]),
        // The strict YAML reader over Yams (a key path and a line in every error, a key given twice, a tab in the
        // indentation), for profiles, recipes, APNs model files and the simulator's configuration file.
        .target(name: "YAMLReading", dependencies: ["APNsCore", .product(name: "Yams", package: "Yams")]),
        // Recorded streams, profiles, workloads: events in, pushes out (each Live Activity push checked against
        // the app's model when the profile names one).
        .target(
            name: "Replay",
            dependencies: [
                "APNsCore", "DeviceContract", "YAMLReading",
                .product(name: "Yams", package: "Yams"), .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // Per-push accounting and histograms; the report (schema, reading, the JSON, Markdown, HTML and hlog writers);
        // analysis of reports: compare, merge, the sweep's knee and the tuning matrix, the OpenMetrics text.
        .target(
            name: "Reporting",
            dependencies: ["APNsCore", "DeviceDelivery", "CZlib", .product(name: "Histogram", package: "hdrhistogram-swift")]
        ),
        // One run wired end to end (configuration -> inputs and target -> worker pool -> report), and what is built
        // around runs: the rate sweep and the tuning matrix, live progress and metrics, signals, broadcast channels,
        // the run id and the start barrier; the model file `model fit` writes, through the simulator's table of
        // keys. The CLI and the end-to-end tests call it.
        .target(
            name: "Harness",
            dependencies: [
                "APNsCore", "APNsEngine", "APNsSimulator", "Replay", "Reporting", "DeviceContract", "DeviceDelivery",
                // Coalescing's staleness histogram, handed from the pipeline to the report.
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                // The live metrics endpoint (--metrics-listen): NIO's HTTP/1 server, already here for the simulator.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The options `run` and `sweep` share (the run settings, the provider key), as ArgumentParser groups
        // named from the settings table; a library of its own so that a test parses them as the CLI does.
        .target(
            name: "RunOptions",
            dependencies: ["APNsCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The CLI: parses the command line, then calls Harness for run, sweep, plan and simulate, Reporting
        // for report, compare, merge and model (Harness writes model fit's file), and Replay for recipe and scale;
        // APNsCore for the settings table its flags are named from, APNsSimulator for `simulate`'s environment
        // names and its configuration keys' help.
        .executableTarget(
            name: "apnsbench",
            dependencies: [
                "APNsCore", "Harness", "APNsSimulator", "Replay", "Reporting", "RunOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: allocator
        ),
        // Fakes shared by the test targets and the benchmarks: push sources and outcome sinks; child
        // processes waited for with a bound; ES256Oracle, Python's `cryptography` as the independent check of
        // ES256 signatures and of the simulator's certificates (es256_oracle.py).
        .target(name: "TestSupport", dependencies: ["APNsCore"], exclude: ["es256_oracle.py"]),
        .testTarget(name: "APNsCoreTests", dependencies: ["APNsCore", "TestSupport"]),
        .testTarget(name: "DeviceDeliveryTests", dependencies: ["APNsCore", "DeviceDelivery"]),
        // Every flag of the shared option groups reaches the configuration, driven from the settings table.
        .testTarget(
            name: "RunOptionsTests",
            dependencies: ["APNsCore", "RunOptions", "Replay", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "APNsEngineTests", dependencies: ["APNsCore", "APNsEngine", "APNsSimulator", "TestSupport"]),
        .testTarget(
            name: "APNsSimulatorTests",
            dependencies: [
                "APNsCore", "APNsSimulator", "DeviceDelivery", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
            ]
        ),
        // Clients nobody here wrote (h2load, aioapns) against `apnsbench simulate` run as a subprocess.
        // Also our encoded histograms and latency.hlog, read by the PyPI hdrhistogram package; and senders in
        // Go and Python (Peers/) against `simulate --report`.
        .testTarget(
            name: "InteropTests",
            dependencies: ["APNsCore", "Reporting", "RunOptions", "TestSupport", .product(name: "Histogram", package: "hdrhistogram-swift")],
            exclude: ["aioapns_check.py", "hdrh_check.py", "metrics_check.py", "Peers"]
        ),
        .testTarget(
            name: "HarnessTests",
            dependencies: [
                "APNsCore", "APNsEngine", "APNsSimulator", "Harness", "Replay", "Reporting", "RunOptions", "TestSupport",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The command line's own definitions: every option that writes is declared, and refused over every input.
        .testTarget(name: "CommandLineTests", dependencies: ["apnsbench", "TestSupport"]),
        .testTarget(name: "ReplayTests", dependencies: ["APNsCore", "Replay", "DeviceContract", "TestSupport"]),
        // Checker against JSONDecoder (the oracle table, differential fuzzing), parser refusals, the apps' model files.
        // Fixtures/ holds model files as apps have them (they import ActivityKit); the tests read them as text.
        .testTarget(name: "DeviceContractTests", dependencies: ["APNsCore", "DeviceContract"], exclude: ["Fixtures"]),
        .testTarget(name: "ReportingTests",
                    dependencies: ["APNsCore", "DeviceDelivery", "Reporting", "TestSupport", .product(name: "Histogram", package: "hdrhistogram-swift")],
                    exclude: ["Fixtures"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["APNsCore", "APNsEngine", "APNsSimulator", "Replay", "Reporting", "Harness", "TestSupport"]
        ),
    ]
)
