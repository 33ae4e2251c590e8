@testable import Harness
import Reporting
import XCTest

/// Which step later steps are judged against, when the first one ran on a disturbed host.
final class SweepBaselineTests: XCTestCase {
    private let busy = HostLoad(otherCores: 1.2, stealCores: 0, idleCores: 0.1, ownCores: 0.7)
    private let quiet = HostLoad(otherCores: 0, stealCores: 0, idleCores: 1.2, ownCores: 0.8)

    private func step(_ index: Int, rate: Double, serviceP50: Double, host: HostLoad?) -> RateSweep.Step {
        var s = SweepStep(offeredRate: rate, achievedRate: rate, p99Millis: serviceP50 * 2, deliveredShare: 1)
        s.scheduledRate = rate
        s.serviceP50Millis = serviceP50
        s.host = host
        return RateSweep.Step(index: index, directory: "step-\(index)", result: s, failures: [])
    }

    func testADisturbedFirstStepMeasuredAgainIsTheBaselineByItsReMeasurement() {
        let disturbed = step(1, rate: 1000, serviceP50: 560, host: busy)
        let again = step(2, rate: 1000, serviceP50: 27, host: quiet)
        // The re-measurement of the first rate is judged as the first step is: against nothing.
        XCTAssertNil(RateSweep.baseline([disturbed], judging: 1000))
        // Any other rate, before a quiet measurement of the first: the first step as measured.
        XCTAssertEqual(RateSweep.baseline([disturbed], judging: 2000)?.index, 1)
        // Once the first rate was measured on a quiet host, that measurement is the baseline for every later step.
        XCTAssertEqual(RateSweep.baseline([disturbed, again], judging: 2000)?.index, 2)
        XCTAssertEqual(RateSweep.baseline([disturbed, again, step(3, rate: 2000, serviceP50: 30, host: quiet)], judging: 4000)?.index, 2)
    }

    func testAQuietOrUnsampledFirstStepStaysTheBaseline() {
        let first = step(1, rate: 1000, serviceP50: 27, host: quiet)
        XCTAssertNil(RateSweep.baseline([], judging: 1000))
        XCTAssertEqual(RateSweep.baseline([first, step(2, rate: 2000, serviceP50: 28, host: busy)], judging: 4000)?.index, 1)
        // A first step without host figures (no /proc/stat) is not taken as disturbed.
        XCTAssertEqual(RateSweep.baseline([step(1, rate: 1000, serviceP50: 27, host: nil)], judging: 2000)?.index, 1)
    }
}
