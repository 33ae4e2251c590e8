import APNsCore
import XCTest
@testable import Reporting

/// Counts are compared exactly, each with its polarity.
final class CountFindingsTests: XCTestCase {
    func compare(_ edit: (inout RunReport) -> Void) -> ComparisonReport {
        CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run("run/report.json", edit)])
    }

    func testIdenticalCountsAreUnchanged() {
        let r = compare { _ in }
        XCTAssertEqual(r.verdict, .noRegression)
        for row in r.rows where row.kind == .count { XCTAssertEqual(row.verdict, .unchanged, row.metric) }
        XCTAssertEqual(r.row("rejected BadDeviceToken")?.baseline, 2)
        XCTAssertEqual(r.row("not sent no_token")?.new, 3)
        XCTAssertEqual(r.row("provider-token signings")?.baseline, 1)
        XCTAssertEqual(r.row("connections opened")?.baseline, 3)
        XCTAssertEqual(r.method.counts, "exact")
    }

    /// (what changes, the metric, its expected verdict, the note if one is expected)
    func testPolarity() {
        let table: [(name: String, edit: (inout RunReport) -> Void, metric: String, verdict: ComparisonReport.Row.Verdict, note: String?)] = [
            ("fewer delivered", { $0.pushes.delivered -= 1 }, "delivered", .regression, nil),
            ("more delivered", { $0.pushes.delivered += 1 }, "delivered", .improvement, nil),
            ("a new rejection reason", { $0.pushes.rejected["ServiceUnavailable"] = .init(status: 503, count: 7) },
             "rejected ServiceUnavailable", .regression, "new: not there before"),
            ("more of a known reason", { $0.pushes.rejected["BadDeviceToken"]!.count = 3 }, "rejected BadDeviceToken", .regression, nil),
            ("fewer rejections", { $0.pushes.rejected["BadDeviceToken"]!.count = 1 }, "rejected BadDeviceToken", .improvement, nil),
            ("a reason gone", { $0.pushes.rejected["TooManyRequests"] = nil }, "rejected TooManyRequests", .improvement, "gone"),
            ("more not sent", { $0.pushes.notSent["no_token"] = 4 }, "not sent no_token", .regression, nil),
            ("a new not-sent cause", { $0.pushes.notSent["dead_token"] = 1 }, "not sent dead_token", .regression, "new: not there before"),
            ("fewer not sent", { $0.pushes.notSent["no_token"] = 1 }, "not sent no_token", .improvement, nil),
            ("more failed", { $0.pushes.failed["curl_56_recv_error"] = 2 }, "failed curl_56_recv_error", .regression, nil),
            ("more timed out", { $0.pushes.timedOut += 1 }, "timed out", .regression, nil),
            ("more signings", { $0.engine.providerTokenSignings = 2 }, "provider-token signings", .regression, nil),
            ("fewer connections (past the tolerance of 1)", { $0.engine.connectionsOpened = 1 }, "connections opened", .improvement, nil),
            ("more connections", { $0.engine.connectionsOpened = 9 }, "connections opened", .regression, nil),
            ("planned changed either way", { $0.pushes.planned += 1 }, "planned", .regression,
             "changed: the same recording and configuration should plan the same pushes"),
            ("planned changed down", { $0.pushes.planned -= 1 }, "planned", .regression,
             "changed: the same recording and configuration should plan the same pushes"),
        ]
        for c in table {
            let r = compare(c.edit)
            let row = r.row(c.metric)
            XCTAssertEqual(row?.verdict, c.verdict, c.name)
            if let note = c.note { XCTAssertEqual(row?.note, note, c.name) }
            XCTAssertEqual(r.verdict, c.verdict == .regression ? .regression : .improvementsOnly, c.name)
        }
    }

    func testLiveActivityBudgetThrottledInRecordedTimeWhenTheRunCountedIt() {
        func budget(_ throttled: Int) -> RunReport.LiveActivityBudgetCount {
            .init(priority10PerHour: 10, windowSeconds: 3600, priority10Updates: 100, throttled: throttled, activitiesThrottled: 3)
        }
        let name = "Live Activity budget-throttled (recorded time)"
        let a = CompareFixtures.run { $0.liveActivityBudget = budget(12) }
        XCTAssertEqual(CompareFixtures.compare([a], [CompareFixtures.run { $0.liveActivityBudget = budget(12) }]).row(name)?.verdict, .unchanged)
        let more = CompareFixtures.compare([a], [CompareFixtures.run { $0.liveActivityBudget = budget(20) }])
        XCTAssertEqual(more.row(name)?.verdict, .regression)
        XCTAssertEqual(more.row(name)?.change, 8)
        XCTAssertEqual(more.verdict, .regression)
        XCTAssertEqual(CompareFixtures.compare([a], [CompareFixtures.run { $0.liveActivityBudget = budget(5) }]).row(name)?.verdict, .improvement)
        // Runs that sent no Live Activity updates have no such row.
        XCTAssertNil(CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run()]).row(name))
    }

    func testLiveActivityBudgetOverrunsWhenTheSimulatorCountsThem() {
        var a = CompareFixtures.run()
        a.report.simulator = [CountFindings.budgetOverrunsKey: 4]
        let more = CompareFixtures.run { $0.simulator = [CountFindings.budgetOverrunsKey: 9] }
        let r = CompareFixtures.compare([a], [more])
        XCTAssertEqual(r.row("Live Activity budget overruns")?.verdict, .regression)
        XCTAssertEqual(r.row("Live Activity budget overruns")?.change, 5)
        // Without the counter (a run against a remote target) there is no row.
        var noSim = CompareFixtures.run()
        noSim.report.simulator = nil
        XCTAssertNil(CompareFixtures.compare([noSim], [noSim]).row("Live Activity budget overruns"))
    }

    func testWithRepeatsTheMediansAreComparedAndVariationIsNoted() {
        let a = [3, 3, 2].enumerated().map { i, n in CompareFixtures.run("a/\(i)/report.json") { $0.pushes.rejected["BadDeviceToken"]!.count = n } }
        let b = [3, 2, 3].enumerated().map { i, n in CompareFixtures.run("b/\(i)/report.json") { $0.pushes.rejected["BadDeviceToken"]!.count = n } }
        let r = CompareFixtures.compare(a, b)
        XCTAssertEqual(r.row("rejected BadDeviceToken")?.verdict, .unchanged)
        XCTAssertEqual(r.row("rejected BadDeviceToken")?.baselineRuns, [3, 3, 2])
        XCTAssertEqual(r.method.counts, "exact, on the median of each side's runs")
        XCTAssertTrue(r.warnings.contains("rejected BadDeviceToken differs between the baseline runs: 3, 3, 2 (the median is compared)"), "\(r.warnings)")
    }

    /// Counts that depend on timing are judged against their noise: a delivered push that moved to
    /// `after_end` (where the run's end fell), the dead-token split while its sum holds, a change within one
    /// side's own spread. Past that noise they are findings as before.
    func testTimingDependentCountsAreJudgedAgainstTheirNoise() {
        let movedToAfterEnd = CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run {
            $0.pushes.delivered -= 1
            $0.pushes.notSent["after_end", default: 0] += 1
        }])
        XCTAssertEqual(movedToAfterEnd.row("delivered")?.verdict, .withinNoise)
        XCTAssertEqual(movedToAfterEnd.verdict, .noRegression)
        let lost = CompareFixtures.compare([CompareFixtures.run()],
                                           [CompareFixtures.run { $0.pushes.delivered -= 2; $0.pushes.notSent["after_end", default: 0] += 1 }])
        XCTAssertEqual(lost.row("delivered")?.verdict, .regression, "2 fewer delivered, 1 more after the end")

        func dead(_ notSent: Int, _ rejected: Int) -> LoadedReport {
            CompareFixtures.run { $0.pushes.notSent["dead_token"] = notSent; $0.pushes.rejected["Unregistered"] = .init(status: 410, count: rejected) }
        }
        let split = CompareFixtures.compare([dead(2, 1)], [dead(1, 2)])
        XCTAssertEqual(split.row("rejected Unregistered")?.verdict, .withinNoise)
        XCTAssertEqual(split.row("not sent dead_token")?.verdict, .withinNoise)
        XCTAssertEqual(split.verdict, .noRegression)
        XCTAssertEqual(CompareFixtures.compare([dead(2, 1)], [dead(2, 2)]).row("rejected Unregistered")?.verdict, .regression, "the sum grew")

        func runs(_ counts: [Int]) -> [LoadedReport] {
            counts.enumerated().map { i, n in CompareFixtures.run("\(n)/\(i)/report.json") { $0.pushes.failed["curl_56_recv_error"] = n } }
        }
        XCTAssertEqual(CompareFixtures.compare(runs([3, 5, 4]), runs([5, 6, 5])).row("failed curl_56_recv_error")?.verdict, .withinNoise)
        XCTAssertEqual(CompareFixtures.compare(runs([4, 4, 4]), runs([5, 5, 5])).row("failed curl_56_recv_error")?.verdict, .regression)
    }
}
