import Reporting
import XCTest

/// The knee held to the given peak times the minimum headroom.
final class PeakRequirementTests: XCTestCase {
    func testAKneeUnderThePeakMissesIt() {
        let r = PeakRequirement(peak: 1000, minHeadroom: 1, knee: 310, atLeast: false)
        XCTAssertFalse(r.met)
        XCTAssertEqual(r.line, "✗ knee 310 pushes/s is under the 1.0× headroom over the given peak (1,000 pushes/s) required: 1,000 pushes/s; it carries 0.31×")
    }

    func testAKneeOverThePeakButUnderTheHeadroomMissesIt() {
        let r = PeakRequirement(peak: 400, minHeadroom: 1.5, knee: 550, atLeast: false)
        XCTAssertFalse(r.met)
        XCTAssertEqual(r.line, "✗ knee 550 pushes/s is under the 1.5× headroom over the given peak (400 pushes/s) required: 600 pushes/s; it carries 1.38×")
    }

    func testALowerBoundUnderThePeakMissesItAndSaysHowFarToSearch() {
        let r = PeakRequirement(peak: 400, minHeadroom: 1.5, knee: 150, atLeast: true)
        XCTAssertFalse(r.met)
        XCTAssertEqual(r.line, "✗ knee at least 150 pushes/s is under the 1.5× headroom over the given peak (400 pushes/s) required: 600 pushes/s; "
                       + "it carries 0.38× (no rate above it failed: search up to 600 pushes/s to know whether it carries more)")
    }

    func testAKneeAtTheRequiredRateMeetsIt() {
        let r = PeakRequirement(peak: 1000, minHeadroom: 2, knee: 4019, atLeast: true)
        XCTAssertTrue(r.met)
        XCTAssertEqual(r.line, "✓ knee at least 4,019 pushes/s carries 4.02× the given peak (1,000 pushes/s), at least the 2.0× required")
        XCTAssertTrue(PeakRequirement(peak: 1000, minHeadroom: 2, knee: 2000, atLeast: false).met, "exactly the required rate")
    }

    func testNoKneeMissesIt() {
        let r = PeakRequirement(peak: 100, minHeadroom: 1, knee: nil, atLeast: false)
        XCTAssertFalse(r.met)
        XCTAssertEqual(r.line, "✗ no knee: no step passed, so nothing carries 1.0× the given peak (100 pushes/s)")
    }
}
