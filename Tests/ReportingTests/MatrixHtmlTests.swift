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

    /// Runs with a device model: a section of their own, the device's columns out of the main table, one chart
    /// per outcome and per priority and percentile of time to device.
    func testDeviceOutcomesAndTimeToDeviceByPriorityAreCharted() {
        var cells = Array(cells().prefix(2))
        for i in cells.indices {
            cells[i].deviceThrottled = 100 * (i + 1)
            cells[i].deviceReplaced = 5
            cells[i].deviceLate = i == 0 ? 0 : 300
            cells[i].timeToDeviceP50Millis = i == 0 ? ["10": 0] : ["10": 0, "5": 420_000]
            cells[i].timeToDeviceP99Millis = i == 0 ? ["10": 30_000] : ["10": 30_000, "5": 2_760_000]
        }
        let html = MatrixHtml.render(cells: cells, usl: nil, title: "tuning")
        XCTAssertTrue(html.contains("id=\"device\""))
        let main = html.components(separatedBy: "id=\"cells\"")[1].components(separatedBy: "</section>")[0]
        XCTAssertFalse(main.contains("replaced") || main.contains("to device"), "the device's columns are in their own table")
        let device = html.components(separatedBy: "id=\"device\"")[1].components(separatedBy: "</section>")[0]
        for title in ["On the device, throttled: past the Live Activity budget", "On the device, replaced: a later push took its place",
                      "On the device, late: shown at a later wake", "Time to device, priority 10, p50 (recorded time)",
                      "Time to device, priority 10, p99 (recorded time)", "Time to device, priority 5, p50 (recorded time)",
                      "Time to device, priority 5, p99 (recorded time)"] {
            XCTAssertTrue(device.contains("<figcaption>\(title)"), title)
        }
        XCTAssertTrue(device.contains(">46 min 0 s<"), "2,760,000 ms written as a time to device")
        XCTAssertTrue(device.contains(">not counted</text>"), "the run without priority-5 pushes keeps its row")
        XCTAssertFalse(MatrixHtml.render(cells: self.cells(), usl: nil, title: "x").contains("id=\"device\""), "no device model, no section")
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
