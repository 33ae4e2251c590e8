import XCTest
@testable import Reporting

final class StatisticsTests: XCTestCase {
    func testMedian() {
        let table: [(values: [Double], median: Double?)] = [
            ([], nil), ([7], 7), ([3, 1], 2), ([5, 1, 3], 3), ([4, 1, 3, 2], 2.5), ([1, 1, 1, 100], 1),
        ]
        for (values, median) in table {
            XCTAssertEqual(Statistics.median(values), median, "\(values)")
        }
    }

    /// Whether the bootstrap interval of median(new) − median(baseline) excludes 0, for samples of the
    /// shapes compare meets: equal runs, one run, an outlier run, a clean shift either way.
    func testBootstrapIntervalOfTheMedianDifference() {
        struct Case { var name: String; var baseline: [Double]; var new: [Double]; var significant: Bool?; var contains: Double? }
        let table: [Case] = [
            Case(name: "all equal", baseline: [10, 10, 10], new: [10, 10, 10], significant: false, contains: 0),
            Case(name: "single sample a side", baseline: [10], new: [20], significant: nil, contains: nil),
            Case(name: "single sample one side", baseline: [10, 11, 12], new: [20], significant: nil, contains: nil),
            Case(name: "an outlier run in new", baseline: [10, 11, 10, 12, 11], new: [11, 10, 12, 11, 500], significant: false, contains: 0),
            Case(name: "an outlier run in baseline", baseline: [10, 11, 400, 12, 11], new: [11, 10, 12, 11, 10], significant: false, contains: 0),
            Case(name: "clear shift up, 3 runs a side", baseline: [40, 41, 42], new: [52, 53, 55], significant: true, contains: 12),
            Case(name: "clear shift down, 5 runs a side", baseline: [100, 98, 103, 101, 99], new: [80, 79, 82, 81, 78], significant: true, contains: -20),
            Case(name: "overlapping noise", baseline: [10, 14, 11, 13, 12], new: [11, 15, 12, 10, 13], significant: false, contains: 0),
        ]
        for c in table {
            let ci = Statistics.bootstrapMedianDifference(baseline: c.baseline, new: c.new)
            guard let significant = c.significant else {
                XCTAssertNil(ci, "\(c.name): one run has no spread to resample")
                continue
            }
            guard let ci else { return XCTFail("\(c.name): no interval") }
            XCTAssertEqual(ci.excludesZero, significant, "\(c.name): \(ci)")
            XCTAssertLessThanOrEqual(ci.lower, ci.upper, c.name)
            if let x = c.contains { XCTAssertTrue(ci.lower <= x && x <= ci.upper, "\(c.name): \(ci) should contain \(x)") }
        }
    }

    func testTheBootstrapIsDeterministic() {
        let a: [Double] = [10, 12, 11, 15, 9], b: [Double] = [13, 12, 16, 14, 12]
        XCTAssertEqual(Statistics.bootstrapMedianDifference(baseline: a, new: b), Statistics.bootstrapMedianDifference(baseline: a, new: b))
        XCTAssertEqual(Statistics.bootstrapMedianDifference(baseline: [10, 10], new: [10, 10]), Statistics.Interval(lower: 0, upper: 0))
    }
}
