import APNsCore
import Foundation
import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// The tuning knobs reach the wire and the report: apns-collapse-id, apns-expiration, retry attempts,
/// the simulator mode, and the profile's SLO checked against the run.
final class TuningKnobsReplayTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func run(_ configure: (inout RunConfigOverrides) -> Void) throws -> RunReport {
        let out = try ScratchFolder.make("knobs")
        defer { ScratchFolder.remove(out) }
        var options = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/leave-requests.yaml").path)
        options.outDirectory = out.path
        configure(&options.overrides)
        let report = try ReplayRun.execute(options, log: { _ in }).report
        XCTAssertEqual(report.violations(), [])
        // What was written is what was returned, knobs included.
        XCTAssertEqual(try RunReport.load(from: out.appendingPathComponent("report.json").path).configuration, report.configuration)
        return report
    }

    func testKnobsAreSentAndRecorded() throws {
        let report = try run {
            $0.collapseID = "leave-42"
            $0.expiration = .seconds(3600)
            $0.retryAttempts = 3
            $0.connections = 3
            $0.streams = 20
        }
        let c = report.configuration
        XCTAssertEqual(c.payload.collapseID, "leave-42")
        XCTAssertEqual(c.payload.expiration, .seconds(3600))
        XCTAssertEqual(c.transport.connections, 3)
        XCTAssertEqual(c.transport.streams, 20)
        XCTAssertEqual(c.transport.workers, 1)
        XCTAssertEqual(c.simulator.mode, "validating")
        XCTAssertEqual(c.retry.attempts, 3)
        // The validating simulator accepted every push carrying them (a bad collapse id or expiration
        // would be BadCollapseId / BadExpirationDate).
        XCTAssertEqual(report.pushes.rejectedTotal, 0, "\(report.pushes.rejected)")
        XCTAssertEqual(report.simulator?["accepted"], report.pushes.delivered)
        XCTAssertEqual(report.engine.retriesTotal, 0)
    }

    func testSLOIsCheckedAgainstTheRun() throws {
        let report = try run { $0.fastSimulator = true }
        XCTAssertEqual(report.configuration.simulator.mode, "fast")
        XCTAssertEqual(report.configuration.slo.p99, .milliseconds(1000))
        XCTAssertEqual(report.configuration.slo.minDelivered, 0.95)
        let checks = SLOCheck.checks(report)
        XCTAssertEqual(checks.count, 2)
        let share = Double(report.pushes.delivered) / Double(report.pushes.owed)
        XCTAssertEqual(checks[1].met, share >= 0.95)
        // A target no run can meet is reported missed.
        var strict = report
        strict.configuration.slo.p99 = nil
        strict.configuration.slo.minDelivered = 1.0
        XCTAssertEqual(SLOCheck.checks(strict).map(\.met), [report.pushes.delivered == report.pushes.owed], "every push owed, delivered")
        XCTAssertTrue(SummaryText.markdown(report).contains("## Service-level objective"))
    }
}
