import XCTest
@testable import Reporting

final class LatencySummaryTests: XCTestCase {
    func testEmptyHistogramSummarizesToZeros() {
        let s = LatencySummary(histogram: LatencyHistograms().service)
        XCTAssertEqual(s, .empty)
        XCTAssertEqual(s.unit, "us")
        XCTAssertEqual(s.count, 0)
        XCTAssertEqual(s.max, 0)
    }

    func testLargeValuesKeepThreeSignificantDigits() {
        var h = LatencyHistograms()
        // 1 ms … 1 s in 1 ms steps.
        for ms in UInt64(1)...1_000 { h.record(serviceMicros: ms * 1_000, responseMicros: ms * 1_000) }
        let s = LatencySummary(histogram: h.service)
        XCTAssertEqual(s.count, 1_000)
        XCTAssertEqual(s.min, 1_000)
        XCTAssertEqual(s.max, 1_000_000, "max is the exact recorded value")
        XCTAssertEqual(Double(s.p50), 500_000, accuracy: 500_000 * 0.001)
        XCTAssertEqual(Double(s.p90), 900_000, accuracy: 900_000 * 0.001)
        XCTAssertEqual(Double(s.p99), 990_000, accuracy: 990_000 * 0.001)
        XCTAssertEqual(Double(s.p999), 999_000, accuracy: 999_000 * 0.001)
        XCTAssertEqual(s.mean, 500_500, accuracy: 500_500 * 0.001)
        XCTAssertLessThanOrEqual(s.p50, s.p90)
        XCTAssertLessThanOrEqual(s.p99, s.p999)
        XCTAssertLessThanOrEqual(s.p999, s.max)
    }

    func testASkewedDistributionPutsTheTailInTheTopPercentiles() {
        var h = LatencyHistograms()
        for _ in 0..<990 { h.record(serviceMicros: 100, responseMicros: 100) }
        for _ in 0..<10 { h.record(serviceMicros: 50_000, responseMicros: 50_000) }
        let s = LatencySummary(histogram: h.response)
        XCTAssertEqual(s.p50, 100)
        XCTAssertEqual(s.p90, 100)
        XCTAssertEqual(s.p99, 100, "exactly 99 % are at 100 µs")
        XCTAssertEqual(Double(s.p999), 50_000, accuracy: 50)
        XCTAssertEqual(s.max, 50_000)
    }
}
