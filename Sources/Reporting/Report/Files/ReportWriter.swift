import Foundation

/// Writes a run's report files into a directory.
public enum ReportWriter {
    /// The JSON report's file name.
    public static let jsonFileName = "report.json"
    /// The Markdown summary's file name.
    public static let markdownFileName = "summary.md"
    /// The HdrHistogram interval log's file name (``LatencyLog``).
    public static let latencyLogFileName = LatencyLog.fileName
    /// The self-contained HTML report's file name (``HtmlReport``).
    public static let htmlFileName = HtmlReport.fileName
    /// Every file ``write(_:to:)`` writes into its folder.
    public static let fileNames = [jsonFileName, markdownFileName, latencyLogFileName, htmlFileName]

    /// Creates `directory` (with intermediate directories) and writes `report.json` (pretty-printed,
    /// keys sorted), `summary.md`, `latency.hlog` and `report.html` into it, replacing earlier files of those names.
    /// - Returns: the paths written: `report.json`, `summary.md`, `latency.hlog`, `report.html`.
    public static func write(_ report: RunReport, to directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = URL(fileURLWithPath: directory, isDirectory: true)
        let json = base.appendingPathComponent(jsonFileName)
        let markdown = base.appendingPathComponent(markdownFileName)
        try report.encoded().write(to: json, options: .atomic)
        try Data(SummaryText.markdown(report).utf8).write(to: markdown, options: .atomic)
        let hlog = base.appendingPathComponent(latencyLogFileName)
        try Data(LatencyLog.text(report).utf8).write(to: hlog, options: .atomic)
        let html = base.appendingPathComponent(htmlFileName)
        try Data(renderHTML(report).utf8).write(to: html, options: .atomic)
        return [json.path, markdown.path, hlog.path, html.path]
    }
}
