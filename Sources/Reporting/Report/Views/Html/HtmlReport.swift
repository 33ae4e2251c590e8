import APNsCore
import Foundation

/// `report.html` of a run, rendered from its ``RunReport`` alone.
///
/// `report.html` is one self-contained file: inline CSS, charts as inline SVG drawn by ``SvgChart``, and one
/// line of script that only marks the page as loaded (`<html data-ready="1">`), so a headless browser can
/// show the page's script ran without errors. A Content-Security-Policy forbids every fetch: the page
/// works offline and prints (`@media print`). It holds no device token (reports hold redacted text only,
/// and every string is passed through ``Redaction`` again) and no key or provider token.
///
/// Sections, each an element with a stable `id`: ``sectionIDs`` always, ``optionalSectionIDs`` when the
/// report has their data.
public struct HtmlReport {
    /// The file name beside `report.json`.
    public static let fileName = "report.html"

    /// Sections every page has, in page order.
    public static let sectionIDs = [
        "headline", "outcomes", "spectrum", "throughput", "latency-over-time", "connections", "configuration", "engine", "environment",
    ]
    /// Sections a page has only when the report holds their data.
    public static let optionalSectionIDs = ["device-contract", "coalescing", "broadcast", "live-activity", "simulator", "bad-lines"]

    /// The most points any one chart series is drawn with (``Lttb``): a day-long timeline stays a few hundred KB.
    public static let maxPointsPerSeries = 1_000

    public let report: RunReport

    public init(_ report: RunReport) { self.report = report }

    /// The whole page.
    public func render() -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>apnsbench: \(HtmlEscape.text(report.configuration.name)) \(HtmlEscape.text(report.startedAt))</title>
            <style>\(HtmlStyle.css)</style></head>
            <body>

            """
        html += headline()
        html += outcomes()
        html += received()
        html += deviceContract()
        html += device()
        html += badLines()
        html += spectrum()
        html += throughputOverTime()
        html += latencyOverTime()
        html += connectionsOverTime()
        html += coalescing()
        html += broadcast()
        html += liveActivity()
        html += configuration()
        html += engine()
        html += simulator()
        html += environment()
        html += "<script>document.documentElement.dataset.ready=\"1\"</script>\n</body></html>\n"
        return html
    }

    // MARK: - Headline

    /// The run's verdict in one phrase, and whether it is good news.
    var verdict: (text: String, good: Bool) {
        let checks = SLOCheck.checks(report)
        if !report.pushes.balanced { return ("✗ counts do not balance", false) }
        if checks.contains(where: { !$0.met }) { return ("✗ SLO missed", false) }
        if let note = SLOCheck.shardNote(report) { return ("✓ completed, counts balance (\(note))", true) }
        if checks.isEmpty { return ("✓ completed, counts balance (no SLO set)", true) }
        return ("✓ SLO met, counts balance", true)
    }

    func headline() -> String {
        let r = report
        let c = r.configuration
        let v = verdict
        var h = "<header id=\"headline\" class=\"\(v.good ? "good" : "bad")\">\n"
        h += r.received == nil ? "<h1>apnsbench run: \(HtmlEscape.text(c.name))</h1>\n" : "<h1>apnsbench simulate: the requests a sender made</h1>\n"
        h += "<p class=\"meta\">\(HtmlEscape.text(c.profilePath)) · workload \(HtmlEscape.text(c.workload.label)) → "
            + "\(HtmlEscape.text(c.target.description)) · started \(HtmlEscape.text(r.startedAt)) · ran "
            + "\(Format.fixed(r.durationSeconds, places: 1)) s · \(r.pushes.planned) pushes planned</p>\n"
        h += "<p class=\"verdict\">\(HtmlEscape.escape(v.text))</p>\n"
        if let stop = SenderWording.stop(r) { h += "<p class=\"meta\">\(HtmlEscape.text(stop.label + ": " + stop.text))</p>\n" }
        let checks = SLOCheck.checks(r)
        if !checks.isEmpty {
            h += "<ul class=\"slo\">"
            for check in checks {
                h += "<li class=\"\(check.met ? "met" : "missed")\">\(check.met ? "✓" : "✗") \(HtmlEscape.escape(check.what)) "
                    + "\(HtmlEscape.escape(check.target)): \(HtmlEscape.escape(check.actual))</li>"
            }
            h += "</ul>\n"
        }
        let p = r.pushes
        let share = p.planned > 0 ? Format.fixed(Double(p.delivered) / Double(p.planned) * 100, places: 2) + " %" : "-"
        let response = r.latency.responseTime
        func kpi(_ label: String, _ value: String) -> String { "<div><dt>\(label)</dt><dd>\(HtmlEscape.escape(value))</dd></div>" }
        h += "<dl class=\"kpis\">"
        h += kpi("pushes/s", Format.fixed(r.throughput.pushesPerSecond, places: 1))
        let latency = r.received == nil ? "response time" : "time in the simulator"
        h += kpi("p50 \(latency)", response.count > 0 ? Format.micros(response.p50) : "-")
        h += kpi("p99 \(latency)", response.count > 0 ? Format.micros(response.p99) : "-")
        h += kpi("delivered of planned", share)
        if let w = p.wouldNotDecode { h += kpi("would not decode on device", String(w.total)) }
        h += kpi("balanced", p.balanced ? "yes" : "NO")
        h += "</dl>\n</header>\n"
        return h
    }
}

/// The HTML page of a report (``HtmlReport``).
public func renderHTML(_ report: RunReport) -> String {
    HtmlReport(report).render()
}
