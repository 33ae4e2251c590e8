import APNsCore
import Foundation
import Histogram
import XCTest
@testable import Reporting

/// The report's encoded histograms: one per summary, per outcome class of sent pushes, and each
/// decoding back to its summary after a trip through report.json.
final class EncodedLatencyTests: XCTestCase {
    func testSentButUndeliveredPushesHaveTheirOwnHistograms() {
        let r = Fixtures.mixedRecorder()
        XCTAssertEqual(r.latency.count, 5, "delivered only, as before")
        XCTAssertEqual(r.latencyRejected.count, 4)
        XCTAssertEqual(r.latencyFailed.count, 3)
        XCTAssertEqual(r.latencyTimedOut.count, 2)
        XCTAssertEqual(r.latencyRejected.service.maxRecorded, 1_000, "rejections took 1 ms")
        XCTAssertEqual(r.latencyTimedOut.service.min, 30_000_000, "timeouts took 30 s")
        XCTAssertEqual(r.undeliveredSent, 9)
    }

    func testReportSummarizesAndEncodesEveryView() throws {
        let report = Fixtures.report(from: Fixtures.mixedRecorder())
        let latency = report.latency
        XCTAssertEqual(latency.byOutcome?["delivered"], RunReport.PriorityLatency(serviceTime: latency.serviceTime, responseTime: latency.responseTime))
        XCTAssertEqual(latency.byOutcome?["rejected"]?.serviceTime.count, 4)
        XCTAssertEqual(latency.byOutcome?["failed"]?.responseTime.count, 3)
        XCTAssertEqual(latency.byOutcome?["timedOut"]?.serviceTime.count, 2)

        let h = try XCTUnwrap(latency.histograms)
        XCTAssertEqual(h.encoding, "hdrhistogram-v2-compressed-base64")
        XCTAssertEqual(h.unit, "us")
        XCTAssertEqual(Set(h.byPriority.keys), Set(latency.byPriority.keys))
        XCTAssertEqual(Set(h.byPushType.keys), ["liveactivity"])
        XCTAssertEqual(Set(h.byOutcome.keys), ["delivered", "rejected", "failed", "timedOut"])
        XCTAssertTrue(h.overall.responseTime.hasPrefix("HISTFAAA"), "the V2 compressed cookie, base64")
    }

    /// Every summary in a written and reloaded report equals the summary of its decoded histogram
    /// (the fixture's values are below 2 048 µs or exact bucket edges, where decoding loses nothing).
    func testEncodedHistogramsDecodeToTheirSummariesAfterAJSONRoundTrip() throws {
        let r = RunRecorder()
        r.start(atNanos: Fixtures.t0)
        // 1 000 delivered pushes of 1 … 1 000 µs service time, half of them 500 µs late; priorities 10 and 5.
        for i in 1...1_000 {
            Fixtures.send(r, .delivered, priority: i % 2 == 0 ? .immediate : .powerAware, sentAfterMs: Double(i),
                          serviceMs: Double(i) / 1_000, lateMs: i % 2 == 0 ? 0.5 : 0)
        }
        for i in 1...100 { Fixtures.send(r, .rejected(.badDeviceToken), sentAfterMs: Double(i), serviceMs: Double(i) / 100) }
        let written = Fixtures.report(from: r)
        let report = try RunReport.decode(written.encoded(), path: "memory")
        XCTAssertEqual(report, written)

        let latency = report.latency
        let h = try XCTUnwrap(latency.histograms)
        func check(_ pair: RunReport.EncodedPair, _ summary: RunReport.PriorityLatency?, _ name: String) throws {
            let summary = try XCTUnwrap(summary, name)
            let (service, response) = try pair.decoded()
            XCTAssertEqual(LatencySummary(histogram: service), summary.serviceTime, "\(name) service time")
            XCTAssertEqual(LatencySummary(histogram: response), summary.responseTime, "\(name) response time")
        }
        try check(h.overall, RunReport.PriorityLatency(serviceTime: latency.serviceTime, responseTime: latency.responseTime), "overall")
        XCTAssertEqual(latency.serviceTime.count, 1_000)
        for (key, pair) in h.byPriority { try check(pair, latency.byPriority[key], "priority \(key)") }
        for (key, pair) in h.byPushType { try check(pair, latency.byPushType?[key], "push type \(key)") }
        for (key, pair) in h.byOutcome { try check(pair, latency.byOutcome?[key], "outcome \(key)") }
        XCTAssertEqual(h.byPriority.count, 2)
        XCTAssertEqual(h.byOutcome.count, 2)
        XCTAssertEqual(try h.byOutcome["rejected"]?.decoded().serviceTime.totalCount, 100)
    }

    func testMergeAddsTheOutcomeHistograms() {
        let a = Fixtures.mixedRecorder()
        a += Fixtures.mixedRecorder()
        XCTAssertEqual(a.latencyRejected.count, 8)
        XCTAssertEqual(a.latencyFailed.count, 6)
        XCTAssertEqual(a.latencyTimedOut.count, 4)
    }
}
