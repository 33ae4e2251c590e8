import APNsCore
import Foundation

/// Where the benchmarks send: an APNs simulator in fast mode in another process, so that the CPU time
/// and the mallocs a benchmark measures are the client's alone.
///
/// - `APNSBENCH_SIM_URL` set: that server (`https://…` or `http://…` for h2c); `APNSBENCH_SIM_CA` names
///   the CA PEM file to trust for TLS (`apnsbench simulate` prints it as `ca:`).
/// - otherwise `apnsbench simulate --fast --port 0 --threads 1` is started as a child process (or, for a
///   latency model, `apnsbench simulate --config FILE`: the validating simulator, since fast mode answers at
///   once; its demo key signs the client's tokens): the binary
///   `APNSBENCH_BIN`, else the root package's `.build/release/apnsbench` (build it first with
///   `swift build -c release --product apnsbench` in the repository root). `APNSBENCH_SIM_H2C=1` serves
///   h2c; `APNSBENCH_SIM_CPU=N` pins the child to core N with taskset.
public final class SimulatorTarget {
    public let url: String
    /// PEM of the CA to trust, for TLS.
    public let caPEM: String?
    /// How the target was found, for the benchmark's output.
    public let origin: String
    /// The key whose tokens the validating simulator verifies (its `demo key:` line); nil in fast mode,
    /// which checks no token.
    public let demoKey: SigningKey?
    private var child: Process?

    public enum Failure: Error, CustomStringConvertible {
        case noBinary(String)
        case didNotStart(String)
        public var description: String {
            switch self {
            case let .noBinary(s), let .didNotStart(s): return s
            }
        }
    }

    /// Uses `APNSBENCH_SIM_URL` or starts a child simulator, as the type's documentation says.
    public static func fromEnvironment(h2c: Bool? = nil, serverCPU: Int? = nil) throws -> SimulatorTarget {
        let env = ProcessInfo.processInfo.environment
        if let url = env["APNSBENCH_SIM_URL"], !url.isEmpty {
            let pem = try env["APNSBENCH_SIM_CA"].map { try String(contentsOfFile: $0, encoding: .utf8) }
            return SimulatorTarget(url: url, caPEM: pem, origin: "APNSBENCH_SIM_URL=\(url)", child: nil)
        }
        let useH2C = h2c ?? (env["APNSBENCH_SIM_H2C"] == "1")
        let cpu = serverCPU ?? env["APNSBENCH_SIM_CPU"].flatMap { Int($0) }
        return try start(binary: try binaryPath(), h2c: useH2C, cpu: cpu)
    }

    /// The simulator with APNs-like latency, started as a child: `apnsbench simulate --config` with a
    /// lognormal latency of `p50`/`p99` ms (validating mode; fast mode has no latency). `APNSBENCH_LATENCY_SIM_URL`
    /// (+ `APNSBENCH_SIM_CA`, and `APNSBENCH_SIM_KEY` as `PATH:KEYID:TEAMID`) names one already running instead.
    public static func withLatency(p50: Double, p99: Double, serverCPU: Int? = nil) throws -> SimulatorTarget {
        let env = ProcessInfo.processInfo.environment
        if let url = env["APNSBENCH_LATENCY_SIM_URL"], !url.isEmpty {
            let pem = try env["APNSBENCH_SIM_CA"].map { try String(contentsOfFile: $0, encoding: .utf8) }
            let key = try env["APNSBENCH_SIM_KEY"].map { spec -> SigningKey in
                let p = spec.split(separator: ":").map(String.init)
                guard p.count == 3 else { throw Failure.didNotStart("APNSBENCH_SIM_KEY=\(spec): want PATH:KEYID:TEAMID") }
                return try SigningKey(p8Path: p[0], keyID: p[1], teamID: p[2])
            }
            return SimulatorTarget(url: url, caPEM: pem, origin: "APNSBENCH_LATENCY_SIM_URL=\(url)", demoKey: key, child: nil)
        }
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("apnsbench-latency-\(getpid())-\(Int(p50))-\(Int(p99)).yaml")
        try Data(Self.latencyConfig(p50: p50, p99: p99).utf8).write(to: config)
        let cpu = serverCPU ?? env["APNSBENCH_SIM_CPU"].flatMap { Int($0) }
        return try start(binary: try binaryPath(), h2c: false, cpu: cpu, configFile: config.path)
    }

    /// The simulator configuration of an APNs-like latency: what `simulate --config` reads.
    public static func latencyConfig(p50: Double, p99: Double) -> String {
        """
        # APNs-like answer times: lognormal, median \(p50) ms, 99th percentile \(p99) ms.
        faults:
          latency: { lognormal_ms: { p50: \(p50), p99: \(p99) } }

        """
    }

    /// The `apnsbench` binary: `APNSBENCH_BIN`, or the root package's release build.
    public static func binaryPath() throws -> String {
        if let bin = ProcessInfo.processInfo.environment["APNSBENCH_BIN"], !bin.isEmpty { return bin }
        // This file is <root>/Benchmarks/Sources/BenchSupport/SimulatorTarget.swift.
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        let candidate = root.appendingPathComponent(".build/release/apnsbench").path
        guard FileManager.default.isExecutableFile(atPath: candidate) else {
            throw Failure.noBinary("no simulator: set APNSBENCH_SIM_URL, or APNSBENCH_BIN, or build \(candidate) with `swift build -c release --product apnsbench` in \(root.path)")
        }
        return candidate
    }

    /// Starts `apnsbench simulate --fast` and waits for its `ready` line.
    public static func start(binary: String, h2c: Bool, cpu: Int?, configFile: String? = nil) throws -> SimulatorTarget {
        let process = Process()
        var arguments = ["simulate", "--port", "0", "--threads", "1"]
        if let configFile { arguments += ["--config", configFile] } else { arguments.append("--fast") }
        if h2c { arguments.append("--h2c") }
        if let cpu {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            process.arguments = ["-c", String(cpu), binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        // The benchmark runner preloads its malloc counter; the simulator must not pay for it.
        var env = ProcessInfo.processInfo.environment
        env["LD_PRELOAD"] = nil
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()

        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while !text.contains("\nready") && !text.hasPrefix("ready") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty || Date() > deadline {
                process.terminate()
                throw Failure.didNotStart("`apnsbench \(arguments.joined(separator: " "))` did not get ready:\n\(text)")
            }
            text += String(decoding: chunk, as: UTF8.self)
        }
        func field(_ name: String) -> String? {
            text.split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) }
        }
        guard let url = field("url") else { throw Failure.didNotStart("no url: line in:\n\(text)") }
        let pem = try field("ca").map { try String(contentsOfFile: $0, encoding: .utf8) }
        // `demo key: /tmp/AuthKey_DEMOKEY001.p8 key id DEMOKEY001 team id DEMOTEAM01`
        var key: SigningKey?
        if let demo = field("demo key") {
            let words = demo.split(separator: " ").map(String.init)
            guard words.count == 7 else { throw Failure.didNotStart("cannot read the demo key line: \(demo)") }
            key = try SigningKey(p8Path: words[0], keyID: words[3], teamID: words[6])
        }
        let where_ = cpu.map { " pinned to cpu \($0)" } ?? ""
        return SimulatorTarget(url: url, caPEM: pem, origin: "child `apnsbench \(arguments.joined(separator: " "))` (pid \(process.processIdentifier)\(where_)) at \(url)", demoKey: key, child: process)
    }

    private init(url: String, caPEM: String?, origin: String, demoKey: SigningKey? = nil, child: Process?) {
        self.url = url
        self.caPEM = caPEM
        self.origin = origin
        self.demoKey = demoKey
        self.child = child
    }

    /// Stops the child simulator, if this target started one.
    public func stop() {
        guard let child, child.isRunning else { return }
        child.terminate()
        child.waitUntilExit()
        self.child = nil
    }

    deinit { stop() }
}
