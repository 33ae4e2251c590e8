import APNsCore
import Foundation
@testable import Reporting
import XCTest

/// Delivered, would not decode on device: counted by the recorders as a part of `delivered`, joined with
/// what the check found, rendered in every view, gated by the SLO and compared (more is worse).
final class WouldNotDecodeTests: XCTestCase {
    static let responseTime = "content-state.responseTime: badDate"
    static let reason = "attributes.reason: nullForNonOptional"

    /// Findings with two failure sets (0: responseTime; 1: responseTime and reason) and a sample for each of
    /// the first `samples` failing pushes.
    static func findings(failing sets: [Int32], decoding: Int = 0) -> (ContractFindings, [(set: Int32, sample: Int32)]) {
        var f = ContractFindings()
        for _ in 0..<decoding { f.recordDecodes() }
        let keys = [[responseTime], [responseTime, reason]]
        let marks = sets.enumerated().map { i, set in
            f.recordFailing(keys: keys[Int(set)]) {
                ContractFindings.Sample(token: "80b3…(160)", event: set == 0 ? "update" : "start", failures: keys[Int(set)], payload: "{\"n\":\(i)}")
            }
        }
        return (f, marks)
    }

    /// A push as the check left it.
    static func push(_ mark: (set: Int32, sample: Int32)) -> OutgoingPush {
        var p = OutgoingPush(bodyCapacity: 0)
        p.contractFailure = mark.set
        p.contractSample = mark.sample
        return p
    }

    func testTheRecorderCountsOnlyWhatItSawDeliveredAndMergesPerWorker() {
        let (findings, marks) = Self.findings(failing: [0, 0, 1, 1, 1, 0], decoding: 4)
        XCTAssertEqual(marks.map(\.set), [0, 0, 1, 1, 1, 0])
        XCTAssertEqual(marks.map(\.sample), [0, 1, 2, 3, 4, 5])
        let a = RunRecorder(), b = RunRecorder()
        a.start(atNanos: Fixtures.t0)
        b.start(atNanos: Fixtures.t0)
        // Worker a delivered pushes 0, 1 and 2; worker b delivered 3 and rejected 4 and 5.
        for i in 0..<3 { Fixtures.send(a, .delivered); a.recordWouldNotDecode(Self.push(marks[i])) }
        Fixtures.send(b, .delivered)
        b.recordWouldNotDecode(Self.push(marks[3]))
        Fixtures.send(b, .rejected(.badDeviceToken))
        Fixtures.send(b, .rejected(.badDeviceToken))
        for _ in 0..<4 { Fixtures.send(a, .delivered) }  // the four that decode
        a += b
        XCTAssertEqual(a.wouldNotDecode.total, 4)
        XCTAssertEqual(a.wouldNotDecode.bySet, [0: 2, 1: 2])
        XCTAssertEqual(a.wouldNotDecode.deliveredSamples, [0, 1, 2, 3])
        XCTAssertTrue(a.pushesBalance)

        let w = RunReport.WouldNotDecode(findings: findings, delivered: a.wouldNotDecode)
        XCTAssertEqual(w.total, 4)
        XCTAssertEqual(w.byField, [Self.responseTime: 4, Self.reason: 2], "a push failing twice counts under both fields")
        XCTAssertEqual(w.checked, 10)
        XCTAssertEqual(w.failedCheck, 6, "failing whatever became of them")
        XCTAssertEqual(w.samples.map(\.payload), ["{\"n\":0}", "{\"n\":1}", "{\"n\":2}", "{\"n\":3}"], "only delivered pushes are samples")
    }

    func testMoreWouldNotDecodeThanDeliveredDoesNotBalance() {
        let r = RunRecorder()
        Fixtures.send(r, .delivered)
        r.recordWouldNotDecode(Self.push((0, -1)))
        XCTAssertTrue(r.pushesBalance)
        r.recordWouldNotDecode(Self.push((0, -1)))
        XCTAssertFalse(r.pushesBalance, "would not decode is a part of delivered")
    }

    func testSamplesAreOnePerFailureSetFirstThenTheRestUpToFive() {
        let (findings, marks) = Self.findings(failing: [0, 0, 0, 0, 0, 1, 1, 1])
        var tally = WouldNotDecodeTally()
        for m in marks { tally.record(set: m.set, sample: m.sample) }
        let w = RunReport.WouldNotDecode(findings: findings, delivered: tally)
        XCTAssertEqual(w.samples.count, 5)
        XCTAssertEqual(w.samples.map(\.payload), ["{\"n\":0}", "{\"n\":1}", "{\"n\":2}", "{\"n\":3}", "{\"n\":5}"], "set 1 has its sample")
    }

    func testFindingsStayBoundedBeyondTheirLimits() {
        var f = ContractFindings()
        var last: (set: Int32, sample: Int32) = (0, 0)
        for i in 0..<(ContractFindings.failureSetLimit + 10) {
            last = f.recordFailing(keys: ["content-state.k\(i): typeMismatch"]) {
                ContractFindings.Sample(token: "t", event: "update", failures: [], payload: "")
            }
        }
        XCTAssertEqual(f.failureSets.count, ContractFindings.failureSetLimit + 1)
        XCTAssertEqual(f.failureSets.last, [ContractFindings.overflowKey])
        XCTAssertEqual(last.set, Int32(ContractFindings.failureSetLimit))
        XCTAssertEqual(f.samples.count, ContractFindings.sampleLimit)
        XCTAssertEqual(last.sample, -1)
        XCTAssertEqual(f.failing, ContractFindings.failureSetLimit + 10)
    }

    /// The mixed fixture's report with 3 of its 5 delivered pushes not decodable.
    static func report(wouldNotDecode total: Int = 3, slo: Double? = nil) -> RunReport {
        var r = Fixtures.report(from: Fixtures.mixedRecorder())
        r.configuration.workload.activityModel = RunConfig.ActivityKitModelFile(path: "profiles/models/LeaveRequestAttributes.swift", sha256: "89634")
        r.configuration.slo.maxWouldNotDecode = slo
        r.pushes.wouldNotDecode = RunReport.WouldNotDecode(
            total: total, byField: total > 0 ? [responseTime: total] : [:], checked: 9, failedCheck: 5, notChecked: 0,
            samples: total > 0 ? [ContractFindings.Sample(token: "80b3…(160)", event: "update",
                                                           failures: ["content-state.responseTime: badDate: "
                                                               + "expected Date (a number of seconds since 2001-01-01), found string \"2025-04-16T10:04:52Z\""],
                                                           payload: "{\"aps\":{\"event\":\"update\",\"content-state\":"
                                                               + "{\"responseTime\":\"2025-04-16T10:04:52Z\"}}}")] : [])
        return r
    }

    func testEveryViewShowsTheCountUnderDelivered() {
        let r = Self.report()
        let console = SummaryText.console(r)
        XCTAssertTrue(console.contains("   ↳ would not decode on device 3 of 5 delivered  (content-state.responseTime: badDate 3)"), console)
        let md = SummaryText.markdown(r)
        XCTAssertTrue(md.contains("| delivered: would not decode on device | 3 |"), md)
        XCTAssertTrue(md.contains("## Device contract"), md)
        XCTAssertTrue(md.contains("**3 of 5 delivered pushes would not decode on the device**"), md)
        XCTAssertTrue(md.contains("LeaveRequestAttributes.swift (dates deferredToDate)"), md)
        XCTAssertTrue(md.contains("| `content-state.responseTime: badDate` | 3 |"), md)
        let html = renderHTML(r)
        XCTAssertTrue(html.contains("<section id=\"device-contract\">"), "the section")
        XCTAssertTrue(html.contains("would not decode on device (<a href=\"#device-contract\">device contract</a>)</td>"
            + "<td class=\"n\">3</td>"), "the outcome row")
        XCTAssertTrue(html.contains("<strong>3 of 5 delivered pushes would not decode on the device</strong>"))
        XCTAssertTrue(html.contains("<dt>would not decode on device</dt><dd>3</dd>"), "the headline figure")
        // None of it without a model.
        let plain = Fixtures.report(from: Fixtures.mixedRecorder())
        XCTAssertFalse(SummaryText.console(plain).contains("would not decode"))
        XCTAssertFalse(SummaryText.markdown(plain).contains("Device contract"))
        XCTAssertFalse(renderHTML(plain).contains("device-contract"))
        // Checked and clean: the console says so.
        XCTAssertTrue(SummaryText.console(Self.report(wouldNotDecode: 0)).contains("would not decode on device 0 of 5 delivered; "
            + "9 checked as planned (sent or not) against LeaveRequestAttributes.swift (dates deferredToDate)"))
    }

    func testTheSLOIsAShareOfDeliveredPushes() {
        func check(_ r: RunReport) -> SLOCheck? { SLOCheck.checks(r).first { $0.what == "delivered pushes the device would not decode" } }
        let missed = try! XCTUnwrap(check(Self.report(wouldNotDecode: 3, slo: 0)))
        XCTAssertFalse(missed.met)
        XCTAssertEqual(missed.actual, "60.00 % (3)")
        XCTAssertEqual(missed.target, "≤ 0.00 %")
        XCTAssertEqual(check(Self.report(wouldNotDecode: 0, slo: 0))?.met, true)
        XCTAssertEqual(check(Self.report(wouldNotDecode: 3, slo: 0.6))?.met, true)
        XCTAssertNil(check(Self.report(wouldNotDecode: 3)), "no rule, no check")
    }

    func testCompareCountsMoreAsARegressionByFieldToo() {
        func run(_ total: Int, _ extra: [String: Int] = [:]) -> LoadedReport {
            var r = Self.report(wouldNotDecode: total)
            r.pushes.wouldNotDecode?.byField.merge(extra, uniquingKeysWith: +)
            return LoadedReport(path: "r\(total)/report.json", schemaVersion: 2, report: r)
        }
        let worse = CompareFixtures.compare([run(0)], [run(3)])
        XCTAssertEqual(worse.row("delivered, would not decode on device")?.verdict, .regression)
        XCTAssertEqual(worse.row("would not decode \(Self.responseTime)")?.verdict, .regression)
        XCTAssertEqual(worse.row("would not decode \(Self.responseTime)")?.note, "new: not there before")
        XCTAssertEqual(worse.verdict, .regression)
        let better = CompareFixtures.compare([run(3)], [run(0)])
        XCTAssertEqual(better.row("delivered, would not decode on device")?.verdict, .improvement)
        XCTAssertEqual(better.verdict, .improvementsOnly)
        let same = CompareFixtures.compare([run(3)], [run(3)])
        XCTAssertEqual(same.row("delivered, would not decode on device")?.verdict, .unchanged)
        XCTAssertEqual(same.verdict, .noRegression)
        XCTAssertNil(CompareFixtures.compare([CompareFixtures.run()], [CompareFixtures.run()]).row("delivered, would not decode on device"),
                     "no row for runs not checked")
    }

    func testShardsAddUp() throws {
        func shard(_ index: Int, wouldNotDecode total: Int) -> ReportMerge.Input {
            var config = Self.report().configuration
            config.shard = RunConfig.Shard(index: index, count: 2)
            var report = Fixtures.mixedRecorder().makeReport(configuration: config, events: Fixtures.mixedEvents(planned: 36),
                                                             environment: Fixtures.environment, engine: Fixtures.engine,
                                                             startedAt: Fixtures.startedAt, durationSeconds: 10)
            report.runID = "run-1"
            report.events.streamSHA256 = "abc123"
            report.pushes.wouldNotDecode = Self.report(wouldNotDecode: total).pushes.wouldNotDecode
            return ReportMerge.Input(source: "reports/shard-\(index)", report: report)
        }
        let merged = try ReportMerge.merge([shard(0, wouldNotDecode: 3), shard(1, wouldNotDecode: 2)])
        XCTAssertEqual(merged.pushes.wouldNotDecode?.total, 5)
        XCTAssertEqual(merged.pushes.wouldNotDecode?.byField, [Self.responseTime: 5])
        XCTAssertEqual(merged.pushes.wouldNotDecode?.checked, 18)
        XCTAssertEqual(merged.pushes.wouldNotDecode?.samples.count, 2)
        XCTAssertTrue(merged.pushes.balanced)
    }

    /// Pushes checked only partly (some values left to parts of the model that are not checked) are counted
    /// apart from those checked fully, the parts are named, and shards add their counts.
    func testPushesCheckedPartlyAreCountedApartAndMerged() {
        var f = ContractFindings()
        f.uncheckedParts = ["RouteAttributes: RouteAttributes.Waypoint (line 7): its own init(from:) decides what it decodes"]
        f.recordDecodes()
        f.recordDecodes(partly: true)
        _ = f.recordFailing(keys: [Self.responseTime], partly: true) {
            ContractFindings.Sample(token: "t", event: "update", failures: [Self.responseTime], payload: "{}")
        }
        let w = RunReport.WouldNotDecode(findings: f, delivered: WouldNotDecodeTally())
        XCTAssertEqual(w.checked, 3)
        XCTAssertEqual(w.checkedPartly, 2)
        XCTAssertEqual(w.checkedFully, 1)
        XCTAssertEqual(w.uncheckedParts, f.uncheckedParts)
        let merged = w + w
        XCTAssertEqual(merged.checkedPartly, 4)
        XCTAssertEqual(merged.checkedFully, 2)
        // A report written before the count existed reads as checked fully.
        let old = RunReport.WouldNotDecode(total: 0, byField: [:], checked: 5, failedCheck: 0, notChecked: 0, samples: [])
        XCTAssertEqual(old.checkedFully, 5)
    }
}
