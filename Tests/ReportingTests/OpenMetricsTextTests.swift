import APNsCore
import Histogram
@testable import Reporting

import XCTest

final class OpenMetricsTextTests: XCTestCase {
    func testBucketsAreCumulativeAtTheFixedBounds() {
        var h = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        for v: UInt64 in [500, 2_000, 30_000, 40_000_000] { _ = h.record(v) }
        let b = OutcomeDetail.BucketCounts(h)
        let bounds = OutcomeDetail.BucketCounts.boundsMicros
        func at(_ micros: UInt64) -> UInt64 { b.cumulative[bounds.firstIndex(of: micros)!] }
        XCTAssertEqual(at(1_000), 1)
        XCTAssertEqual(at(2_500), 2)
        XCTAssertEqual(at(25_000), 2)
        XCTAssertEqual(at(50_000), 3)
        XCTAssertEqual(at(30_000_000), 3, "40 s is only in +Inf")
        XCTAssertEqual(b.count, 4)
        XCTAssertEqual(b.sumMicros, 40_032_500, accuracy: 40_032_500 * 0.001)
    }

    func testTheTextCarriesEverySeriesWithRunAndShardAndEndsWithEOF() {
        var s = MetricsSample()
        s.outcomes[.init("delivered")] = 7
        s.outcomes[.init("rejected", "BadDeviceToken")] = 2
        s.outcomes[.init("not_sent", "no_token")] = 1
        var b = OutcomeDetail.BucketCounts()
        b.count = 7
        b.sumMicros = 70_000
        b.cumulative = b.cumulative.map { _ in 7 }
        s.responseTime[10] = b
        s.inFlight = 3
        s.connections = 2
        s.providerTokenSignings = 1
        let text = OpenMetricsText.render(s, runID: "run-\"x\"", shard: 2)
        let base = #"run_id="run-\"x\"",shard="2""#
        XCTAssertTrue(text.contains("apnsbench_pushes_total{\(base),outcome=\"delivered\"} 7\n"), text)
        XCTAssertTrue(text.contains("apnsbench_pushes_total{\(base),outcome=\"rejected\",reason=\"BadDeviceToken\"} 2\n"), text)
        XCTAssertTrue(text.contains("apnsbench_response_time_seconds_bucket{\(base),priority=\"10\",le=\"0.001\"} 7\n"), text)
        XCTAssertTrue(text.contains("apnsbench_response_time_seconds_bucket{\(base),priority=\"10\",le=\"+Inf\"} 7\n"), text)
        XCTAssertTrue(text.contains("apnsbench_response_time_seconds_sum{\(base),priority=\"10\"} 0.07\n"), text)
        XCTAssertTrue(text.contains("apnsbench_in_flight{\(base)} 3\n"), text)
        XCTAssertTrue(text.contains("apnsbench_connections{\(base)} 2\n"), text)
        XCTAssertTrue(text.contains("apnsbench_provider_token_signings_total{\(base)} 1\n"), text)
        XCTAssertTrue(text.hasSuffix("# EOF\n"))
        XCTAssertEqual(OpenMetricsText.seconds(2_500), "0.0025")
        XCTAssertEqual(OpenMetricsText.seconds(30_000_000), "30.0")
    }

    func testTheFinalSampleIsTheReports() throws {
        let report = Fixtures.report(from: Fixtures.mixedRecorder())
        let s = MetricsSample(report: report)
        XCTAssertEqual(s.outcomes.values.reduce(0, +), report.pushes.planned)
        XCTAssertEqual(s.outcomes[.init("rejected", "BadDeviceToken")], 2)
        XCTAssertEqual(s.responseTime[10]?.count, 3)
        XCTAssertEqual(s.responseTime[5]?.count, 2)
        XCTAssertEqual(s.inFlight, 0)
    }

    func testARecorderAskedForDetailGivesItsCountsAndBuckets() {
        let r = Fixtures.mixedRecorder()
        XCTAssertNil(r.progressSnapshot().detail)
        r.detailedProgress = true
        let d = r.progressSnapshot().detail
        XCTAssertEqual(d?.rejected["BadDeviceToken"], 2)
        XCTAssertEqual(d?.failed["curl_7_couldnt_connect"], 2)
        XCTAssertEqual(d?.notSent["no_token"], 3)
        XCTAssertEqual(d?.responseTime[10]?.count, 3)
        XCTAssertEqual(d?.responseTime[1], nil)
    }
}
