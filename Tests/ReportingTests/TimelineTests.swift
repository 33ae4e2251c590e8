import APNsCore
import Foundation
import Histogram
import XCTest
@testable import Reporting

/// The timeline's per-second data: counts by outcome class, pushes in flight, and each second's
/// response-time histogram, encoded.
final class TimelineTests: XCTestCase {
    let s: UInt64 = 1_000_000_000

    func testEachSecondCountsItsClassesAndInFlight() {
        let r = RunRecorder()
        r.start(atNanos: Fixtures.t0)
        // Second 0: 3 sends; one delivered in second 0, one rejected in second 1, one failed in second 2.
        // Second 1: one send that times out in second 3.
        Fixtures.send(r, .delivered, sentAfterMs: 100, serviceMs: 10)
        Fixtures.send(r, .rejected(.badDeviceToken), sentAfterMs: 200, serviceMs: 1_000)
        Fixtures.send(r, .failed(TransportError(code: 7, key: "curl_7")), sentAfterMs: 300, serviceMs: 2_000)
        Fixtures.send(r, .timedOut, sentAfterMs: 1_500, serviceMs: 2_000)
        let entries = r.timelineEntries
        XCTAssertEqual(entries.map(\.sent), [3, 1, 0, 0])
        XCTAssertEqual(entries.map(\.delivered), [1, 0, 0, 0])
        XCTAssertEqual(entries.map(\.rejected), [0, 1, 0, 0])
        XCTAssertEqual(entries.map(\.failed), [0, 0, 1, 0])
        XCTAssertEqual(entries.map(\.timedOut), [0, 0, 0, 1])
        XCTAssertEqual(entries.map(\.errors), [0, 1, 1, 1])
        XCTAssertEqual(entries.map(\.inFlight), [2, 2, 1, 0])
        XCTAssertNotNil(entries[0].responseTime)
        XCTAssertEqual(entries.dropFirst().map(\.responseTime), [nil, nil, nil], "no deliveries, no histogram")
    }

    func testEachSecondsHistogramHoldsThatSecondsDeliveries() throws {
        let r = RunRecorder()
        r.start(atNanos: Fixtures.t0)
        // Second k (k = 0…4) completes k+1 deliveries of (k+1) * 100 µs each, in completion order.
        for k in 0..<5 {
            for j in 0...k {
                Fixtures.send(r, .delivered, sentAfterMs: Double(k * 1_000 + j), serviceMs: Double(k + 1) / 10)
            }
        }
        let entries = r.timelineEntries
        XCTAssertEqual(entries.count, 5)
        for (k, entry) in entries.enumerated() {
            let h = try EncodedHistogram.decode(try XCTUnwrap(entry.responseTime, "second \(k)"))
            XCTAssertEqual(h.totalCount, UInt64(k + 1), "second \(k)")
            XCTAssertEqual(h.countForValue(UInt64(k + 1) * 100), UInt64(k + 1), "second \(k)")
            XCTAssertEqual(entry.delivered, k + 1)
        }
        // The seconds add up to the run's response-time histogram.
        var sum = LatencyHistograms.makeHistogram()
        for entry in entries { sum.add(try EncodedHistogram.decode(entry.responseTime!)) }
        XCTAssertEqual(LatencySummary(histogram: sum), LatencySummary(histogram: r.latency.response))
    }

    func testMergeAlignsSecondsHistogramsByStartTime() throws {
        let a = RunRecorder()
        a.start(atNanos: Fixtures.t0)
        Fixtures.send(a, .delivered, sentAfterMs: 500, serviceMs: 1)     // a's second 0
        let b = RunRecorder()
        b.start(atNanos: Fixtures.t0 + 2 * s)                            // b started 2 s later
        Fixtures.send(b, .delivered, sentAfterMs: 2_100, serviceMs: 2)   // b's second 0 = a's second 2
        Fixtures.send(b, .delivered, sentAfterMs: 2_200, serviceMs: 2)
        a += b
        let entries = a.timelineEntries
        XCTAssertEqual(entries.map(\.delivered), [1, 0, 2])
        XCTAssertEqual(try EncodedHistogram.decode(try XCTUnwrap(entries[2].responseTime)).countForValue(2_000), 2)
        XCTAssertNil(entries[1].responseTime)
        XCTAssertEqual(try EncodedHistogram.decode(try XCTUnwrap(entries[0].responseTime)).totalCount, 1)
    }

    func testTheReportCarriesTheTimelineThroughJSON() throws {
        let report = Fixtures.report(from: Fixtures.mixedRecorder())
        let reread = try RunReport.decode(report.encoded(), path: "memory")
        XCTAssertEqual(reread.timeline, report.timeline)
        XCTAssertEqual(report.timeline.compactMap(\.responseTime).count, 2, "deliveries in seconds 0 and 1")
        XCTAssertEqual(report.timeline.last?.inFlight, 0)
    }

    func testAReportWithoutTheNewFieldsStillLoads() throws {
        let json = #"[{"second": 0, "sent": 1, "completed": 1, "delivered": 1, "errors": 0}]"#
        let entries = try JSONDecoder().decode([RunReport.TimelineEntry].self, from: Data(json.utf8))
        XCTAssertEqual(entries, [RunReport.TimelineEntry(second: 0, sent: 1, completed: 1, delivered: 1, errors: 0)])
    }
}
