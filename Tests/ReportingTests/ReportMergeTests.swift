import APNsCore
import Foundation
import Histogram
@testable import Reporting

import XCTest

/// `merge` in memory: shard reports made by real recorders, added class by class and bucket by bucket;
/// every refusal named.
final class ReportMergeTests: XCTestCase {
    /// Shard `index` of `count`: the mixed recorder's 18 pushes, started `offset` seconds after the fixture start.
    private func shard(_ index: Int, of count: Int = 3, runID: String? = "run-1", offset: Double = 0,
                       configure: (inout RunConfig) -> Void = { _ in }) -> ReportMerge.Input {
        var config = Fixtures.configuration
        config.shard = RunConfig.Shard(index: index, count: count)
        configure(&config)
        let recorder = Fixtures.mixedRecorder()
        var report = recorder.makeReport(configuration: config, events: Fixtures.mixedEvents(planned: 18 * count),
                                         environment: Fixtures.environment, engine: Fixtures.engine,
                                         startedAt: Fixtures.startedAt.addingTimeInterval(offset), durationSeconds: 10)
        report.runID = runID
        report.events.streamSHA256 = "abc123"
        return ReportMerge.Input(source: "reports/shard-\(index)", report: report)
    }

    func testShardsAddUpClassByClassAndBucketByBucket() throws {
        let inputs = [shard(0), shard(1, offset: 2), shard(2)]
        XCTAssertNil(inputs[0].report.pushes.expectedPlanned, "a shard does not hold the whole run's pushes")
        let merged = try ReportMerge.merge(inputs)
        XCTAssertEqual(merged.pushes.planned, 54)
        XCTAssertEqual(merged.pushes.expectedPlanned, 54)
        XCTAssertTrue(merged.pushes.balanced)
        XCTAssertEqual(merged.pushes.delivered, 15)
        XCTAssertEqual(merged.pushes.rejected["BadDeviceToken"], RunReport.Rejection(status: 400, count: 6))
        XCTAssertEqual(merged.pushes.failed["curl_7_couldnt_connect"], 6)
        XCTAssertEqual(merged.pushes.timedOut, 6)
        XCTAssertEqual(merged.pushes.notSent, ["no_token": 9, "run_stopped": 3])
        XCTAssertEqual(merged.engine.sent, 3 * Fixtures.engine.sent)
        XCTAssertEqual(merged.latency.undeliveredSent, 3 * inputs[0].report.latency.undeliveredSent)
        XCTAssertEqual(merged.events, inputs[0].report.events)
        XCTAssertNil(merged.configuration.shard)
        XCTAssertEqual(merged.runID, "run-1")
        XCTAssertEqual(merged.merged?.parts.map(\.index), [0, 1, 2])
        XCTAssertEqual(merged.startedAt, "2025-04-16T10:00:00Z")
        XCTAssertEqual(merged.durationSeconds, 12, accuracy: 0.001, "from the first start to the last end")

        // Histograms: the merged one holds every shard's values (three times one shard's, bucket for bucket).
        let one = try inputs[0].report.latency.histograms!.overall.decoded().responseTime
        let all = try merged.latency.histograms!.overall.decoded().responseTime
        XCTAssertEqual(all.totalCount, 3 * one.totalCount)
        for value: UInt64 in [2_000, 4_000, 6_000, 13_000, 15_000] {
            XCTAssertEqual(all.countForValue(value), 3 * one.countForValue(value), "bucket of \(value) µs")
        }
        XCTAssertEqual(merged.latency.responseTime.count, 15)
        XCTAssertEqual(merged.latency.responseTime.p50, inputs[0].report.latency.responseTime.p50)
        XCTAssertEqual(merged.latency.byPriority["5"]?.responseTime.count, 6)
        XCTAssertEqual(merged.latency.byOutcome?["rejected"]?.serviceTime.count, 12)

        // Timeline: shard 1 started 2 s later, so its seconds move by 2.
        let sent = Dictionary(uniqueKeysWithValues: merged.timeline.map { ($0.second, $0.sent) })
        let shardSent = Dictionary(uniqueKeysWithValues: inputs[0].report.timeline.map { ($0.second, $0.sent) })
        XCTAssertEqual(sent[0], 2 * (shardSent[0] ?? 0))
        XCTAssertEqual(sent[2], shardSent[0])
        XCTAssertEqual(merged.timeline.reduce(0) { $0 + $1.delivered }, 15)
        let perSecond = try merged.timeline.compactMap(\.responseTime).map { try EncodedHistogram.decode($0).totalCount }.reduce(0, +)
        XCTAssertEqual(perSecond, 15)
    }

    func testAnIncompleteSetIsRefusedNamingTheMissingShards() {
        XCTAssertThrowsError(try ReportMerge.merge([shard(0, of: 4), shard(2, of: 4)])) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("shards 1, 3 are missing (have 0, 2)"), text)
        }
        XCTAssertThrowsError(try ReportMerge.merge([shard(0), shard(1)])) { error in
            XCTAssertTrue(String(describing: error).contains("shard 2 is missing"), String(describing: error))
        }
    }

    func testShardsThatDoNotBelongTogetherAreRefusedWithEveryProblem() {
        var other = shard(2) { $0.transport.connections = 8 }
        XCTAssertThrowsError(try ReportMerge.merge([shard(0), shard(1), other])) { error in
            XCTAssertTrue(String(describing: error).contains("reports/shard-2: its configuration differs from reports/shard-0's in more than the shard: "
                + "transport.connections"),
                          String(describing: error))
        }
        XCTAssertThrowsError(try ReportMerge.merge([shard(0), shard(1, runID: "run-2"), shard(2)])) { error in
            XCTAssertTrue(String(describing: error).contains("different runs"), String(describing: error))
        }
        XCTAssertThrowsError(try ReportMerge.merge([shard(0), shard(1), shard(1), shard(2)])) { error in
            XCTAssertTrue(String(describing: error).contains("shard 1 is given 2 times"), String(describing: error))
        }
        XCTAssertThrowsError(try ReportMerge.merge([shard(0), shard(1, of: 2), shard(2)])) { error in
            XCTAssertTrue(String(describing: error).contains("different shard counts"), String(describing: error))
        }
        other = shard(2)
        other.report.events.streamSHA256 = "def456"
        XCTAssertThrowsError(try ReportMerge.merge([shard(0), shard(1), other])) { error in
            XCTAssertTrue(String(describing: error).contains("replayed another recording"), String(describing: error))
        }
        other = shard(2)
        other.report.events.read += 1
        XCTAssertThrowsError(try ReportMerge.merge([shard(0), shard(1), other])) { error in
            XCTAssertTrue(String(describing: error).contains("read the stream differently"), String(describing: error))
        }
        var single = shard(0)
        single.report.configuration.shard = nil
        XCTAssertThrowsError(try ReportMerge.merge([single])) { error in
            XCTAssertTrue(String(describing: error).contains("is not a shard's report"), String(describing: error))
        }
        other = shard(2)
        other.report.latency.histograms = nil
        XCTAssertThrowsError(try ReportMerge.merge([shard(0), shard(1), other])) { error in
            XCTAssertTrue(String(describing: error).contains("no encoded histograms"), String(describing: error))
        }
    }

    func testAShardLeavesItsSLOToTheMerge() throws {
        var inputs = [shard(0), shard(1), shard(2)]
        for i in inputs.indices { inputs[i].report.configuration.slo.minDelivered = 0.99 }
        XCTAssertTrue(SLOCheck.checks(inputs[0].report).isEmpty)
        XCTAssertTrue(SummaryText.console(inputs[0].report).contains("shard 0/3: the SLO is judged on the merged report"))
        let merged = try ReportMerge.merge(inputs)
        XCTAssertEqual(SLOCheck.checks(merged).map(\.met), [false], "15 of 54 delivered misses 99 %")
    }
}
