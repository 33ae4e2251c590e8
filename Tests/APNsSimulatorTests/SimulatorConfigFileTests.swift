@testable import APNsSimulator
import XCTest

final class SimulatorConfigFileTests: XCTestCase {
    func testAFullFileApplies() throws {
        let tree: [String: Any] = [
            "environment": "production", "threads": 2, "seed": 5, "max_concurrent_streams": 500,
            "drop_stream_limit_after_rejection": true, "token_update_penalty_seconds": 60,
            "topics": ["TEAM000001": ["com.a"]],
            "devices": ["generate": ["bundle_id": "com.a", "count": 10, "seed": 2], "dead_fraction": 0.1,
                        "rate_limit": ["pushes": 5, "window_seconds": 1.5]],
            "live_activity": ["missing_keys": "count", "priority10_budget": 20],
            "faults": ["latency": ["lognormal_ms": ["p50": 40, "p99": 200]], "internal_server_error_fraction": 0.01,
                       "goaway_after_streams": 1000, "idle_timeout_seconds": 30],
        ]
        var c = SimulatorConfiguration()
        try SimulatorConfigFile.apply(tree, file: "sim.yaml", to: &c)
        XCTAssertEqual(c.environment, .production)
        XCTAssertEqual(c.threads, 2)
        XCTAssertEqual(c.seed, 5)
        XCTAssertEqual(c.maxConcurrentStreams, 500)
        XCTAssertTrue(c.dropStreamLimitAfterRejection)
        XCTAssertEqual(c.topicsByTeam["TEAM000001"], ["com.a"])
        XCTAssertEqual(c.deviceRegistry.bundleByToken.count, 10)
        XCTAssertEqual(c.deviceRegistry.rateLimit, .init(pushes: 5, windowSeconds: 1.5))
        XCTAssertEqual(c.liveActivity.missingKeys, .count)
        XCTAssertEqual(c.liveActivity.priority10Budget, 20)
        XCTAssertEqual(c.faults.latency, .lognormal(p50Milliseconds: 40, p99Milliseconds: 200))
        XCTAssertEqual(c.faults.goAwayAfterStreams, 1000)
        XCTAssertEqual(c.faults.idleTimeoutSeconds, 30)
    }

    func testErrorsNameTheKey() {
        var c = SimulatorConfiguration()
        XCTAssertThrowsError(try SimulatorConfigFile.apply(["faults": ["latncy": 1]], file: "sim.yaml", to: &c)) {
            XCTAssertTrue(String(describing: $0).hasPrefix("simulator configuration sim.yaml: 'faults.latncy' is not a known key"), "\($0)")
        }
        XCTAssertThrowsError(try SimulatorConfigFile.apply(["max_concurrent_streams": "many"], file: "sim.yaml", to: &c)) {
            XCTAssertEqual(String(describing: $0), "simulator configuration sim.yaml: 'max_concurrent_streams' must be an integer, found 'many'")
        }
        XCTAssertThrowsError(try SimulatorConfigFile.apply(["faults": ["internal_server_error_fraction": 0.7, "service_unavailable_fraction": 0.7]],
                                                           file: "sim.yaml", to: &c)) {
            XCTAssertTrue(String(describing: $0).contains("more than 1"), "\($0)")
        }
    }
}
