@testable import Reporting
import XCTest

/// `sweep.html` from synthetic steps: one self-contained page, the knee and SLO drawn and labelled, every
/// step in the table, hostile text escaped.
final class SweepHtmlTests: XCTestCase {
    /// Steps in the order an exponential search runs them: doubling, then bisecting.
    let steps: [SweepStepPoint] = [
        .init(offered: 500, achieved: 500, p50Millis: 4, p99Millis: 12, p999Millis: 20, passed: true, verdict: "pass"),
        .init(offered: 1000, achieved: 999, p50Millis: 5, p99Millis: 15, p999Millis: 30, passed: true, verdict: "pass"),
        .init(offered: 2000, achieved: 1998, p50Millis: 6, p99Millis: 40, p999Millis: 90, passed: true, verdict: "pass"),
        .init(offered: 4000, achieved: 2600, p50Millis: 900, p99Millis: 4_000, p999Millis: 6_500, passed: false,
              verdict: "p99 4000.0 ms over the SLO's 500 ms; sent 2600/s of 4000/s offered (65.0%): the in-flight window (200) was full"),
        .init(offered: 3000, achieved: 2990, p50Millis: 8, p99Millis: 120, p999Millis: 300, passed: true, verdict: "pass"),
        .init(offered: 3500, achieved: 3100, p50Millis: 300, p99Millis: 1_200, p999Millis: 2_000, passed: false,
              verdict: "p99 1200.0 ms over the SLO's 500 ms"),
    ]

    func render(_ steps: [SweepStepPoint]? = nil, knee: Double? = 3000, title: String = "order-changes") -> String {
        SweepHtml.render(steps: steps ?? self.steps, knee: knee, sloP99Millis: 500, title: title)
    }

    /// One document, nothing fetched, no script: the checks both sweep pages share.
    static func assertSelfContained(_ html: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"), file: file, line: line)
        XCTAssertEqual(html.components(separatedBy: "<html").count, 2, "one html element", file: file, line: line)
        XCTAssertEqual(html.components(separatedBy: "</html>").count, 2, file: file, line: line)
        XCTAssertTrue(html.hasSuffix("</html>\n"), file: file, line: line)
        XCTAssertTrue(html.contains("default-src 'none'"), "a CSP forbids every fetch", file: file, line: line)
        let rest = html.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        for needle in ["<script", "http://", "https://", "src=", "@import", "url(", "<link"] {
            XCTAssertFalse(rest.contains(needle), needle, file: file, line: line)
        }
    }

    func testThePageIsSelfContainedWithBothPanelsAndTheTable() {
        let html = render()
        Self.assertSelfContained(html)
        for id in ["headline", "throughput", "latency", "steps"] { XCTAssertTrue(html.contains("id=\"\(id)\""), id) }
        XCTAssertEqual(html.components(separatedBy: "<svg class=\"plot\"").count - 1, 2, "two panels drawn")
        XCTAssertFalse(html.contains("data-points=\"0\""))
        XCTAssertTrue(html.contains("achieved = offered"), "the diagonal")
        for name in ["p50", "p99", "p99.9", "step passed", "step failed"] { XCTAssertTrue(html.contains(">\(name)</li>"), name) }
    }

    func testKneeAndSLOAreDrawnAndLabelled() {
        let html = render()
        XCTAssertEqual(html.components(separatedBy: ">knee at 3000/s (highest passing rate)</text>").count - 1, 2, "the knee's caption in both panels")
        XCTAssertEqual(html.components(separatedBy: "class=\"marker m-knee\"").count - 1, 2)
        // A rule, not a data point: no dot on it.
        let knee = html.components(separatedBy: "class=\"marker m-knee\"")[1].components(separatedBy: "</g>")[0]
        XCTAssertFalse(knee.contains("<circle"), knee)
        XCTAssertTrue(html.contains("SLO: p99 ≤ 500 ms"), "the SLO line in the legend")
        XCTAssertTrue(html.contains("line s-slo dashed"), "the SLO line is dashed")
        XCTAssertTrue(html.contains("✓ knee 3000 pushes/s"))
        XCTAssertTrue(html.contains("SLO p99 ≤ 500 ms"))
        XCTAssertTrue(html.contains("latency (ms, log scale)"), "4 ms to 6.5 s is drawn on a log axis")
    }

    func testTheTableHasEveryStepInTheOrderTheyRan() throws {
        let html = render()
        let table = try XCTUnwrap(html.range(of: "id=\"steps\"").map { String(html[$0.lowerBound...]) })
        var last = table.startIndex
        for (i, s) in steps.enumerated() {
            let row = "<td class=\"n\">\(i + 1)</td><td class=\"n\">\(Int(s.offered))</td>"
            let at = try XCTUnwrap(table.range(of: row), "step \(i + 1)")
            XCTAssertGreaterThan(at.lowerBound, last, "step \(i + 1) in order")
            last = at.lowerBound
        }
        XCTAssertTrue(table.contains("<tr class=\"knee\"><td class=\"n\">5</td>"), "the knee's row")
        XCTAssertTrue(table.contains("<td class=\"n over\">4000.0</td>"), "a p99 over the SLO")
        XCTAssertTrue(table.contains("✗ p99 1200.0 ms over the SLO&#39;s 500 ms"))
        XCTAssertTrue(table.contains("65.0 %"), "the achieved share")
    }

    func testHostileTextIsEscaped() {
        var hostile = steps
        hostile[3].verdict = "<script>alert(1)</script>"
        let html = render(hostile, title: "<script>alert(\"t\")</script> & co")
        Self.assertSelfContained(html)
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; &amp; co"))
    }

    /// The knee's bracket, the limiter and the headroom head the page, bold where marked, escaped; each
    /// failing step's limiter is in the table.
    func testTheFindingsAndEachStepsLimiterAreShown() throws {
        var withLimiter = steps
        withLimiter[3].limiter = "client window: window ÷ mean service time 29.0 ms = 6897 pushes/s; raise --streams (now 100)"
        let html = SweepHtml.render(steps: withLimiter, knee: 3000, sloP99Millis: 500, title: "order-changes", conclusion: [
            "**Knee: 3000 pushes/s**, between 3,000 and 3,500 pushes/s (2 of 2 repeats passed at 3,000; 0 of 2 at 3,500)",
            "Limited by the **client window** (step 6 at 3500/s): <window>",
            "**Headroom**: 125.4× the busiest second (26 pushes/s)",
        ])
        Self.assertSelfContained(html)
        let section = try XCTUnwrap(html.components(separatedBy: "id=\"conclusion\"").last?.components(separatedBy: "</section>").first)
        XCTAssertTrue(section.contains("<strong>Knee: 3000 pushes/s</strong>, between 3,000 and 3,500 pushes/s (2 of 2 repeats passed at 3,000; "
            + "0 of 2 at 3,500)"), section)
        XCTAssertTrue(section.contains("Limited by the <strong>client window</strong> (step 6 at 3500/s): &lt;window&gt;"), section)
        XCTAssertTrue(section.contains("<strong>Headroom</strong>: 125.4× the busiest second"), section)
        XCTAssertTrue(html.contains("<td>client window: window ÷ mean service time 29.0 ms = 6897 pushes/s; raise --streams (now 100)</td>"))
        XCTAssertLessThan(try XCTUnwrap(html.range(of: "id=\"conclusion\"")).lowerBound, try XCTUnwrap(html.range(of: "id=\"throughput\"")).lowerBound,
                          "the findings come before the charts")
        XCTAssertFalse(render().contains("id=\"conclusion\""), "no findings, no section")
    }

    func testNoStepsAndNoKneeSaySo() {
        let empty = render([], knee: nil)
        Self.assertSelfContained(empty)
        XCTAssertTrue(empty.contains("✗ no knee: no step passed"))
        XCTAssertTrue(empty.contains("no steps ran"))
        XCTAssertFalse(empty.contains("<svg"), "nothing to draw is said, not drawn")

        let failing = render(Array(steps[3...3]), knee: nil)
        XCTAssertTrue(failing.contains("✗ no knee"))
        XCTAssertFalse(failing.contains("class=\"marker m-knee\""))
        XCTAssertTrue(failing.contains("class=\"bad\""))
    }

    func testNarrowLatenciesStayOnALinearAxis() {
        let flat = steps.prefix(3).map { s -> SweepStepPoint in
            var s = s
            (s.p50Millis, s.p99Millis, s.p999Millis) = (100, 200, 300)
            return s
        }
        XCTAssertTrue(render(flat, knee: 2000).contains(">latency (ms)</text>"))
    }
}
