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

    func testNoRulesNoChecks() {
        XCTAssertEqual(SLOCheck.checks(report(RunConfig.SLO())), [])
    }
}
