import APNsCore
import Foundation
import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// The CI profile, a mix of the five shipped apps' workloads, end to end against the embedded validating simulator:
/// each part's pushes go with its own push type and topic (the simulator refuses a Live Activity payload on
/// an alert topic, or an alert on a Live Activity topic), and the counts add up over the parts.
final class MixReplayTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheCIMixSendsEachPartWithItsOwnPushTypeAndTopicAndTheCountsAddUp() throws {
        let out = try ScratchFolder.make("e2e-mix", removedBy: addTeardownBlock)
        var request = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/ci.yaml").path)
        request.overrides.schedule = .closedLoop
        request.outDirectory = out.path
        let report = try ReplayRun.execute(request, log: { _ in }).report
        let p = report.pushes

        XCTAssertEqual(report.configuration.workload.label, "mix(leave-requests+order-changes+cdbl-leave+ksr-cranes+everday-approvals)")
        XCTAssertEqual(report.violations(), [])
        XCTAssertEqual(p.rejectedTotal, 0, "every part's pushes carried the part's push type and topic: \(p.rejected)")
        XCTAssertEqual(p.failedTotal + p.timedOut, 0)
        XCTAssertEqual(report.simulator?["accepted"], p.delivered)

        // The parts' own events, summed: each recording read once, line by line.
        var lines = 0
        for part in report.configuration.workload.parts {
            lines += try String(contentsOfFile: part.stream, encoding: .utf8).split(separator: "\n").count
        }
        XCTAssertEqual(report.events.read, lines)
        XCTAssertTrue(report.events.balanced)
        XCTAssertEqual(p.planned, report.events.expectedPushes)
        XCTAssertTrue(Set(report.events.byKind.keys).isSuperset(of: ["leave.status", "order.change", "notify", "parent.device"]), "\(report.events.byKind)")
        // What only some parts plan: late tokens (leave-requests), orders nobody follows (order-changes).
        XCTAssertEqual(Set(p.notSent.keys), ["no_token", "no_recipients"])
        XCTAssertEqual(p.delivered + p.notSentTotal, p.planned)
        // A mix of push types is not told apart per push: no by-push-type histogram, the overall one only.
        XCTAssertTrue((report.latency.byPushType ?? [:]).isEmpty)
        XCTAssertEqual(report.latency.responseTime.count, p.delivered)
        // The Live Activity budget counts the Live Activity parts' priority-10 updates only, not the alerts.
        let budget = try XCTUnwrap(report.liveActivityBudget)
        XCTAssertGreaterThan(budget.priority10Updates, 0)
        XCTAssertLessThan(budget.priority10Updates, report.latency.byPriority["10"]?.responseTime.count ?? 0)
    }
}
