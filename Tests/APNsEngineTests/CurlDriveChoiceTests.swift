import APNsCore
@testable import APNsEngine
import XCTest

/// The drive an engine of a run uses: socket-action open loop and on one or two connections, poll closed loop
/// on more; `APNSBENCH_CURL_DRIVE` overrides it; a configuration that does not say its schedule keeps the
/// environment's or the default.
final class CurlDriveChoiceTests: XCTestCase {
    func testTheDriveFollowsTheScheduleAndTheConnections() throws {
        let set = CurlDrive.fromEnvironmentIfSet
        func expected(_ d: CurlDrive) -> CurlDrive { set ?? d }
        XCTAssertEqual(CurlDrive.chosen(openLoop: true, connections: 1), expected(.socketAction))
        XCTAssertEqual(CurlDrive.chosen(openLoop: true, connections: 8), expected(.socketAction))
        XCTAssertEqual(CurlDrive.chosen(openLoop: false, connections: 1), expected(.socketAction))
        XCTAssertEqual(CurlDrive.chosen(openLoop: false, connections: 2), expected(.socketAction))
        XCTAssertEqual(CurlDrive.chosen(openLoop: false, connections: 4), expected(.poll))

        var config = EngineConfiguration(baseURL: "https://127.0.0.1:1", topic: "com.example.app", pushType: .alert, connections: 4)
        XCTAssertEqual(config.drive, CurlDrive.fromEnvironment, "not told its schedule")
        config.openLoop = false
        XCTAssertEqual(config.drive, expected(.poll))
        config.openLoop = true
        XCTAssertEqual(config.drive, expected(.socketAction))
    }

    func testARunsConfigurationSaysItsSchedule() {
        var run = RunConfig(name: "x", profilePath: "p.yaml",
                            workload: RunConfig.Workload(name: "x", stream: "s.ndjson", recipe: "r.yaml", bundleID: "com.example.app"))
        run.schedule.mode = .closedLoop
        XCTAssertEqual(EngineConfiguration(run: run, baseURL: "https://h:1", trustedCertificatePEM: nil, startedAtEpochSeconds: 0).openLoop, false)
        run.schedule.mode = .fixedRate(perSecond: 100)
        XCTAssertEqual(EngineConfiguration(run: run, baseURL: "https://h:1", trustedCertificatePEM: nil, startedAtEpochSeconds: 0).openLoop, true)
    }
}
