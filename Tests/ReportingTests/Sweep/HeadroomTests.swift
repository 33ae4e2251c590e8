import Reporting
import XCTest

/// The knee against the busiest second, the busiest minute and a given peak.
final class HeadroomTests: XCTestCase {
    func testEachPeakGetsItsFactorAndAKneeWithNothingFailingAboveIsALowerBound() throws {
        let h = try XCTUnwrap(Headroom(knee: 3260, atLeast: false, busiestSecond: 26, busiestMinute: 3, givenPeak: 1000))
        XCTAssertEqual(h.lines, ["125.4× the busiest second (26 pushes/s)", "1086.7× the busiest minute (3.0 pushes/s)",
                                 "3.3× the given peak (1000 pushes/s)"])
        let open = try XCTUnwrap(Headroom(knee: 3260, atLeast: true, busiestSecond: 26, busiestMinute: nil, givenPeak: nil))
        XCTAssertEqual(open.lines, ["at least 125.4× the busiest second (26 pushes/s)"])
        XCTAssertNil(Headroom(knee: nil, atLeast: false, busiestSecond: 26, busiestMinute: 3, givenPeak: nil))
        XCTAssertNil(Headroom(knee: 100, atLeast: false, busiestSecond: 0, busiestMinute: nil, givenPeak: nil))
    }
}
