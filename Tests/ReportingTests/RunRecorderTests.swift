import APNsCore
import XCTest
@testable import Reporting

final class RunRecorderTests: XCTestCase {
    // MARK: Push accounting

    func testEveryTerminalClassIsCountedOnceAndTheyBalance() {
        let r = Fixtures.mixedRecorder()

        XCTAssertEqual(r.planned, 18)
        XCTAssertEqual(r.delivered, 5)
        XCTAssertEqual(r.rejected["BadDeviceToken"], RunReport.Rejection(status: 400, count: 2))
        XCTAssertEqual(r.rejected["TooManyRequests"], RunReport.Rejection(status: 429, count: 1))
        XCTAssertEqual(r.rejected["HTTP502"], RunReport.Rejection(status: 502, count: 1))
        XCTAssertEqual(r.rejected.count, 3)
        XCTAssertEqual(r.rejectedTotal, 4)
        XCTAssertEqual(r.failed, ["curl_7_couldnt_connect": 2, "curl_56_recv_error": 1])
        XCTAssertEqual(r.failedTotal, 3)
        XCTAssertEqual(r.timedOut, 2)
        XCTAssertEqual(r.notSent, ["no_token": 3, "run_stopped": 1])
        XCTAssertEqual(r.notSentTotal, 4)
        XCTAssertEqual(r.delivered + r.rejectedTotal + r.failedTotal + r.timedOut + r.notSentTotal, 18)
        XCTAssertTrue(r.pushesBalance)

        XCTAssertEqual(r.sent, 14, "not-sent pushes have no send time")
        XCTAssertEqual(r.completed, 14)
        XCTAssertEqual(r.undeliveredSent, 9, "rejected 4 + failed 3 + timed out 2")
    }

    func testExpectedPlannedIsCrossChecked() {
        let r = Fixtures.mixedRecorder()
        r.expectedPlanned = 18
        XCTAssertTrue(r.pushesBalance)
        r.expectedPlanned = 19
        XCTAssertFalse(r.pushesBalance, "the workload planned one push that never reached the recorder")
        r.expectedPlanned = nil
        XCTAssertTrue(r.pushesBalance)
    }

    func testAnEmptyRecorderBalances() {
        let r = RunRecorder()
        XCTAssertEqual(r.planned, 0)
        XCTAssertTrue(r.pushesBalance)
        XCTAssertEqual(r.pushesPerSecond, 0)
        XCTAssertEqual(r.timelineEntries, [])
    }

    // MARK: Latency

    func testHistogramsHoldDeliveredPushesOnly() {
        let r = Fixtures.mixedRecorder()
        XCTAssertEqual(r.latency.count, 5)
        XCTAssertEqual(r.latency.service.totalCount, 5)
        XCTAssertEqual(r.latency.response.totalCount, 5)
        // Service times of the delivered pushes: 2, 4, 6, 8, 10 ms. A rejected push took 1 ms and a
        // timed-out one 30 s: neither may show up.
        XCTAssertEqual(r.latency.service.min, 2_000)
        XCTAssertEqual(r.latency.service.maxRecorded, 10_000)
        XCTAssertEqual(r.latency(priority: .immediate).count, 3)
        XCTAssertEqual(r.latency(priority: .powerAware).count, 2)
        XCTAssertEqual(r.latency(priority: .powerFirst).count, 0)
        XCTAssertEqual(r.latency(priority: .powerAware).service.min, 8_000)
    }

    func testPercentilesOfOneToOneThousandMicroseconds() {
        let r = RunRecorder()
        for us in UInt64(1)...1_000 {
            let sent = Fixtures.t0 + us * 1_000_000
            r.record(.delivered, priority: .powerFirst, intended: sent, sent: sent, completed: sent + Fixtures.ns(us: us))
        }
        // Below 2 048 µs HdrHistogram with 3 digits has unit resolution, so the ladder is exact.
        let s = LatencySummary(histogram: r.latency.service)
        XCTAssertEqual(s.count, 1_000)
        XCTAssertEqual(s.min, 1)
        XCTAssertEqual(s.p50, 500)
        XCTAssertEqual(s.p90, 900)
        XCTAssertEqual(s.p99, 990)
        XCTAssertEqual(s.p999, 999)
        XCTAssertEqual(s.max, 1_000)
        XCTAssertEqual(s.mean, 500.5, accuracy: 0.01)
        XCTAssertEqual(LatencySummary(histogram: r.latency(priority: .powerFirst).service), s)
    }

    func testResponseTimeCountsFromTheIntendedSendTime() {
        let r = RunRecorder()
        // Intended 2 ms before it was sent (the schedule fell behind), answered 1 ms after the send.
        Fixtures.send(r, .delivered, serviceMs: 1, lateMs: 2)
        XCTAssertEqual(r.latency.service.maxRecorded, 1_000)
        XCTAssertEqual(r.latency.response.maxRecorded, 3_000)
        XCTAssertGreaterThan(r.latency.response.maxRecorded, r.latency.service.maxRecorded)
    }

    func testResponseTimeIsNeverBelowServiceTime() {
        let r = RunRecorder()
        let sent = Fixtures.t0
        // Intended 0 ("as soon as possible") and an intended time after the send both count from the send.
        r.record(.delivered, priority: .immediate, intended: 0, sent: sent, completed: sent + Fixtures.ns(us: 700))
        r.record(.delivered, priority: .immediate, intended: sent + Fixtures.ns(us: 500), sent: sent, completed: sent + Fixtures.ns(us: 900))
        XCTAssertEqual(LatencySummary(histogram: r.latency.response), LatencySummary(histogram: r.latency.service))
        XCTAssertEqual(r.latency.response.maxRecorded, 900)
    }

    func testLatencyBeyondOneHourIsClampedNotDropped() {
        let r = RunRecorder()
        let sent = Fixtures.t0
        r.record(.delivered, priority: .immediate, intended: sent, sent: sent, completed: sent + 2 * 3_600 * 1_000_000_000)
        XCTAssertEqual(r.latency.service.totalCount, 1)
        XCTAssertEqual(r.latency.service.maxRecorded, LatencyHistograms.highestMicros)
    }

    func testCompletionBeforeSendRecordsZero() {
        let r = RunRecorder()
        r.record(.delivered, priority: .immediate, intended: Fixtures.t0, sent: Fixtures.t0, completed: Fixtures.t0 - 1)
        XCTAssertEqual(r.latency.service.totalCount, 1)
        XCTAssertEqual(r.latency.service.maxRecorded, 0)
    }

    func testThroughputIsCompletedOverFirstSendToLastCompletion() {
        let r = RunRecorder()
        // 10 pushes, the first sent at 10 ms, the last sent at 1 810 ms and completed at 1 910 ms: 10 / 1.9 s.
        for i in 0..<10 {
            Fixtures.send(r, i == 3 ? .rejected(.badTopic) : .delivered, sentAfterMs: Double(i) * 200 + 10, serviceMs: 100)
        }
        XCTAssertEqual(r.sent, 10)
        XCTAssertEqual(r.completed, 10)
        XCTAssertEqual(r.pushesPerSecond, 10 / 1.9, accuracy: 1e-9)
    }

    // MARK: Merge

    func testMergeAddsCountsHistogramsAndTimelines() {
        let a = Fixtures.mixedRecorder()
        let b = Fixtures.mixedRecorder()
        a.expectedPlanned = 18
        b.expectedPlanned = 18
        a += b

        XCTAssertEqual(a.planned, 36)
        XCTAssertEqual(a.delivered, 10)
        XCTAssertEqual(a.rejected["BadDeviceToken"], RunReport.Rejection(status: 400, count: 4))
        XCTAssertEqual(a.failed["curl_7_couldnt_connect"], 4)
        XCTAssertEqual(a.timedOut, 4)
        XCTAssertEqual(a.notSent["no_token"], 6)
        XCTAssertEqual(a.expectedPlanned, 36)
        XCTAssertTrue(a.pushesBalance)
        XCTAssertEqual(a.latency.count, 10)
        XCTAssertEqual(a.latency(priority: .powerAware).count, 4)
        XCTAssertEqual(a.timelineEntries.map(\.sent).reduce(0, +), 28)
        XCTAssertEqual(a.timelineEntries.first?.sent, 2 * 10, "both workers' first-second sends land in second 0")
    }

    func testMergeAlignsTimelinesByStartTime() {
        let a = RunRecorder()
        a.start(atNanos: Fixtures.t0)
        let b = RunRecorder()
        b.start(atNanos: Fixtures.t0 + 2_000_000_000) // started 2 s later
        Fixtures.send(b, .delivered, sentAfterMs: 2_100, serviceMs: 1) // b's second 0 = a's second 2
        a.merge(b)
        XCTAssertEqual(a.timelineEntries.map(\.sent), [0, 0, 1])
    }

    func testMergeForgetsExpectedPlannedWhenOneSideDoesNotKnow() {
        let a = Fixtures.mixedRecorder()
        a.expectedPlanned = 18
        a.merge(Fixtures.mixedRecorder())
        XCTAssertNil(a.expectedPlanned)
    }
}
