import Foundation

/// `matrix.html`: a tuning matrix (`sweep --vary`) or a concurrency sweep side by side, drawn from its
/// cells alone.
///
/// A table of every cell with all its columns, then small multiples: one horizontal bar chart per metric
/// (pushes sent, budget-throttled, p99, delivered share; pushes/s and pushes saved when the cells have
/// them), one bar per cell in the cells' order, labelled with ``MatrixCell/label``. Given a ``USLFit``,
/// a scatter of throughput against concurrency with the fitted curve, N* marked, and the parameters.
///
/// With a device model, a section of its own: the device's outcomes and time to device by priority, as a
/// table and one chart per outcome and per priority and percentile.
///
/// One self-contained file with no script (``HtmlPage``). Sections, each with a stable `id`: `headline`,
/// `cells`, `device` when the runs modelled devices, `metrics`, and `usl` when a fit is given.
public enum MatrixHtml {
    /// The file name beside `matrix.md` and `matrix.json`.
    public static let fileName = "matrix.html"

    /// The whole page.
    /// - Parameters:
    ///   - cells: the matrix's cells, in the order they ran.
    ///   - usl: the fit of the cells' throughput against concurrency (``USLFit/fit(_:)`` of
    ///     ``USLFit/points(_:)``); nil leaves the `usl` section out.
    ///   - title: the page's heading, e.g. the profile's name; escaped here.
    public static func render(cells: [MatrixCell], usl: USLFit?, title: String) -> String {
        var body = "<header id=\"headline\" class=\"good\">\n<h1>apnsbench matrix: \(HtmlEscape.text(title))</h1>\n"
        let axes = Set(cells.flatMap(\.settings.keys)).sorted()
        body += "<p class=\"meta\">\(cells.count) runs" + (axes.isEmpty ? "" : ", varying \(HtmlEscape.text(axes.joined(separator: ", ")))")
            + "</p>\n</header>\n"
        body += HtmlPage.section("cells", "Every run", table(cells) + tuningTable(cells))
        if cells.contains(where: { $0.deviceThrottled != nil }) {
            body += HtmlPage.section("device", "On the device, in recorded time", deviceTable(cells)
                + "<div class=\"multiples\">\n" + deviceCharts(cells) + "</div>\n")
        }
        body += HtmlPage.section("metrics", "Side by side, one chart per metric", "<div class=\"multiples\">\n" + charts(cells) + "</div>\n")
        if let usl { body += HtmlPage.section("usl", "Throughput against concurrency: the Universal Scalability Law", uslSection(usl, cells: cells)) }
        return HtmlPage.document(title: "apnsbench matrix: \(title)", body: body)
    }

    /// The device's columns, which get a table of their own so that neither table runs off the page.
    static func isDeviceColumn(_ title: String) -> Bool { title.hasPrefix("device:") || title.hasPrefix("to device") }

    /// Each run's further columns (delivered share, concurrency, throughput, coalescing, priority), in a table of
    /// their own for the same reason, when any run has one.
    static func tuningTable(_ cells: [MatrixCell]) -> String {
        let columns = MatrixCell.presentColumns(cells).filter { !isDeviceColumn($0.title) }
        guard !columns.isEmpty else { return "" }
        let rows = cells.map { c -> (cls: String?, cells: [String]) in
            (nil, ["<code>\(HtmlEscape.text(c.label))</code>"] + columns.map { HtmlEscape.escape($0.text(c) ?? "-") })
        }
        return "<div class=\"wide\">" + HtmlPage.table(["settings"] + columns.map { "#" + $0.title }, rows) + "</div>\n"
    }

    static func table(_ cells: [MatrixCell]) -> String {
        guard !cells.isEmpty else { return "<p class=\"empty\">no runs in this matrix</p>\n" }
        let header = ["settings", "#planned", "#pushes sent", "#delivered", "#devices reached", "#connections", "#p50 ms", "#p99 ms",
                      "#budget-throttled", "#channel-API calls"]
        let rows = cells.map { c -> (cls: String?, cells: [String]) in
            let fixed: [String] = [
                "<code>\(HtmlEscape.text(c.label))</code>", String(c.planned), String(c.pushesSent), String(c.delivered), String(c.devicesReached),
                String(c.connectionsOpened), Format.fixed(c.p50Millis, places: 1), Format.fixed(c.p99Millis, places: 1),
                c.budgetThrottled.map(String.init) ?? "-", String(c.channelCalls),
            ]
            return (nil, fixed)
        }
        return "<div class=\"wide\">" + HtmlPage.table(header, rows) + "</div>\n"
    }

    /// Each run's device outcomes and time to device by priority (recorded time).
    static func deviceTable(_ cells: [MatrixCell]) -> String {
        let columns = MatrixCell.presentColumns(cells).filter { isDeviceColumn($0.title) }
        let header = ["settings", "#delivered", "#throttled"] + columns.map { "#" + $0.title.replacingOccurrences(of: "device: ", with: "") }
        let rows = cells.map { c -> (cls: String?, cells: [String]) in
            (nil, ["<code>\(HtmlEscape.text(c.label))</code>", String(c.delivered), c.deviceThrottled.map(String.init) ?? "-"]
                + columns.map { HtmlEscape.escape($0.text(c) ?? "-") })
        }
        return "<div class=\"wide\">" + HtmlPage.table(header, rows) + "</div>\n"
    }

    /// One chart per device outcome, then time to device at p50 and p99 for each priority, one bar per run.
    static func deviceCharts(_ cells: [MatrixCell]) -> String {
        func bars(_ value: (MatrixCell) -> Double?) -> [SvgBarChart.Bar] { cells.map { .init(label: $0.label, value: value($0)) } }
        let outcomes: [(String, KeyPath<MatrixCell, Int?>)] = [
            ("throttled: past the Live Activity budget", \.deviceThrottled), ("replaced: a later push took its place", \.deviceReplaced),
            ("late: shown at a later wake", \.deviceLate),
        ]
        var out = outcomes.map { title, key in
            SvgBarChart(title: "On the device, " + title, axisLabel: "pushes", emptyText: "", bars: bars { $0[keyPath: key].map(Double.init) }).render()
        }.joined()
        let priorities = Set(cells.flatMap { ($0.timeToDeviceP99Millis ?? [:]).keys }).sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        for p in priorities {
            for (q, key) in [("p50", \MatrixCell.timeToDeviceP50Millis), ("p99", \MatrixCell.timeToDeviceP99Millis)] {
                out += SvgBarChart(title: "Time to device, priority \(p), \(q) (recorded time)", axisLabel: "from the event to the device",
                                   emptyText: "no priority-\(p) push was shown on a device", bars: bars { $0[keyPath: key]?[p].map(Double.init) },
                                   format: { $0 < 1000 ? SvgBarChart.compact($0) + " ms" : SummaryText.deviceTime(Int($0)) }).render()
            }
        }
        return out
    }

    /// Delivered of planned: the cell's own share, or worked out for a cell from an older `matrix.json`.
    static func share(_ c: MatrixCell) -> Double? {
        c.deliveredShare ?? (c.planned > 0 ? Double(c.delivered) / Double(c.planned) : nil)
    }

    static func charts(_ cells: [MatrixCell]) -> String {
        func bars(_ value: (MatrixCell) -> Double?) -> [SvgBarChart.Bar] { cells.map { .init(label: $0.label, value: value($0)) } }
        var out = SvgBarChart(title: "Pushes sent", axisLabel: "pushes", emptyText: "no runs", bars: bars { Double($0.pushesSent) }).render()
        out += SvgBarChart(title: "Budget-throttled (priority-10 updates over the Live Activity budget)", axisLabel: "updates",
                           emptyText: "the Live Activity budget was not counted in these runs", bars: bars { $0.budgetThrottled.map(Double.init) }).render()
        out += SvgBarChart(title: "p99 response time (from the intended send)", axisLabel: "ms", emptyText: "no runs",
                           bars: bars { $0.p99Millis }).render()
        out += SvgBarChart(title: "Delivered share of owed", axisLabel: "%", emptyText: "no pushes were planned in these runs",
                           bars: bars { share($0).map { $0 * 100 } }, format: { SvgBarChart.compact($0) + " %" }).render()
        if cells.contains(where: { $0.throughput != nil }) {
            out += SvgBarChart(title: "Throughput", axisLabel: "pushes/s", emptyText: "", bars: bars(\.throughput)).render()
        }
        if cells.contains(where: { $0.pushesSaved != nil }) {
            out += SvgBarChart(title: "Pushes saved by coalescing", axisLabel: "pushes", emptyText: "",
                               bars: bars { $0.pushesSaved.map(Double.init) }).render()
        }
        return out
    }

    static func uslSection(_ fit: USLFit, cells: [MatrixCell]) -> String {
        let points = USLFit.points(cells)
        let peak = fit.peakConcurrency
        let maxN = points.map(\.concurrency).max() ?? 1
        // The curve over the measured range, and on to a little past N* when the peak lies beyond it.
        let end = Swift.max(maxN, Swift.min(peak.map { $0 * 1.25 } ?? 0, maxN * 4))
        let curve = (0...200).map { i -> ChartPoint in
            let n = 1 + (end - 1) * Double(i) / 200
            return ChartPoint(x: n, y: fit.predicted(n))
        }
        var chart = SvgChart(title: "Throughput against concurrency (connections × streams), measured and fitted",
                             xLabel: "concurrency N", yLabel: "pushes/s", emptyText: "no cell has both a concurrency and a throughput",
                             formatX: SvgChart.number)
        if !points.isEmpty {
            chart.lines = [
                .init(name: "USL fit", style: "fit", points: curve),
                .init(name: "measured", style: "measured", points: points.map { ChartPoint(x: $0.concurrency, y: $0.throughput) },
                      dots: true, joined: false),
            ]
            if let peak, peak <= end {
                chart.markers = [.init(x: peak, label: "N* = \(SvgChart.trim(peak)): throughput peaks there", kind: "peak",
                                       caption: "N* ≈ \(Format.fixed(peak, places: 0))")]
            }
        }
        func kpi(_ label: String, _ value: String) -> String { "<div><dt>\(label)</dt><dd>\(HtmlEscape.escape(value))</dd></div>" }
        var body = "<p class=\"note\">X(N) = λ·N / (1 + σ(N − 1) + κ·N(N − 1)), least squares on X over \(points.count) points: "
            + "σ is contention (alone it levels X off at λ/σ), κ coherency (it makes X peak at N* = √((1 − σ)/κ) and fall after).</p>\n"
        body += "<dl class=\"kpis fit\">"
        body += kpi("σ (contention)", String(format: "%.4g", fit.sigma))
        body += kpi("κ (coherency)", String(format: "%.3g", fit.kappa))
        body += kpi("λ (pushes/s at N = 1)", String(format: "%.4g", fit.lambda))
        body += kpi("N* (peak concurrency)", peak.map { Format.fixed($0, places: 1) } ?? "none")
        body += kpi("X(N*) (peak pushes/s)", fit.peakThroughput.map { Format.fixed($0, places: 0) } ?? "-")
        body += kpi("R²", Format.fixed(fit.rSquared, places: 4))
        body += "</dl>\n"
        if peak == nil {
            body += "<p class=\"note\">κ = 0: no retrograde in these points, so no peak; throughput levels off"
                + (fit.sigma > 0 ? " toward λ/σ = \(HtmlEscape.escape(Format.fixed(fit.lambda / fit.sigma, places: 0))) pushes/s" : "") + ".</p>\n"
        } else if let peak, peak > end {
            body += "<p class=\"note\">N* lies far beyond the measured range (up to \(HtmlEscape.escape(SvgChart.trim(maxN)))): not drawn.</p>\n"
        }
        return chart.render() + body
    }
}
