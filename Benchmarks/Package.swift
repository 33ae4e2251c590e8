// swift-tools-version:6.1
// Benchmarks of the apnsbench hot path, a nested package so that the library itself gains no
// benchmark dependency (as swift-nio does it).
//
// - Benchmarks/CoreBenchmarks, Benchmarks/EngineBenchmarks: package-benchmark suites. Their p90 malloc
//   counts are pinned in Thresholds/ and gate CI (`swift package benchmark thresholds check`); times are
//   reported but never gate (a shared 2-core machine is too noisy for that).
// - Sources/CurlReference: a bare libcurl multi loop with the engine's curl options, the transport's ceiling.
// - Sources/engine-vs-reference: one process that alternates reference(poll), reference(epoll) and the
//   engine against one out-of-process simulator and prints medians and ratios (scripts/bench-engine.sh).
//
// The root package is named `apnsbench` on its .package line: a path dependency's identity is otherwise
// its folder's name, which differs between checkouts.
import PackageDescription

let core = Target.Dependency.product(name: "APNsCore", package: "apnsbench")
let engine = Target.Dependency.product(name: "APNsEngine", package: "apnsbench")
let reporting = Target.Dependency.product(name: "Reporting", package: "apnsbench")
let replay = Target.Dependency.product(name: "Replay", package: "apnsbench")
let testSupport = Target.Dependency.product(name: "TestSupport", package: "apnsbench")
let benchmark = Target.Dependency.product(name: "Benchmark", package: "benchmark")

let package = Package(
    name: "apnsbench-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "apnsbench", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The bare libcurl loop: same options as APNsEngine's TransferSlot/CurlEngine, fixed body, no accounting.
        .target(
            name: "CurlReference",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("curl")]
        ),
        // What both the benchmarks and engine-vs-reference need besides TestSupport's push source (which
        // does not allocate) and sink: the simulator as a child process, the reference loop from Swift, CPU time.
        .target(
            name: "BenchSupport",
            dependencies: [core, engine, "CurlReference"]
        ),
        // A measurement script: top-level code whose globals a run's helper thread shares. It stays in the
        // Swift 5 language mode, which lets a script do that; nothing in it is on the engine's hot path, and
        // no gate or test runs it.
        .executableTarget(
            name: "engine-vs-reference",
            dependencies: [core, engine, "BenchSupport", "CurlReference", testSupport],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [core, reporting, replay, benchmark],
            path: "Benchmarks/CoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [core, engine, "BenchSupport", "CurlReference", testSupport, benchmark],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
