import APNsCore
import APNsEngine
import Foundation
import Reporting
import XCTest
@testable import Harness

/// The live metrics of one run: the workers' progress and the producer's not-sent counts, as OpenMetrics text.
final class LiveMetricsTests: XCTestCase {
    /// 5 delivered, 2 rejected, 1 failed, 1 timed out, 1 not sent (no token) by the workers; 6 in flight.
    static func progress() -> PoolProgress {
        var detail = OutcomeDetail()
        detail.rejected = ["BadDeviceToken": 2]
        detail.failed = ["connection_lost": 1]
        detail.notSent = ["no_token": 1]
        detail.connectionsOpen = 3
        var buckets = OutcomeDetail.BucketCounts()
        buckets.cumulative = OutcomeDetail.BucketCounts.boundsMicros.map { $0 >= 25_000 ? 5 : 0 }
        buckets.count = 5
        buckets.sumMicros = 100_000
        detail.responseTime = [10: buckets]
        var outcomes = OutcomeProgress(delivered: 5, rejected: 2, failed: 1, timedOut: 1, notSent: 1)
        outcomes.detail = detail
        var counters = EngineCounters()
        counters.providerTokenSignings = 4
        return PoolProgress(counters: counters, completed: 9, inFlight: 6, outcomes: outcomes)
    }

    func testServesTheWorkersProgressWithTheProducersNotSentAdded() {
        let live = LiveMetrics(runID: "run-1", shard: 2)
        live.update(Self.progress())
        live.updateProducer(notSent: ["no_token": 2, "coalesced": 3])
        let s = live.current
        XCTAssertEqual(s.outcomes, [.init("delivered"): 5, .init("timed_out"): 1, .init("rejected", "BadDeviceToken"): 2,
                                    .init("failed", "connection_lost"): 1, .init("not_sent", "no_token"): 3, .init("not_sent", "coalesced"): 3])
        XCTAssertEqual(s.inFlight, 6)
        XCTAssertEqual(s.connections, 3)
        XCTAssertEqual(s.providerTokenSignings, 4)
        XCTAssertEqual(s.responseTime[10]?.count, 5)

        let text = live.text()
        XCTAssertTrue(text.contains(#"apnsbench_pushes_total{run_id="run-1",shard="2",outcome="not_sent",reason="no_token"} 3"#), text)
        XCTAssertTrue(text.contains(#"apnsbench_pushes_total{run_id="run-1",shard="2",outcome="delivered"} 5"#), text)
        XCTAssertTrue(text.contains(#"apnsbench_in_flight{run_id="run-1",shard="2"} 6"#), text)
        XCTAssertTrue(text.contains(#"apnsbench_response_time_seconds_bucket{run_id="run-1",shard="2",priority="10",le="0.025"} 5"#), text)
        XCTAssertTrue(text.contains(#"apnsbench_response_time_seconds_bucket{run_id="run-1",shard="2",priority="10",le="0.01"} 0"#), text)
        XCTAssertTrue(text.hasSuffix("# EOF\n"))
    }

    func testTheLatestCountsReplaceTheEarlierOnes() {
        let live = LiveMetrics(runID: "r", shard: 0)
        live.updateProducer(notSent: ["no_token": 2, "coalesced": 3])
        live.updateProducer(notSent: ["no_token": 7])
        XCTAssertEqual(live.current.outcomes[.init("not_sent", "no_token")], 7, "counts so far, not increments")
        XCTAssertNil(live.current.outcomes[.init("not_sent", "coalesced")])
        live.update(Self.progress())
        var later = Self.progress()
        later.outcomes.delivered = 50
        later.inFlight = 0
        live.update(later)
        XCTAssertEqual(live.current.outcomes[.init("delivered")], 50)
        XCTAssertEqual(live.current.inFlight, 0)
        XCTAssertEqual(live.current.outcomes[.init("not_sent", "no_token")], 8, "the producer's 7 with the workers' 1")
    }

    func testNothingIsServedBeforeTheFirstUpdateButTheGauges() {
        let text = LiveMetrics(runID: "r", shard: 0).text()
        XCTAssertFalse(text.contains("apnsbench_pushes_total{"), text)
        XCTAssertTrue(text.contains(#"apnsbench_in_flight{run_id="r",shard="0"} 0"#), text)
        XCTAssertTrue(text.contains(#"apnsbench_provider_token_signings_total{run_id="r",shard="0"} 0"#), text)
    }

    func testTheProducersSinkRecordsAndPublishesItsNotSentCounts() {
        let live = LiveMetrics(runID: "r", shard: 0)
        let recorder = RunRecorder()
        let sink = PublishingSink(recorder, metrics: live)
        sink.record(.notSent(.noToken), priority: .immediate, intended: 0, sent: 0, completed: 0)
        XCTAssertEqual(recorder.notSent, ["no_token": 1], "recorded in the run's recorder")
        XCTAssertEqual(live.current.outcomes[.init("not_sent", "no_token")], 1, "the first is published at once")
    }
}
