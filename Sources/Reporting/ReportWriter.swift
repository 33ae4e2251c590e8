import Foundation

/// Writes a run's report files into a directory.
public enum ReportWriter {
    /// The JSON report's file name.
    public static let jsonFileName = "report.json"
    /// The Markdown summary's file name.
    public static let markdownFileName = "summary.md"

    /// Creates `directory` (with intermediate directories) and writes `report.json` (pretty-printed,
    /// keys sorted) and `summary.md` into it, replacing earlier files of those names.
    /// - Returns: the paths written, `report.json` first.
    public static func write(_ report: RunReport, to directory: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = URL(fileURLWithPath: directory, isDirectory: true)
        let json = base.appendingPathComponent(jsonFileName)
        let markdown = base.appendingPathComponent(markdownFileName)
        try report.encoded().write(to: json, options: .atomic)
        try Data(SummaryText.markdown(report).utf8).write(to: markdown, options: .atomic)
        return [json.path, markdown.path]
    }
}
