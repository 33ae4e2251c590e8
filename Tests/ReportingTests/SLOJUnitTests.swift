import APNsCore
import Foundation
import XCTest
@testable import Reporting

/// `run --junit`: a rule's test name is the same in every run (a CI's test history follows it), and the run's
/// counts are in the message.
final class SLOJUnitTests: XCTestCase {
    func report(notOwed: Int) -> RunReport {
        var report = Fixtures.report(from: Fixtures.mixedRecorder())
        report.configuration.slo.minDelivered = 0.25
        report.configuration.slo.maxErrorShare = ["rejected": 0.9]
        report.pushes.notSent[NotSentCause.noToken.rawValue] = notOwed
        report.pushes.planned += notOwed
        return report
    }

    func testsNames(_ xml: String) -> [String] {
        xml.components(separatedBy: "<testcase ").dropFirst().map { String($0.prefix { $0 != ">" }) }
    }

    func testTheTestNamesAreTheSameWhateverTheCounts() {
        let a = SLOJUnit.render(report(notOwed: 3)), b = SLOJUnit.render(report(notOwed: 36))
        XCTAssertEqual(testsNames(a), ["classname=\"apnsbench.slo\" name=\"delivered share of pushes owed ≥ 25.00 %\"",
                                       "classname=\"apnsbench.slo\" name=\"rejected share of pushes owed ≤ 90.00 %\""], a)
        XCTAssertEqual(testsNames(a), testsNames(b))
        XCTAssertTrue(a.contains("<system-out>✓ delivered share of pushes owed (planned 21 less 3 not owed: 3 no_token): 27.78 %, "
            + "target ≥ 25.00 % (at least)</system-out>"), a)
        XCTAssertTrue(b.contains("<system-out>✓ delivered share of pushes owed (planned 54 less 36 not owed: 36 no_token): 27.78 %, "
            + "target ≥ 25.00 % (at least)</system-out>"), b)
    }
}
