@testable import Reporting
import XCTest

/// `matrix.html`: self-contained, every cell labelled in the table and each chart, the USL fit printed and
/// drawn, missing metrics said in words, hostile labels escaped.
final class MatrixHtmlTests: XCTestCase {
    func cells(labels: [String]? = nil) -> [MatrixCell] { MatrixCellTests.cells(labels: labels) }

    func testBarValuesAreShortTheTableHasThemExactly() {
        let table: [(Double, String)] = [(0, "0"), (2, "2"), (0.25, "0.25"), (10.01, "10"), (10.34, "10.3"), (99.6, "99.6"), (1320.72, "1321"),
                                         (30_900, "30.9k"), (172_788, "173k"), (1_250_000, "1.25M")]
        for (value, text) in table { XCTAssertEqual(SvgBarChart.compact(value), text, "\(value)") }
    }

    func testAnOlderCellStillGetsItsDeliveredShareCharted() throws {
        var cells = cells()
        for i in cells.indices { cells[i].deliveredShare = nil }
        // Worked out for the chart from planned and delivered.
        XCTAssertTrue(MatrixHtml.render(cells: cells, usl: nil, title: "old").contains("Delivered share of owed</figcaption><svg"))
    }

    func testThePageHasTheTableEveryChartAndTheFit() throws {
        let cells = cells()
        let fit = try USLFit.fit(USLFit.points(cells))
        let html = MatrixHtml.render(cells: cells, usl: fit, title: "leave-requests")
        SweepHtmlTests.assertSelfContained(html)
        for id in ["headline", "cells", "metrics", "usl"] { XCTAssertTrue(html.contains("id=\"\(id)\""), id) }
        for c in cells {
            XCTAssertTrue(html.contains("<code>\(c.label)</code>"), "\(c.label) in the table")
            XCTAssertEqual(html.components(separatedBy: ">\(c.label)</text>").count - 1, 6, "\(c.label) labels a bar in each of the 6 charts")
        }
        for title in ["Pushes sent", "Budget-throttled", "p99 response time", "Delivered share of owed", "Throughput", "Pushes saved by coalescing"] {
            XCTAssertTrue(html.contains("<figcaption>\(title)"), title)
        }
        XCTAssertEqual(html.components(separatedBy: "<svg class=\"bars\"").count - 1, 6)
        XCTAssertTrue(html.contains("<dt>σ (contention)</dt><dd>\(String(format: "%.4g", fit.sigma))</dd>"))
        XCTAssertTrue(html.contains("<dt>κ (coherency)</dt><dd>\(String(format: "%.3g", fit.kappa))</dd>"))
        XCTAssertTrue(html.contains("<dt>λ (pushes/s at N = 1)</dt>"))
        XCTAssertTrue(html.contains("<dt>R²</dt>"))
        let peak = try XCTUnwrap(fit.peakConcurrency)
        XCTAssertTrue(html.contains("<dt>N* (peak concurrency)</dt><dd>\(Format.fixed(peak, places: 1))</dd>"))
        XCTAssertTrue(html.contains(">N* ≈ 69</text>"), "N* marked on the chart")
        XCTAssertTrue(html.contains(">measured</li>") && html.contains(">USL fit</li>"))
        XCTAssertTrue(html.contains("data-points=\"207\""), "201 curve points and 6 measured")
    }

    func testWithoutAFitThereIsNoUSLSectionAndMissingMetricsSaySo() {
        var cells = cells()
        for i in cells.indices { cells[i].budgetThrottled = nil }
        let html = MatrixHtml.render(cells: cells, usl: nil, title: "t")
        XCTAssertFalse(html.contains("id=\"usl\""))
        XCTAssertTrue(html.contains("the Live Activity budget was not counted in these runs"))
        cells[0].budgetThrottled = 3
        XCTAssertTrue(MatrixHtml.render(cells: cells, usl: nil, title: "t").contains(">not counted</text>"), "a cell without the metric keeps its row")
    }

    func testAnAmdahlFitSaysThereIsNoPeak() {
        let html = MatrixHtml.render(cells: cells(), usl: USLFit(sigma: 0.1, kappa: 0, lambda: 500, rSquared: 0.99), title: "t")
        XCTAssertTrue(html.contains("<dt>N* (peak concurrency)</dt><dd>none</dd>"))
        XCTAssertTrue(html.contains("toward λ/σ = 5000 pushes/s"))
        XCTAssertFalse(html.contains("class=\"marker m-peak\""))
    }

    func testHostileLabelsAreEscaped() {
        let hostile = "<script>alert(1)</script>"
        let html = MatrixHtml.render(cells: cells(labels: [hostile, "a\"b", "c&d", "4", "5", "6"]), usl: nil, title: "<img onerror=x>")
        SweepHtmlTests.assertSelfContained(html)
        XCTAssertTrue(html.contains("streams=&lt;script&gt;alert(1)&lt;/script&gt;"))
        XCTAssertTrue(html.contains("streams=a&quot;b") && html.contains("streams=c&amp;d"))
        XCTAssertTrue(html.contains("&lt;img onerror=x&gt;"))
        XCTAssertFalse(html.contains("<img"))
    }
}
