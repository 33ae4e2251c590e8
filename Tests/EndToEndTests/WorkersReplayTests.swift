import APNsCore
import Foundation
import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// `--workers N` end to end: the order-changes workload (fan-out, planted dead tokens) through a pool of
/// engines against the embedded simulator on loopback.
final class WorkersReplayTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("workers", removedBy: addTeardownBlock)
    }

    func profile(lines: Int = 500, extra: String = "") throws -> String {
        try OrderChangesFixture.profile(in: scratch, name: "workers-test", lines: lines, settings: "connections: 3\nstreams: 20\n" + extra)
    }

    func run(_ profile: String, configure: (inout RunConfigOverrides) -> Void = { _ in }) throws -> (RunReport, String) {
        let (result, out) = try OrderChangesFixture.run(profile, in: scratch, configure: configure)
        let md = try String(contentsOfFile: (out as NSString).appendingPathComponent("summary.md"), encoding: .utf8)
        return (result.report, md)
    }

    func testWorkersEndEveryPushAsOneEngineDoes() throws {
        let path = try profile()
        let (one, _) = try run(path)
        let (three, md) = try run(path) { $0.workers = 3 }
        for report in [one, three] {
            XCTAssertEqual(report.violations(), [], "\(report.pushes)")
            XCTAssertEqual(report.pushes.expectedPlanned, report.pushes.planned)
            XCTAssertEqual(report.pushes.failed, [:])
            XCTAssertEqual(report.pushes.timedOut, 0)
        }
        XCTAssertEqual(one.configuration.transport.workers, 1)
        XCTAssertEqual(three.configuration.transport.workers, 3)
        XCTAssertTrue(md.contains("3 workers"), md)
        // The same workload, the same answers: the workers change who sends, not what happens.
        XCTAssertEqual(three.pushes.planned, one.pushes.planned)
        XCTAssertEqual(three.pushes.delivered, one.pushes.delivered)
        // Pushes to a planted dead token end rejected (410) or, once the engine knows the token is dead,
        // not sent; which of the two depends on what was in flight, so only their sum is fixed.
        XCTAssertEqual(three.pushes.rejectedTotal + three.pushes.notSentTotal, one.pushes.rejectedTotal + one.pushes.notSentTotal)
        XCTAssertEqual(Set(three.pushes.rejected.keys).subtracting(["Unregistered"]), [])
        XCTAssertEqual(three.pushes.notSent["no_recipients"], one.pushes.notSent["no_recipients"])
        XCTAssertEqual(three.events.byKind, one.events.byKind)
        XCTAssertEqual(three.latency.responseTime.count, three.pushes.delivered, "the workers' histograms were merged")
        XCTAssertEqual(three.engine.providerTokenSignings, 3, "one provider token per worker")
        XCTAssertGreaterThanOrEqual(three.engine.connectionsOpened, 3, "each worker opens its own connection")
        XCTAssertEqual(three.timeline.map(\.sent).reduce(0, +), three.throughput.sent)
    }

    func testDurationLimitOverWorkersLosesNothing() throws {
        let path = try profile(lines: 400)
        let (report, _) = try run(path) {
            $0.workers = 2
            $0.schedule = .fixedRate(perSecond: 200)
            $0.duration = .milliseconds(500)
            $0.coalesce = .milliseconds(5_000)
        }
        let p = report.pushes
        XCTAssertEqual(report.violations(), [], "\(p)")
        XCTAssertEqual(p.expectedPlanned, p.planned)
        // What was due after the end is after_end, not lost; at most a push caught at the deadline per worker is.
        XCTAssertGreaterThan(p.afterEnd, 0)
        XCTAssertLessThanOrEqual(p.notSent["run_stopped"] ?? 0, 4)
        XCTAssertEqual(report.configuration.transport.workers, 2)
    }

    func testWorkersAreReadFromTheProfileAndChecked() throws {
        let (report, _) = try run(try profile(extra: "workers: 2"))
        XCTAssertEqual(report.configuration.transport.workers, 2)
        XCTAssertEqual(report.violations(), [])

        XCTAssertThrowsError(try run(try profile(extra: "workers: 2")) { $0.connections = 1 }) { error in
            XCTAssertTrue("\(error)".contains("'workers' 2 needs 2 connections or more"), "\(error)")
        }
        XCTAssertThrowsError(try run(try profile(extra: "workers: 0"))) { error in
            XCTAssertTrue("\(error)".contains("'workers' must be between 1 and \(RunConfig.Transport.workerLimit())"), "\(error)")
        }
        let limit = RunConfig.Transport.workerLimit()
        XCTAssertThrowsError(try run(try profile()) { $0.workers = limit + 1 }) { error in
            XCTAssertEqual(error as? RunConfigFlagError, RunConfigFlagError(RunConfigError(.workers,
                "must be between 1 and \(limit) on this machine (4 per core, at most 64), found \(limit + 1)")))
        }
    }
}
