import Foundation
import Histogram

/// A ``ComparisonReport`` as one self-contained HTML page, in the run report's style: the verdict, the
/// differences that made the runs incomparable, the table of metrics (regressions first), and both sides'
/// percentile spectra overlaid, response and service time, each side's runs' histograms added up exactly.
public enum ComparisonHtml {
    /// Section ids the page always has (the browser test looks for them).
    public static let sectionIDs = ["headline", "metrics", "spectrum"]

    public static func render(_ r: ComparisonReport, baseline: [RunReport], new: [RunReport]) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <title>apnsbench compare: \(HtmlEscape.text(r.workload))</title>
            <style>\(HtmlStyle.css)</style></head>
            <body>

            """
        let good = r.verdict == .noRegression || (r.verdict == .improvementsOnly && !r.failOnImprovement)
        html += "<header id=\"headline\" class=\"\(good ? "good" : "bad")\">\n<h1>apnsbench compare: \(HtmlEscape.text(r.workload))</h1>\n"
        html += "<p class=\"meta\">baseline \(HtmlEscape.text(r.baseline.argument)) (\(r.baseline.runs) run\(r.baseline.runs == 1 ? "" : "s")) · new "
            + "\(HtmlEscape.text(r.new.argument)) (\(r.new.runs) run\(r.new.runs == 1 ? "" : "s"))</p>\n"
        html += "<p class=\"verdict\">\(HtmlEscape.escape(plain(ComparisonMarkdown.headline(r))))</p>\n"
        html += "<p class=\"note\">Latency and throughput: \(HtmlEscape.escape(r.method.latency)). Counts: \(HtmlEscape.escape(r.method.counts)).</p>\n"
        for w in r.warnings { html += "<p class=\"note\">⚠️ \(HtmlEscape.escape(w))</p>\n" }
        html += "</header>\n"

        if !r.refusals.isEmpty {
            var t = "<table><thead><tr><th>field</th><th>baseline</th><th>new</th><th>between</th></tr></thead><tbody>\n"
            for d in r.refusals {
                t += "<tr><td><code>\(HtmlEscape.text(d.field))</code></td><td>\(HtmlEscape.text(d.baseline))</td>"
                    + "<td>\(HtmlEscape.text(d.new))</td><td>\(HtmlEscape.text(d.between))</td></tr>\n"
            }
            html += section("refusals", "Incomparable: what differs", t + "</tbody></table>\n")
        }

        var t = "<table><thead><tr><th>metric</th><th>baseline</th><th>new</th><th>change</th><th>change %</th><th>verdict</th></tr></thead><tbody>\n"
        for row in r.rows {
            let pct = row.changePercent.map { ComparisonMarkdown.signed($0, places: 1) + "%" } ?? ((row.change ?? 0) != 0 ? "new" : "")
            let places = row.kind == .count ? nil : ComparisonMarkdown.places(row)
            let change = row.change.map { $0 == 0 ? "0" : ComparisonMarkdown.signed($0, places: places) } ?? ""
            let cls = row.verdict == .regression ? " class=\"missed\"" : (row.verdict == .improvement ? " class=\"met\"" : "")
            t += "<tr\(cls)><td>\(HtmlEscape.text(row.metric))</td><td class=\"num\">\(HtmlEscape.text(ComparisonMarkdown.value(row.baseline, row)))</td>"
                + "<td class=\"num\">\(HtmlEscape.text(ComparisonMarkdown.value(row.new, row)))</td><td class=\"num\">\(HtmlEscape.text(change))</td>"
                + "<td class=\"num\">\(HtmlEscape.text(pct))</td><td>\(HtmlEscape.escape(plain(ComparisonMarkdown.verdict(row, r))))</td></tr>\n"
        }
        html += section("metrics", "Metrics, regressions first", r.rows.isEmpty ? "<p class=\"note\">Nothing was compared.</p>\n" : t + "</tbody></table>\n")

        let chart = SvgChart(
            title: "Percentile spectrum, all delivered pushes: baseline against new", xLabel: "percentile", yLabel: "latency (ms)",
            emptyText: "no deliveries on either side", xScale: .percentile, formatY: SvgChart.number,
            lines: [
                .init(name: "baseline response time", style: "other", points: spectrum(baseline, \.responseTime)),
                .init(name: "baseline service time", style: "other", points: spectrum(baseline, \.serviceTime), dashed: true),
                .init(name: "new response time", style: "response", points: spectrum(new, \.responseTime)),
                .init(name: "new service time", style: "response", points: spectrum(new, \.serviceTime), dashed: true),
            ].filter { !$0.points.isEmpty })
        html += section("spectrum", "Latency percentile spectra", "<p class=\"note\">Each side's runs' encoded HdrHistograms added up "
            + "(exact), on the log 1/(1−p) axis from 90 % to 99.999 %.</p>\n" + chart.render())
        return html + "</body></html>\n"
    }

    /// One side's spectrum in ms: its runs' overall histograms (`which` of the pair) added, at the run
    /// report's percentiles; empty when no run of the side has encoded histograms or deliveries.
    static func spectrum(_ reports: [RunReport], _ which: KeyPath<RunReport.EncodedPair, String>) -> [ChartPoint] {
        var sum: Histogram<UInt64>?
        for report in reports {
            guard let encoded = report.latency.histograms?.overall[keyPath: which],
                  let h = try? EncodedHistogram.decode(encoded) else { continue }
            if sum == nil { sum = h } else { sum!.add(h) }
        }
        guard let sum, sum.totalCount > 0 else { return [] }
        return HtmlReport.spectrumPercentiles.map { ChartPoint(x: $0, y: Double(sum.valueAtPercentile($0)) / 1000) }
    }

    /// The Markdown's emoji as the run report's marks, which every font has (headless Chromium here has no emoji font).
    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "✅", with: "✓").replacingOccurrences(of: "❌", with: "✗")
            .replacingOccurrences(of: "⛔", with: "✗").replacingOccurrences(of: "⚠️", with: "!")
    }

    static func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section id=\"\(id)\">\n<h2>\(HtmlEscape.escape(title))</h2>\n\(body)</section>\n"
    }
}
