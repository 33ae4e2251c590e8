import APNsCore
import Reporting
import XCTest

/// A step's rates from its report: offered and sent count the same pushes, over the window in which the
/// schedule was sending.
final class SweepStepAccountingTests: XCTestCase {
    struct Row {
        var name: String
        var rate: Double
        var stepSeconds: Double = 10
        /// Pushes that went to the target, spread evenly over `sendingSeconds`.
        var sent: Int
        var sendingSeconds: Double = 10
        var notSent: [NotSentCause: Int] = [:]
        var retries = 0
        var durationSeconds: Double = 10.2
        // Expected.
        var offered: Double
        var achieved: Double
        var ended = false
        var passes: Bool
    }

    func report(_ row: Row) -> RunReport {
        let r = RunRecorder(intervalSeconds: 1)
        r.start(atNanos: Fixtures.t0)
        let gap = row.sendingSeconds / Double(row.sent)
        for i in 0..<row.sent {
            let at = Fixtures.t0 + UInt64(Double(i) * gap * 1e9)
            r.record(.delivered, priority: .immediate, intended: at, sent: at, completed: at + 1_000_000)
        }
        for (cause, n) in row.notSent {
            for _ in 0..<n { r.record(.notSent(cause), priority: .immediate, intended: Fixtures.t0, sent: 0, completed: 0) }
        }
        var engine = EngineCounters()
        engine.retriesTotal = row.retries
        var events = EventTally()
        events.record(kind: "e", .producedPushes(r.planned))
        return r.makeReport(configuration: Fixtures.configuration, events: events, environment: Fixtures.environment, engine: engine,
                            startedAt: Fixtures.startedAt, durationSeconds: row.durationSeconds)
    }

    func testOfferedAndSentCountTheSamePushes() {
        let rows = [
            // The shipped order-changes stream at 1000/s: 3.92% of the scheduled pushes go to tokens already
            // answered 410. They had their place in the schedule but no target could take them.
            Row(name: "dead tokens are neither offered nor sent", rate: 1000, sent: 9608,
                notSent: [.deadToken: 392, .noToken: 500, .noRecipients: 700], offered: 960.8, achieved: 960.8, passes: true),
            Row(name: "a broadcast channel gone", rate: 100, sent: 900, notSent: [.channelGone: 100], offered: 90, achieved: 90, passes: true),
            Row(name: "resends are not subtracted again", rate: 1000, sent: 10_000, retries: 500, offered: 1000, achieved: 1000, passes: true),
            Row(name: "a real shortfall stays one", rate: 1000, sent: 9000, notSent: [.runStopped: 1000], offered: 1000, achieved: 900, passes: false),
            Row(name: "the recording ran out at 6 s: measured over 6 s", rate: 1000, sent: 6000, sendingSeconds: 6, durationSeconds: 6.2,
                offered: 1000, achieved: 1000, ended: true, passes: false),
        ]
        let criteria = KneeCriteria(sloP99Millis: 1000, minDelivered: 0.5)
        for row in rows {
            let step = SweepStep(report: report(row), offeredRate: row.rate, stepSeconds: row.stepSeconds)
            XCTAssertEqual(step.offeredRate, row.offered, accuracy: row.offered * 0.001, row.name)
            XCTAssertEqual(step.achievedRate, row.achieved, accuracy: row.achieved * 0.002, row.name)
            XCTAssertEqual(step.scheduledRate, row.rate, row.name)
            XCTAssertEqual(step.streamEnded, row.ended, row.name)
            let failures = criteria.failures(of: step, first: nil)
            XCTAssertEqual(failures.isEmpty, row.passes, "\(row.name): \(failures)")
        }
    }

    func testTheCPUSharesAreTakenOverTheWindow() {
        var r = report(Row(name: "", rate: 1000, sent: 10_000, offered: 0, achieved: 0, passes: true))
        r.engine.engineCPUMillis = 9_000
        r.engine.busiestEngineCPUMillis = 5_000
        r.engine.producerCPUMillis = 2_000
        r.engine.producerLatePushes = 250
        let step = SweepStep(report: r, offeredRate: 1000, stepSeconds: 10)
        XCTAssertEqual(step.engineCPU ?? 0, 0.5, accuracy: 1e-9, "the busiest thread, not the sum")
        XCTAssertEqual(step.producerCPU ?? 0, 0.2, accuracy: 1e-9)
        XCTAssertEqual(step.producerLateShare ?? 0, 0.025, accuracy: 1e-9)
    }
}

/// The warm-up: a step's first fifth is left out of its p99.
final class SweepStepWarmupTests: XCTestCase {
    func testASlowStartIsLeftOutOfTheStepsP99ButNotOutOfItsTrend() throws {
        let r = RunRecorder(intervalSeconds: 1)
        r.start(atNanos: Fixtures.t0)
        // 10 s at 100/s: the first second answered in 800 ms (connections opening; all in by 1.8 s), the rest in 5 ms.
        for i in 0..<1000 {
            let at = Fixtures.t0 + UInt64(i) * 10_000_000
            r.record(.delivered, priority: .immediate, intended: at, sent: at, completed: at + (i < 100 ? 800_000_000 : 5_000_000))
        }
        var events = EventTally()
        events.record(kind: "e", .producedPushes(r.planned))
        let report = r.makeReport(configuration: Fixtures.configuration, events: events, environment: Fixtures.environment,
                                  engine: EngineCounters(), startedAt: Fixtures.startedAt, durationSeconds: 10.2)
        XCTAssertGreaterThan(Double(report.latency.responseTime.p99) / 1000, 700, "the whole run's p99 is the slow start's")
        let step = SweepStep(report: report, offeredRate: 100, stepSeconds: 10)
        XCTAssertEqual(step.warmupSeconds, 2)
        XCTAssertEqual(step.p99Millis, 5, accuracy: 1, "the step's p99 leaves the first 2 s out")
        // The sent rate is the whole step's (the not-sendable share it is set against is the whole step's).
        XCTAssertEqual(step.achievedRate, 100, accuracy: 1)
        XCTAssertEqual(step.intervalP50Millis?.count, 10, "the trend reads every interval")
        XCTAssertEqual(SweepStep.warmup(stepSeconds: 3, interval: 1), 1)
        XCTAssertEqual(SweepStep.warmup(stepSeconds: 60, interval: 1), 5)
    }
}
