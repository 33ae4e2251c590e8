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

    func testErrorSharesAreCheckedPerClassAgainstThePushesOwed() {
        var slo = RunConfig.SLO()
        slo.maxErrorShare = ["rejected": 0.25, "failed": 0.2, "timed_out": 0.1, "not_sent": 0.05, "errors": 0.6]
        let checks = SLOCheck.checks(report(slo))
        // 18 planned, 3 of them no_token (nobody to receive them): 15 owed.
        let of = "pushes owed (planned 18 less 3 not owed: 3 no_token)"
        XCTAssertEqual(checks.map(\.what), ["rejected share of \(of)", "failed share of \(of)", "timed out share of \(of)",
                                            "not sent share of \(of)", "errors share of \(of)"])
        // 4/15 = 26.7 % > 25 %; 3/15 = 20 % ≤ 20 %; 2/15 = 13.3 % > 10 %; 1 lost (run_stopped)/15 = 6.7 % > 5 %; 9/15 = 60 % ≤ 60 %.
        XCTAssertEqual(checks.map(\.met), [false, true, false, false, true])
        XCTAssertEqual(checks[1].line, "✓ failed share of \(of): 20.00 % (3), target ≤ 20.00 % (at most)")
        XCTAssertEqual(checks[3].actual, "6.67 % (1)")
    }

    /// Updates coalescing replaced on purpose, pushes with nobody to receive them and tokens already answered
    /// 410 are never owed: a run that lost nothing meets its delivered share whatever their number, and
    /// one lost push counts.
    func testPushesReplacedOnPurposeOrWithNobodyToReceiveThemAreNotALoss() {
        var slo = RunConfig.SLO()
        slo.minDelivered = 0.99
        var r = report(slo)
        r.pushes = RunReport.Pushes(planned: 10_000 + 500, delivered: 500, rejected: [:], failed: [:], timedOut: 0,
                                    notSent: ["coalesced": 9_000, "no_recipients": 700, "dead_token": 250, "after_end": 50], balanced: true)
        XCTAssertEqual(r.pushes.owed, 500)
        XCTAssertEqual(r.pushes.deliveredShare, 1)
        XCTAssertEqual(SLOCheck.checks(r)[0].line,
                       "✓ delivered share of pushes owed (planned 10500 less 10000 not owed: 9000 coalesced, 700 no_recipients, 250 dead_token, 50 after_end): "
                           + "100.00 %, target ≥ 99.00 % (at least)")
        r.pushes.notSent["run_stopped"] = 10
        r.pushes.planned += 10
        XCTAssertEqual(r.pushes.deliveredShare!, 500.0 / 510, accuracy: 1e-12)
        XCTAssertFalse(SLOCheck.checks(r)[0].met, "a push due and never sent is a loss")
    }

    func testP99AndDeliveredShareLinesSpellTheComparisonOut() {
        var slo = RunConfig.SLO()
        slo.p99 = .milliseconds(1)
        slo.minDelivered = 0.25
        let checks = SLOCheck.checks(report(slo))
        XCTAssertEqual(checks.count, 2)
        XCTAssertTrue(checks[0].line.hasSuffix("target ≤ 1 ms (at most)"), checks[0].line)
        // 5 delivered of the 15 owed (3 no_token were never owed).
        XCTAssertEqual(checks[1].line, "✓ delivered share of pushes owed (planned 18 less 3 not owed: 3 no_token): 33.33 %, target ≥ 25.00 % (at least)")
    }

    /// A run cut by its duration: pushes due after the end are planned but never owed, so every share is
    /// taken of the pushes due, and the lines say so.
    func testPushesDueAfterTheEndAreLeftOutOfEveryShare() {
        var slo = RunConfig.SLO()
        slo.minDelivered = 0.25
        slo.maxErrorShare = ["not_sent": 0.2]
        var r = report(slo)
        r.configuration.schedule.duration = .secondsRounded(5)
        r.pushes.notSent[NotSentCause.afterEnd.rawValue] = 12
        r.pushes.planned += 12
        XCTAssertEqual(r.pushes.due, 18)
        XCTAssertEqual(r.pushes.notSentDue, 4)
        let checks = SLOCheck.checks(r)
        // 5 of the 15 owed, as without the 12; not sent (lost) 1 of 15 (the 12 are not a loss).
        XCTAssertEqual(checks[0].line, "✓ delivered share of pushes owed (planned 30 less 15 not owed: 12 after_end, 3 no_token): 33.33 %, "
            + "target ≥ 25.00 % (at least)")
        XCTAssertEqual(checks[1].actual, "6.67 % (1)")
        XCTAssertTrue(checks[1].met)
        // The same counts with the 12 taken as lost would miss the delivered share.
        r.pushes.notSent[NotSentCause.afterEnd.rawValue] = nil
        r.pushes.notSent[NotSentCause.runStopped.rawValue] = 12
        XCTAssertFalse(SLOCheck.checks(r)[0].met)
    }

    func testNoRulesNoChecks() {
        XCTAssertEqual(SLOCheck.checks(report(RunConfig.SLO())), [])
    }
}
