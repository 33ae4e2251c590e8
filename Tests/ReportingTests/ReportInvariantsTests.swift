import APNsCore
import Foundation
import Histogram
import TestSupport
import XCTest
@testable import Reporting

/// `RunReport.violations()`: a report as the recorder builds it holds every invariant, and each invariant,
/// broken by editing one field, is named with the field, what was expected and what was found.
final class ReportInvariantsTests: XCTestCase {
    /// The mixed recorder's report: every class, two priorities, a timeline, an engine that sent 14 pushes once.
    static let good = Fixtures.report(from: Fixtures.mixedRecorder())

    func testAReportAsBuiltHoldsEveryInvariant() {
        XCTAssertEqual(Self.good.violations(), [])
        XCTAssertEqual(HdrReportFixture.report().violations(), [])
    }

    /// Breaks `good` with `edit`; the violations must include one of `field`.
    func assertViolation(_ field: String, file: StaticString = #filePath, line: UInt = #line, _ edit: (inout RunReport) -> Void) {
        var report = Self.good
        edit(&report)
        let found = report.violations()
        XCTAssertTrue(found.contains { $0.field == field }, "expected a violation of \(field), found \(found)", file: file, line: line)
    }

    func testEachPushInvariantCanFail() {
        assertViolation("pushes.planned") { $0.pushes.delivered += 1 }
        assertViolation("pushes.planned") { $0.pushes.notSent["no_token", default: 0] -= 1 }
        assertViolation("pushes.expectedPlanned") { $0.pushes.expectedPlanned = $0.pushes.planned + 1 }
        assertViolation("pushes.balanced") { $0.pushes.balanced = false }
        assertViolation("pushes.wouldNotDecode.total") {
            $0.pushes.wouldNotDecode = .init(total: $0.pushes.delivered + 1, byField: [:], checked: 0, failedCheck: 0, notChecked: 0, samples: [])
        }
        // Pushes due after the end belong to a run with a duration only.
        assertViolation("pushes.notSent.after_end") {
            $0.configuration.schedule.duration = nil
            $0.pushes.notSent["no_token", default: 0] -= 1
            $0.pushes.notSent["after_end"] = 1
        }
        var timed = Self.good
        timed.configuration.schedule.duration = .secondsRounded(5)
        timed.pushes.notSent["no_token", default: 0] -= 1
        timed.pushes.notSent["after_end"] = 1
        XCTAssertEqual(timed.violations(), [])
        var edited = Self.good
        edited.pushes.rejected["BadDeviceToken"]?.count += 1
        XCTAssertEqual(edited.violations().first,
                       ReportViolation(field: "pushes.planned", expected: "19 (delivered + rejected + failed + timedOut + notSent)", found: "18"))
    }

    func testEachEventInvariantCanFail() {
        assertViolation("events.read") { $0.events.stateOnly += 1 }
        assertViolation("events.byKind (sum)") { $0.events.byKind["leave.created", default: 0] += 1 }
        assertViolation("events.expectedPushes") { $0.events.expectedPushes = ($0.pushes.expectedPlanned ?? 0) + 1 }
        // The pushes by rule add up to what the events planned (expected less one per bad line).
        var byRule = Self.good
        let planned = (byRule.events.expectedPushes ?? 0) - byRule.events.invalidTotal
        byRule.events.pushesByRule = ["status": ["activity": planned - 3, "delivered": 3]]
        XCTAssertEqual(byRule.violations(), [])
        byRule.events.pushesByRule?["status"]?["delivered"] = 4
        XCTAssertEqual(byRule.violations(), [ReportViolation(field: "events.pushesByRule (sum)",
                                                             expected: "\(planned) (expectedPushes less one per invalid event)", found: "\(planned + 1)")])
    }

    func testEachLatencyInvariantCanFail() {
        assertViolation("latency.serviceTime.count") { $0.latency.serviceTime.count = $0.pushes.delivered + 1 }
        assertViolation("latency.responseTime.count") { $0.latency.responseTime.count += 1 }
        assertViolation("latency.byPriority (sum of counts)") { $0.latency.byPriority["10"]?.serviceTime.count += 1 }
        assertViolation("latency.byPriority.5.responseTime.count") { $0.latency.byPriority["5"]?.responseTime.count += 1 }
        assertViolation("latency.byOutcome.delivered.serviceTime.count") { $0.latency.byOutcome?["delivered"]?.serviceTime.count += 1 }
        assertViolation("latency.byOutcome.rejected.serviceTime.count") { $0.latency.byOutcome?["rejected"]?.serviceTime.count = 5 }
        assertViolation("latency.undeliveredSent") { $0.latency.undeliveredSent = 0 }
        assertViolation("latency.histograms.overall.serviceTime (count)") {
            let other = $0.latency.histograms!.byPriority["5"]!.serviceTime
            $0.latency.histograms?.overall.serviceTime = other
        }
        assertViolation("latency.histograms.byOutcome.failed.responseTime") { $0.latency.histograms?.byOutcome["failed"]?.responseTime = "not a histogram" }
    }

    func testEachTimelineInvariantCanFail() {
        XCTAssertGreaterThan(Self.good.timeline.count, 1)
        assertViolation("throughput.completed") { $0.throughput.completed = $0.throughput.sent + 1 }
        assertViolation("timeline[].sent (sum)") { $0.timeline[0].sent += 1 }
        assertViolation("timeline[].completed (sum)") { $0.timeline[0].completed += 1 }
        assertViolation("timeline[].delivered (sum)") { $0.timeline[1].delivered += 1 }
        assertViolation("timeline[].rejected (sum)") { $0.timeline[0].rejected! += 1; $0.timeline[0].errors += 1 }
        assertViolation("timeline[second 0].errors") { $0.timeline[0].errors += 1 }
        assertViolation("timeline[last].inFlight") { $0.timeline[$0.timeline.count - 1].inFlight = 3 }
        assertViolation("timeline[].resends (sum)") { $0.timeline[0].resends = ["curl_7_couldnt_connect": 1] }
    }

    func testEachEngineInvariantCanFail() {
        assertViolation("engine.sent") { $0.engine.sent += 1 }
        assertViolation("engine.retries (sum)") { $0.engine.retries["ServiceUnavailable"] = 1 }
        assertViolation("engine.retries.BadDeviceToken") {
            $0.engine.retries["BadDeviceToken"] = 1
            $0.engine.retriesTotal = 1
            $0.engine.sent += 1
        }
        // 503s: two resent and none final, but the simulator answered one.
        assertViolation("engine.retries.ServiceUnavailable + pushes.rejected.ServiceUnavailable") {
            $0.engine.retries["ServiceUnavailable"] = 2
            $0.engine.retriesTotal = 2
            $0.engine.sent += 2
            $0.simulator = ["rejected_ServiceUnavailable": 1]
        }
        var resent = Self.good
        resent.engine.retries = ["ServiceUnavailable": 2, "curl_56_recv_error": 1, "stall": 1, "ExpiredProviderToken": 1, "TooManyRequests": 1]
        resent.engine.retriesTotal = 6
        resent.engine.sent += 6
        resent.timeline[0].resends = resent.engine.retries
        resent.simulator = ["rejected_ServiceUnavailable": 3, "rejected_ExpiredProviderToken": 1, "rejected_TooManyRequests": 2]
        XCTAssertEqual(resent.violations(), [], "retryable causes, each answered as often as resent and ended")
    }

    func testASchemaOneReportIsNotHeldToAnAttemptCountItDoesNotCarry() {
        var v1 = Self.good
        v1.engine.sent = v1.throughput.sent
        v1.engine.retriesTotal = 1
        v1.engine.retries = ["curl_56_recv_error": 1]
        v1.timeline[0].resends = v1.engine.retries
        XCTAssertEqual(v1.violations(schemaVersion: 1), [])
        XCTAssertEqual(v1.violations().map(\.field), ["engine.sent"])
    }

    func testTheLoaderRefusesAnEditedReportNamingTheFileAndEachViolation() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        var edited = Self.good
        edited.pushes.delivered += 1
        let path = dir + "/report.json"
        try edited.encoded().write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try RunReport.load(from: path)) { error in
            guard let refusal = error as? ReportInvariantError else { return XCTFail("\(error)") }
            XCTAssertEqual(refusal.path, path)
            XCTAssertEqual(refusal.violations.map(\.field), ["pushes.planned", "pushes.balanced"])
            XCTAssertTrue(refusal.description.contains("\(path): pushes.planned: expected 19"), refusal.description)
        }
        try Self.good.encoded().write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try RunReport.load(from: path), Self.good)
    }

    func testTheShippedSchemaOneFixtureHoldsWhatItCarries() throws {
        let v1 = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/v1-order-changes.report.json").path
        XCTAssertNoThrow(try RunReport.load(from: v1))
    }
}

/// A second report, from many pushes of three classes over six seconds.
enum HdrReportFixture {
    static func report() -> RunReport {
        let r = RunRecorder()
        let t0: UInt64 = 7_000_000_000_000
        r.start(atNanos: t0)
        for i in 0..<600 {
            let sent = t0 + UInt64(i) * 10_000_000
            let outcome: Outcome = i % 10 == 0 ? .rejected(.badDeviceToken) : i % 17 == 0 ? .timedOut : .delivered
            r.record(outcome, priority: i % 3 == 0 ? .powerAware : .immediate, intended: sent, sent: sent, completed: sent + UInt64(i % 50) * 1_000_000 + 1_000)
        }
        var engine = EngineCounters()
        engine.sent = r.planned
        var events = EventTally()
        events.record(kind: "x", .producedPushes(r.planned))
        return r.makeReport(configuration: Fixtures.configuration, events: events, environment: Fixtures.environment, engine: engine,
                            startedAt: Fixtures.startedAt, durationSeconds: 6)
    }
}
