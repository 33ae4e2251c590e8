import Foundation

/// `sweep.html`: a rate sweep's latency–throughput page, drawn from its steps alone.
///
/// Two panels over the offered rate: the achieved rate against the y = x diagonal (where the client or
/// the target stops keeping up, the line falls under it), and p50, p99 and p99.9 with the SLO as a dashed
/// horizontal line (on a log axis when they span more than a decade). The knee is a vertical line with its
/// value in both. Then a table of the steps in the order they ran, with each verdict.
///
/// One self-contained file like `report.html` (``HtmlPage``), but with no script at all. Sections, each
/// with a stable `id`: `headline`, `throughput`, `latency`, `steps`.
public enum SweepHtml {
    /// The file name beside `sweep.md` and `sweep.json`.
    public static let fileName = "sweep.html"

    /// The whole page.
    /// - Parameters:
    ///   - steps: every step, in the order they ran (the charts sort them by offered rate).
    ///   - knee: the highest offered rate that passed; nil when none did.
    ///   - sloP99Millis: the p99 SLO the steps were judged by (`slo_p99_ms`).
    ///   - title: the page's heading, e.g. the profile's name; escaped here.
    ///   - conclusion: the sweep's findings (the knee's bracket, the limiter, the headroom), one line each,
    ///     `**bold**` marked; escaped here.
    ///   - requirement: the knee held to the given peak; unmet, the headline says so.
    public static func render(steps: [SweepStepPoint], knee: Double?, sloP99Millis: Double, title: String, conclusion: [String] = [],
                              requirement: PeakRequirement? = nil) -> String {
        let sorted = steps.sorted { $0.offered < $1.offered }
        var body = headline(steps: steps, knee: knee, sloP99Millis: sloP99Millis, title: title, requirement: requirement)
        if !conclusion.isEmpty { body += HtmlPage.section("conclusion", "Knee, limiter and headroom", findings(conclusion)) }
        body += HtmlPage.section("throughput", "Achieved rate against offered", throughputChart(sorted, knee: knee))
        body += HtmlPage.section("latency", "Latency against offered rate", latencyChart(sorted, knee: knee, slo: sloP99Millis))
        body += HtmlPage.section("steps", "Steps, in the order they ran", table(steps, knee: knee, slo: sloP99Millis))
        return HtmlPage.document(title: "apnsbench sweep: \(title)", body: body)
    }

    static func rate(_ v: Double) -> String { SvgChart.number(v.rounded()) + "/s" }

    static func kneeMarker(_ knee: Double?) -> [SvgChart.Marker] {
        // A dashed rule without a dot, captioned as a boundary: the steps are the chart's only points.
        knee.map { [SvgChart.Marker(x: $0, label: "knee: \(rate($0)), the highest offered rate that passed", kind: "knee",
                                    caption: "knee at \(rate($0)) (highest passing rate)", dot: false)] } ?? []
    }

    static func headline(steps: [SweepStepPoint], knee: Double?, sloP99Millis: Double, title: String, requirement: PeakRequirement? = nil) -> String {
        var h = "<header id=\"headline\" class=\"\(knee == nil || requirement?.met == false ? "bad" : "good")\">\n"
        h += "<h1>apnsbench sweep: \(HtmlEscape.text(title))</h1>\n"
        let passed = steps.filter(\.passed).count
        let offered = steps.map(\.offered)
        var meta = "\(steps.count) steps, \(passed) passed"
        if let lo = offered.min(), let hi = offered.max() { meta += ", offered \(Format.fixed(lo, places: 0)) to \(Format.fixed(hi, places: 0)) pushes/s" }
        meta += " · SLO p99 ≤ \(SvgChart.trim(sloP99Millis)) ms"
        h += "<p class=\"meta\">\(HtmlEscape.escape(meta))</p>\n"
        if let knee {
            h += "<p class=\"verdict\">✓ knee \(HtmlEscape.escape(Format.fixed(knee, places: 0))) pushes/s: the highest offered rate that passed</p>\n"
        } else {
            h += "<p class=\"verdict\">✗ no knee: no step passed</p>\n"
        }
        if let requirement { h += "<p class=\"verdict\">\(HtmlEscape.escape(requirement.line))</p>\n" }
        return h + "</header>\n"
    }

    /// The findings as a list, `**x**` in bold.
    static func findings(_ lines: [String]) -> String {
        let items = lines.map { line -> String in
            let parts = line.components(separatedBy: "**")
            let html = parts.enumerated().map { i, p in i % 2 == 1 ? "<strong>\(HtmlEscape.escape(p))</strong>" : HtmlEscape.escape(p) }.joined()
            return "<li>\(html)</li>"
        }
        return "<ul class=\"findings\">\n" + items.joined(separator: "\n") + "\n</ul>\n"
    }

    static func throughputChart(_ steps: [SweepStepPoint], knee: Double?) -> String {
        var chart = SvgChart(title: "Achieved rate against offered (on the diagonal: every offered push was sent)",
                             xLabel: "offered rate (pushes/s)", yLabel: "achieved (pushes/s)", emptyText: "no steps ran",
                             formatX: SvgChart.number)
        if let lo = steps.first?.offered, let hi = steps.last?.offered {
            chart.lines = [
                .init(name: "achieved = offered", style: "diagonal", points: [ChartPoint(x: lo, y: lo), ChartPoint(x: hi, y: hi)], dashed: true),
                .init(name: "achieved", style: "achieved", points: steps.map { ChartPoint(x: $0.offered, y: $0.achieved) }),
                .init(name: "step passed", style: "pass", points: steps.filter(\.passed).map { ChartPoint(x: $0.offered, y: $0.achieved) },
                      dots: true, joined: false),
                .init(name: "step failed", style: "fail", points: steps.filter { !$0.passed }.map { ChartPoint(x: $0.offered, y: $0.achieved) },
                      dots: true, joined: false),
            ].filter { !$0.points.isEmpty }
            chart.markers = kneeMarker(knee)
        }
        return chart.render()
    }

    static func latencyChart(_ steps: [SweepStepPoint], knee: Double?, slo: Double) -> String {
        let values = steps.flatMap { [$0.p50Millis, $0.p99Millis, $0.p999Millis] } + [slo]
        let positive = values.filter { $0 > 0 }
        let log = (positive.max() ?? 1) / (positive.min() ?? 1) > 10
        var chart = SvgChart(title: "Response time (from the intended send) against offered rate",
                             xLabel: "offered rate (pushes/s)", yLabel: log ? "latency (ms, log scale)" : "latency (ms)",
                             emptyText: "no steps ran", formatX: SvgChart.number, yScale: log ? .log : .linear)
        if let lo = steps.first?.offered, let hi = steps.last?.offered {
            func series(_ name: String, _ style: String, _ value: (SweepStepPoint) -> Double) -> SvgChart.Series {
                .init(name: name, style: style, points: steps.map { ChartPoint(x: $0.offered, y: value($0)) }, dots: true)
            }
            chart.lines = [
                series("p50", "p50", \.p50Millis), series("p99", "p99", \.p99Millis), series("p99.9", "p999", \.p999Millis),
                .init(name: "SLO: p99 ≤ \(SvgChart.trim(slo)) ms", style: "slo",
                      points: [ChartPoint(x: lo, y: slo), ChartPoint(x: hi, y: slo)], dashed: true),
            ]
            chart.markers = kneeMarker(knee)
        }
        return chart.render()
    }

    static func table(_ steps: [SweepStepPoint], knee: Double?, slo: Double) -> String {
        guard !steps.isEmpty else { return "<p class=\"empty\">no steps ran</p>\n" }
        let rows = steps.enumerated().map { i, s -> (cls: String?, cells: [String]) in
            let share = s.offered > 0 ? Format.fixed(s.achieved / s.offered * 100, places: 1) + " %" : "-"
            let p99 = Format.fixed(s.p99Millis, places: 1)
            let verdict = (s.passed ? "✓ " : "✗ ") + HtmlEscape.text(s.verdict)
            return (s.offered == knee ? "knee" : s.passed ? nil : "fail",
                    [String(i + 1), Format.fixed(s.offered, places: 0), Format.fixed(s.achieved, places: 0), share,
                     Format.fixed(s.p50Millis, places: 1),
                     s.p99Millis > slo ? "<td class=\"n over\">\(p99)</td>" : p99,
                     Format.fixed(s.p999Millis, places: 1), verdict, HtmlEscape.text(s.limiter ?? "")])
        }
        return HtmlPage.table(["#step", "#offered/s", "#achieved/s", "#achieved share", "#p50 ms", "#p99 ms", "#p99.9 ms", "verdict", "limiter"], rows)
            + "<p class=\"note\">A p99 over the SLO's \(HtmlEscape.escape(SvgChart.trim(slo))) ms is in bold red; the knee's row is highlighted.</p>\n"
    }
}
