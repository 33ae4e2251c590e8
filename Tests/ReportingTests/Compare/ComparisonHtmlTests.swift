import APNsCore
import Foundation
import XCTest
@testable import Reporting

/// The compare page: its verdict, the metrics table (regressions first), and both sides' spectra overlaid.
final class ComparisonHtmlTests: XCTestCase {
    func testThePageHasTheVerdictTheTableAndBothSpectra() throws {
        let a = [CompareFixtures.run("a/report.json")]
        let b = [CompareFixtures.run("b/report.json") { $0.pushes.delivered -= 1; $0.pushes.notSent["no_token", default: 0] += 1 }]
        let result = CompareFixtures.compare(a, b)
        XCTAssertEqual(result.verdict, .regression)
        let html = ComparisonHtml.render(result, baseline: a.map(\.report), new: b.map(\.report))
        for id in ComparisonHtml.sectionIDs { XCTAssertTrue(html.contains("id=\"\(id)\""), "section \(id)") }
        XCTAssertTrue(html.contains("✗ regression"), "the verdict, in marks every font has")
        XCTAssertTrue(html.contains("<tr class=\"missed\"><td>delivered</td>"), "the regression row, marked")
        for name in ["baseline response time", "new response time", "baseline service time", "new service time"] {
            XCTAssertTrue(html.contains(name), "spectrum series \(name)")
        }
        XCTAssertFalse(html.contains("data-points=\"0\""), "both sides have deliveries to draw")
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "nothing to fetch")
    }

    func testTheSpectrumAddsEachSidesRunsExactly() throws {
        let one = CompareFixtures.run("1/report.json").report
        let single = ComparisonHtml.spectrum([one], \.responseTime)
        let doubled = ComparisonHtml.spectrum([one, one], \.responseTime)
        XCTAssertFalse(single.isEmpty)
        XCTAssertEqual(single, doubled, "two copies of one run have the same percentiles")
    }

    func testAnIncomparablePairListsWhatDiffers() {
        let a = [CompareFixtures.run("a/report.json")]
        let b = [CompareFixtures.run("b/report.json") { $0.configuration.transport.streams = 7 }]
        let result = CompareFixtures.compare(a, b)
        XCTAssertEqual(result.verdict, .incomparable)
        let html = ComparisonHtml.render(result, baseline: a.map(\.report), new: b.map(\.report))
        XCTAssertTrue(html.contains("id=\"refusals\""))
        XCTAssertTrue(html.contains("configuration.transport.streams"))
    }
}
