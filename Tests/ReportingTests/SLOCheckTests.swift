import APNsCore
import Foundation
import XCTest
@testable import Reporting

/// Each SLO rule checked against a report's counts, with its ✓/✗ line.
final class SLOCheckTests: XCTestCase {
    func report(_ slo: RunConfig.SLO) -> RunReport {
        // 18 planned: 5 delivered, 4 rejected, 3 failed, 2 timed out, 4 not sent.
        var report = Fixtures.report(from: Fixtures.mixedRecorder())
        report.configuration.slo = slo
        return report
    }

    func testErrorSharesAreCheckedPerClassAgainstPlannedPushes() {
        var slo = RunConfig.SLO()
        slo.maxErrorShare = ["rejected": 0.25, "failed": 0.1, "timed_out": 0.2, "not_sent": 0.2, "errors": 0.5]
        let checks = SLOCheck.checks(report(slo))
        XCTAssertEqual(checks.map(\.what), ["rejected share of planned pushes", "failed share of planned pushes",
                                            "timed out share of planned pushes", "not sent share of planned pushes",
                                            "errors share of planned pushes"])
        // 4/18 = 22.2 % ≤ 25 %; 3/18 = 16.7 % > 10 %; 2/18 = 11.1 % ≤ 20 %; 4/18 > 20 %; 9/18 = 50 % ≤ 50 %.
        XCTAssertEqual(checks.map(\.met), [true, false, true, false, true])
        XCTAssertEqual(checks[1].line, "✗ failed share of planned pushes: 16.67 % (3), target ≤ 10.00 % (at most)")
        XCTAssertEqual(checks[4].actual, "50.00 % (9)")
    }

    func testP99AndDeliveredShareLinesSpellTheComparisonOut() {
        var slo = RunConfig.SLO()
        slo.p99Millis = 1
        slo.minDelivered = 0.25
        let checks = SLOCheck.checks(report(slo))
        XCTAssertEqual(checks.count, 2)
        XCTAssertTrue(checks[0].line.hasSuffix("target ≤ 1 ms (at most)"), checks[0].line)
        XCTAssertEqual(checks[1].line, "✓ delivered share of planned pushes: 27.78 %, target ≥ 25.00 % (at least)")
    }

    /// A run cut by its duration: pushes due after the end are planned but never owed, so every share is
    /// taken of the pushes due, and the lines say so.
    func testPushesDueAfterTheEndAreLeftOutOfEveryShare() {
        var slo = RunConfig.SLO()
        slo.minDelivered = 0.25
        slo.maxErrorShare = ["not_sent": 0.2]
        var r = report(slo)
        r.configuration.schedule.durationSeconds = 5
        r.pushes.notSent[NotSentCause.afterEnd.rawValue] = 12
        r.pushes.planned += 12
        XCTAssertEqual(r.pushes.due, 18)
        XCTAssertEqual(r.pushes.notSentDue, 4)
        let checks = SLOCheck.checks(r)
        // 5 of the 18 due, as without the 12; not sent 4 of 18 (the 12 are not a loss).
        XCTAssertEqual(checks[0].line, "✓ delivered share of pushes due (planned 30 less 12 due after the end): 27.78 %, target ≥ 25.00 % (at least)")
        XCTAssertEqual(checks[1].actual, "22.22 % (4)")
        XCTAssertFalse(checks[1].met)
        // The same counts with the 12 taken as lost would miss the delivered share.
        r.pushes.notSent[NotSentCause.afterEnd.rawValue] = nil
        r.pushes.notSent[NotSentCause.runStopped.rawValue] = 12
        XCTAssertFalse(SLOCheck.checks(r)[0].met)
    }

    func testNoRulesNoChecks() {
        XCTAssertEqual(SLOCheck.checks(report(RunConfig.SLO())), [])
    }
}
