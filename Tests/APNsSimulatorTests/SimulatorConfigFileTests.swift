import APNsCore
import APNsSimulator
import TestSupport
import XCTest

final class SimulatorConfigFileTests: XCTestCase {
    private func apply(_ yaml: String, to c: inout SimulatorConfiguration) throws {
        try SimulatorConfigFile.apply(yaml: yaml, file: "sim.yaml", to: &c)
    }

    /// The error `yaml` gives.
    private func error(_ yaml: String, file: StaticString = #filePath, line: UInt = #line) -> SimulatorConfigError? {
        var c = SimulatorConfiguration()
        do {
            try apply(yaml, to: &c)
            XCTFail("no error for:\n\(yaml)", file: file, line: line)
        } catch let e as SimulatorConfigError {
            return e
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
        return nil
    }

    func testAFullFileApplies() throws {
        let yaml = """
            environment: production
            threads: 2
            seed: 5
            max_concurrent_streams: 500
            drop_stream_limit_after_rejection: true
            token_update_penalty_seconds: 60
            topics: { TEAM000001: [com.a] }
            devices:
              generate: { bundle_id: com.a, count: 10, seed: 2 }
              dead_fraction: 0.1
              rate_limit: { pushes: 5, window_seconds: 1.5 }
            live_activity: { missing_keys: count, priority10_budget: 20 }
            faults:
              latency: { lognormal_ms: { p50: 40, p99: 200 } }
              internal_server_error_fraction: 0.01
              goaway_after_streams: 1000
              idle_timeout_seconds: 30
            """
        var c = SimulatorConfiguration()
        try apply(yaml, to: &c)
        XCTAssertEqual(c.environment, .production)
        XCTAssertEqual(c.threads, 2)
        XCTAssertEqual(c.seed, 5)
        XCTAssertEqual(c.maxConcurrentStreams, 500)
        XCTAssertTrue(c.dropStreamLimitAfterRejection)
        XCTAssertEqual(c.tokenUpdatePenalty, 60)
        XCTAssertEqual(c.topicsByTeam["TEAM000001"], ["com.a"])
        XCTAssertEqual(c.deviceRegistry.bundleByToken.count, 10)
        XCTAssertEqual(c.deviceRegistry.deadFraction, 0.1)
        XCTAssertEqual(c.deviceRegistry.rateLimit, .init(pushes: 5, windowSeconds: 1.5))
        XCTAssertEqual(c.liveActivity.missingKeys, .count)
        XCTAssertEqual(c.liveActivity.priority10Budget, 20)
        XCTAssertEqual(c.faults.latency, .lognormal(p50Milliseconds: 40, p99Milliseconds: 200))
        XCTAssertEqual(c.faults.requestFaults[.internalServerError], 0.01)
        XCTAssertEqual(c.faults.goAwayAfterStreams, 1000)
        XCTAssertEqual(c.faults.idleTimeoutSeconds, 30)
    }

    func testJSONAndAnEmptyFileApply() throws {
        var c = SimulatorConfiguration()
        try apply(#"{"fast": true, "faults": {"latency": {"uniform_ms": [1, 10]}}, "live_activity": {"priority10_budget": null}}"#, to: &c)
        XCTAssertTrue(c.fast)
        XCTAssertEqual(c.faults.latency, .uniform(minMilliseconds: 1, maxMilliseconds: 10))
        XCTAssertNil(c.liveActivity.priority10Budget)
        var d = SimulatorConfiguration()
        try apply("", to: &d)
        XCTAssertEqual(d.maxConcurrentStreams, SimulatorConfiguration().maxConcurrentStreams)
    }

    func testErrorsNameTheKey() {
        XCTAssertTrue(error("faults:\n  latncy: 1")?.description.hasPrefix("simulator configuration sim.yaml:2: 'faults.latncy' is not a known key") ?? false,
                      "\(String(describing: error("faults:\n  latncy: 1")))")
        XCTAssertTrue(error("faults:\n  latncy: 1")?.description.hasSuffix("; did you mean 'latency'?") ?? false, "the closest known key is suggested")
        XCTAssertEqual(error("max_concurrent_streams: many")?.description,
                       "simulator configuration sim.yaml:1: 'max_concurrent_streams' must be an integer, found 'many'")
        XCTAssertTrue(error("faults: { internal_server_error_fraction: 0.7, service_unavailable_fraction: 0.7 }")?.message.contains("more than 1") ?? false)
    }

    /// Each error carries the line of the key it is about, and its key path.
    func testErrorsCarryTheLineAndTheKeyPath() {
        let cases: [(yaml: String, line: Int?, key: String, message: String)] = [
            ("seed: 1\nthreds: 2", 2, "threds", "is not a known key"),
            ("seed: 1\n\nthreads: 65", 3, "threads", "must be between 1 and 64, found 65"),
            ("fast: maybe", 1, "fast", "must be true or false, found 'maybe'"),
            ("environment: staging", 1, "environment", "must be sandbox or production, found 'staging'"),
            ("topics:\n  TEAM1:\n    - com.a\n    - 7", 4, "topics.TEAM1[1]", "must be a non-empty string, found '7'"),
            ("topics:\n  TEAM1: com.a", 2, "topics.TEAM1", "must be a list, found 'com.a'"),
            ("devices:\n  seed: 1\n  generate:\n    count: 3", 3, "devices.generate", "needs bundle_id"),
            ("devices:\n  generate: { bundle_id: com.a, hex_length: 65 }", 2, "devices.generate.hex_length", "must be even, found 65"),
            ("devices:\n  dead_reason: Gone", 2, "devices.dead_reason", "must be Unregistered or ExpiredToken, found 'Gone'"),
            ("devices:\n  unknown_token_reason: Nope", 2, "devices.unknown_token_reason", "'Nope' is not an APNs reason"),
            ("devices:\n  rate_limit: { pushes: 5 }", 2, "devices.rate_limit", "needs pushes and window"),
            ("live_activity:\n  missing_keys: ignore", 2, "live_activity.missing_keys", "must be reject or count, found 'ignore'"),
            ("faults:\n  latency:\n    fixed: 1ms\n    uniform_ms: [1, 2]", 2, "faults.latency", "needs exactly one of fixed, uniform_ms, lognormal_ms"),
            ("faults:\n  latency: { uniform_ms: [5, 1] }", 2, "faults.latency.uniform_ms[1]", "must be between 5.0 and 600000.0, found 1.0"),
            ("faults:\n  latency:\n    lognormal_ms: { p50: 40 }", 3, "faults.latency.lognormal_ms", "needs p50 and p99"),
            ("faults:\n  shutdown_fraction: 0.6\n  connection_reset_fraction: 0.6", 1, "faults", "the fractions add up to 1.2, more than 1"),
            ("faults:\n  goaway_after_streams: 1.5", 2, "faults.goaway_after_streams", "must be an integer, found '1.5'"),
            ("faults:\n  settings_delay_ms: true", 2, "faults.settings_delay_ms", "must be a number, found 'true'"),
            ("faults:\n  settings_delay: 250", 2, "faults.settings_delay", "must be a duration: '250' has no unit: write 250s or 250ms"),
            ("faults:\n  settings_delay: 11m", 2, "faults.settings_delay", "must be between 0 and 10m, found '11m'"),
            ("faults:\n  goaway_after: 10s\n  goaway_after_seconds: 10", 3, "faults.goaway_after_seconds",
             "is the former name of 'goaway_after': give one of them"),
            ("faults: 3", 1, "faults", "must be a mapping of keys to values, found '3'"),
            ("- a\n- b", 1, "(top level)", "must be a mapping of keys to values, found a list"),
        ]
        for (yaml, line, key, message) in cases {
            guard let e = error(yaml) else { continue }
            XCTAssertEqual(e.file, "sim.yaml")
            XCTAssertEqual(e.line, line, "\(yaml): \(e)")
            XCTAssertEqual(e.key, key, "\(yaml): \(e)")
            XCTAssertTrue(e.message.hasPrefix(message), "\(yaml): \(e)")
            XCTAssertTrue(e.description.hasPrefix("simulator configuration sim.yaml:\(line.map(String.init) ?? "?"): '\(key)'"), "\(e)")
        }
    }

    func testInvalidYAMLNamesItsLine() {
        let e = error("seed: 1\nfaults: [1, 2\n")
        XCTAssertEqual(e?.key, "(file)")
        XCTAssertNotNil(e?.line, "\(String(describing: e))")
        XCTAssertTrue(e?.message.hasPrefix("is not valid YAML") ?? false, "\(String(describing: e))")
    }

    func testAFailedFileLeavesTheConfigurationAsItWas() {
        var c = SimulatorConfiguration()
        XCTAssertThrowsError(try apply("seed: 9\nthreads: 0", to: &c))
        XCTAssertEqual(c.seed, 0)
    }

    func testADevicesFileIsReadRelativeToTheConfigurationFile() throws {
        let folder = try ScratchFolder.make("simcfg")
        defer { ScratchFolder.remove(folder) }
        let token = String(repeating: "cd", count: 32)
        try "\(token) com.b\n".write(to: folder.appendingPathComponent("tokens.txt"), atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("sim.yaml")
        try "devices:\n  file: tokens.txt\n".write(to: config, atomically: true, encoding: .utf8)
        var c = SimulatorConfiguration()
        try SimulatorConfigFile.load(path: config.path, into: &c)
        XCTAssertEqual(c.deviceRegistry.bundleByToken, [token: "com.b"])
        XCTAssertThrowsError(try SimulatorConfigFile.load(path: folder.appendingPathComponent("missing.yaml").path, into: &c)) {
            XCTAssertTrue("\($0)".contains("cannot be read"), "\($0)")
        }
    }
}
