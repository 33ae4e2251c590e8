import APNsCore
import Foundation
import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// Order changes end to end: fan-out, planted dead tokens, pacing, coalescing and early stops, against
/// the embedded simulator on loopback.
final class OrderChangesReplayTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("oc", removedBy: addTeardownBlock)
    }

    /// A prefix of a shipped recording and a profile for it.
    func profile(lines: Int = 500, extra: String = "") throws -> String {
        try OrderChangesFixture.profile(in: scratch, name: "oc-test", lines: lines, settings: "streams: 50\n" + extra)
    }

    func run(_ profile: String, configure: (inout RunConfigOverrides) -> Void = { _ in }) throws -> RunReport {
        try OrderChangesFixture.run(profile, in: scratch, configure: configure).result.report
    }

    func testFanOutReplayBalancesAndOnlyPlantedDeadTokensAreRejected() throws {
        let report = try run(try profile())
        let p = report.pushes
        XCTAssertEqual(report.violations(), [], "\(p)")
        XCTAssertEqual(p.expectedPlanned, p.planned)
        XCTAssertGreaterThan(p.planned, report.events.byKind["order.change"] ?? 0, "fan-out gives more pushes than order changes")
        XCTAssertEqual(Set(p.rejected.keys).subtracting(["Unregistered"]), [], "only the planted dead tokens are rejected: \(p.rejected)")
        XCTAssertEqual(p.failed, [:])
        XCTAssertEqual(p.timedOut, 0)
        XCTAssertEqual(report.events.invalid, [:], "the recording has no bad lines")
        let notSent = p.notSent.values.reduce(0, +)
        XCTAssertEqual(p.delivered + (p.rejected["Unregistered"]?.count ?? 0) + notSent, p.planned)
    }

    func testCoalescingSavesPushesAndReportsStaleness() throws {
        let path = try profile(lines: 800)
        let plain = try run(path)
        let coalesced = try run(path) { $0.coalesce = .milliseconds(60_000) }
        let saved = try XCTUnwrap(coalesced.coalescing)
        XCTAssertEqual(saved.windowMillis, 60_000)
        XCTAssertGreaterThan(saved.pushesSaved, 0)
        XCTAssertEqual(coalesced.pushes.notSent["coalesced"], saved.pushesSaved)
        XCTAssertEqual(coalesced.pushes.planned, plain.pushes.planned, "the same pushes are planned; fewer are sent")
        // Pushes to a dead token after its 410 are not sent (dead_token); how many were already in flight
        // depends on timing, so sent and dead_token are counted together.
        func reached(_ r: RunReport) -> Int { r.throughput.sent + (r.pushes.notSent["dead_token"] ?? 0) + (r.pushes.notSent["no_recipients"] ?? 0) }
        XCTAssertEqual(reached(coalesced) + saved.pushesSaved, reached(plain))
        XCTAssertEqual(coalesced.violations(), [])
        XCTAssertLessThanOrEqual(saved.staleness.max, 60_000)
        XCTAssertEqual(saved.staleness.unit, "ms")
        XCTAssertNil(plain.coalescing)
    }

    func testStoppingEarlyLosesNothing() throws {
        // A slow open-loop rate and a short duration: the run stops mid-stream, mid-fan-out and with
        // updates held for coalescing; all of them are accounted for.
        let path = try profile(lines: 400)
        let report = try run(path) {
            $0.schedule = .fixedRate(perSecond: 200)
            $0.duration = .milliseconds(500)
            $0.coalesce = .milliseconds(5_000)
        }
        let p = report.pushes
        XCTAssertEqual(report.violations(), [], "\(p)")
        XCTAssertEqual(p.expectedPlanned, p.planned)
        // What was due after the end is after_end, not lost; at most the push caught at the deadline is.
        XCTAssertGreaterThan(p.afterEnd, 0)
        XCTAssertLessThanOrEqual(p.notSent["run_stopped"] ?? 0, 2)
        XCTAssertEqual(report.configuration.schedule.mode, .fixedRate(perSecond: 200))
        XCTAssertEqual(report.configuration.coalescing.window, .milliseconds(5_000))
    }

    func testRecordedPaceSchedulesFromTheRecording() throws {
        // The whole recording is a day; at 200,000x it takes under half a second of intended time.
        let report = try run(try profile(lines: 200)) { $0.schedule = .recorded(speed: 200_000) }
        XCTAssertEqual(report.violations(), [])
        XCTAssertEqual(report.configuration.schedule.mode, .recorded(speed: 200_000))
        XCTAssertGreaterThanOrEqual(report.latency.responseTime.p50, report.latency.serviceTime.p50)
    }
}
