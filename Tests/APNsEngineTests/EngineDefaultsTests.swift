import APNsCore
import APNsEngine
import XCTest

/// An engine set up by hand (as the tests and benchmarks do) starts from the same values as one set up from a
/// run's configuration that states nothing, and those are the settings table's defaults as `--help` prints them:
/// the engine writes no default of its own for a value a run setting has.
final class EngineDefaultsTests: XCTestCase {
    func testAnEngineSetUpByHandHasTheRunSettingsDefaults() throws {
        let byHand = EngineConfiguration(baseURL: "https://127.0.0.1:1", topic: "com.example.app", pushType: .alert)
        let run = RunConfig(name: "x", profilePath: "p.yaml",
                            workload: RunConfig.Workload(name: "x", stream: "s.ndjson", recipe: "r.yaml", bundleID: "com.example.app"))
        let fromRun = EngineConfiguration(run: run, baseURL: "https://127.0.0.1:1", trustedCertificatePEM: nil, startedAtEpochSeconds: 0)
        XCTAssertEqual(byHand.connections, fromRun.connections)
        XCTAssertEqual(byHand.streamsPerConnection, fromRun.streamsPerConnection)
        XCTAssertEqual(byHand.pushTimeout, fromRun.pushTimeout)
        XCTAssertEqual(byHand.failFast, fromRun.failFast)
        XCTAssertEqual(byHand.stallTimeout, fromRun.stallTimeout)
        XCTAssertEqual(byHand.retry, fromRun.retry)

        // The table's default texts, read here on their own.
        func whole(_ key: ConfigKey) -> Int? { Int(RunSettings[key].defaultValue) }
        func seconds(_ key: ConfigKey) -> Double? { DurationText.millis(RunSettings[key].defaultValue).map { Double($0) / 1000 } }
        XCTAssertEqual(byHand.connections, whole(.connections))
        XCTAssertEqual(byHand.streamsPerConnection, whole(.streams))
        XCTAssertEqual(byHand.pushTimeout, DurationText.setting(RunSettings[.pushTimeout].defaultValue))
        XCTAssertEqual(byHand.failFast, DurationText.setting(RunSettings[.failFast].defaultValue))
        XCTAssertEqual(byHand.stallTimeout, DurationText.setting(RunSettings[.stallTimeout].defaultValue))
        XCTAssertEqual(byHand.retry.maxAttempts, whole(.retryAttempts))
        XCTAssertEqual(byHand.retry.initialBackoff, seconds(.retryBackoff))
        XCTAssertEqual(byHand.retry.maxElapsed, seconds(.retryMaxElapsed))
    }

    /// The retry settings no table row states are ``RunConfig/Retry``'s, which a report's configuration shows.
    func testTheDefaultRetryPolicyIsARunsConfiguration() {
        let policy = RetryPolicy()
        let retry = RunConfig.Retry()
        XCTAssertEqual(policy, RetryPolicy(retry))
        XCTAssertEqual(policy.multiplier, retry.multiplier)
        XCTAssertEqual(policy.maxBackoff, retry.maxBackoff.secondsValue)
        XCTAssertEqual(policy.tokenBackoff, retry.tokenBackoff.secondsValue)
    }
}
