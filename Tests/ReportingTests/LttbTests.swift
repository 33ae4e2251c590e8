@testable import Reporting
import XCTest

/// Largest-Triangle-Three-Buckets: what it keeps, and how many.
final class LttbTests: XCTestCase {
    func series(_ ys: [Double]) -> [ChartPoint] { ys.enumerated().map { ChartPoint(x: Double($0.offset), y: $0.element) } }

    func testReturnsExactlyTheThresholdAndKeepsFirstAndLast() {
        let points = series((0..<3_600).map { sin(Double($0) / 40) * 100 })
        for threshold in [3, 10, 999, 1_000] {
            let kept = Lttb.downsample(points, to: threshold)
            XCTAssertEqual(kept.count, threshold)
            XCTAssertEqual(kept.first, points.first)
            XCTAssertEqual(kept.last, points.last)
            XCTAssertEqual(kept.map(\.x), kept.map(\.x).sorted(), "in x order")
            XCTAssertEqual(Set(kept.map(\.x)).count, threshold, "no point twice")
        }
    }

    func testKeepsExtremes() {
        var ys = [Double](repeating: 10, count: 5_000)
        ys[1_234] = 900  // a spike
        ys[3_210] = -400  // a dip
        let kept = Lttb.downsample(series(ys), to: 100)
        XCTAssertTrue(kept.contains(ChartPoint(x: 1_234, y: 900)), "the spike stays")
        XCTAssertTrue(kept.contains(ChartPoint(x: 3_210, y: -400)), "the dip stays")
    }

    func testShortSeriesAndSmallThresholdsAreKeptWhole() {
        let points = series([1, 5, 2, 8])
        XCTAssertEqual(Lttb.downsample(points, to: 4), points)
        XCTAssertEqual(Lttb.downsample(points, to: 100), points)
        XCTAssertEqual(Lttb.downsample(points, to: 2), points, "below 3 buckets make no sense: unchanged")
        XCTAssertEqual(Lttb.downsample([], to: 10), [])
        XCTAssertEqual(Lttb.indices(series([3, 1, 4, 1, 5, 9, 2, 6]), to: 3).first, 0)
        XCTAssertEqual(Lttb.indices(series([3, 1, 4, 1, 5, 9, 2, 6]), to: 3).last, 7)
    }
}
