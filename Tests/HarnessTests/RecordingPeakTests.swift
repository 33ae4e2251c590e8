import APNsCore
import Foundation
import XCTest
@testable import Harness

/// The recording's own push rate, walked without sending: pushes by recorded second and by minute.
final class RecordingPeakTests: XCTestCase {
    func testCountsPlannedPushesAndFindsTheBusiestSecondAndMinute() throws {
        let peak = try RecordingPeak.measure(try HarnessFixture(self).config())
        XCTAssertEqual(peak.pushes, 7, "every status change of a request with a token; the tokenless one is not sent")
        XCTAssertEqual(peak.peakSecond, 2)
        XCTAssertEqual(peak.peakMinutePerSecond, 4.0 / 60, accuracy: 1e-12, "07:02:30 to 07:02:45 holds 4 pushes, 07:00:10 to 07:00:40 only 3")
        XCTAssertEqual(peak.peakMinuteAt, "2025-04-16T07:02:30Z")
    }

    func testARecordingThatPlansNoPushHasNoPeak() throws {
        let fixture = try HarnessFixture(self)
        var config = try fixture.config()
        config.workload.stream = try fixture.write("empty.ndjson", HarnessFixture.created(1, "07:00:00", token: HarnessFixture.tokens[0]) + "\n")
        XCTAssertEqual(try RecordingPeak.measure(config), RecordingPeak(pushes: 0, peakSecond: 0, peakMinutePerSecond: 0, peakMinuteAt: nil))
    }

    func testAnUnreadableRecipeIsAnErrorNamingIt() throws {
        var config = try HarnessFixture(self).config()
        config.workload.recipe = "/nonexistent/r.yaml"
        XCTAssertThrowsError(try RecordingPeak.measure(config)) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/r.yaml: cannot read the recipe: "), "\(error)")
        }
    }
}
