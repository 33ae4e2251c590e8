import Foundation

/// One report read for a comparison, with the schema version its file declared (``RunReport/load(from:)``
/// converts schema 1 to the current schema, so the file's own version is kept here).
public struct LoadedReport: Sendable {
    public var path: String
    public var schemaVersion: Int
    public var report: RunReport

    public init(path: String, schemaVersion: Int = RunReport.currentSchemaVersion, report: RunReport) {
        self.path = path
        self.schemaVersion = schemaVersion
        self.report = report
    }
}

/// One side of a comparison: a `report.json`, or a folder of repeated runs.
public enum ReportSet {
    /// Reads `path`: a report file, or a folder of runs, by ``ReportFiles``' rule; each report is verified
    /// as it is read (``RunReport/load(from:)``).
    /// - Throws: ``ReportSetError`` for a missing path or a folder without reports; ``ReportLoadError`` or
    ///   ``ReportInvariantError`` naming the first file that cannot be read as a report.
    public static func load(_ path: String) throws -> [LoadedReport] {
        try ReportFiles.expand(path).map(loadOne)
    }

    static func loadOne(_ path: String) throws -> LoadedReport {
        let report = try RunReport.load(from: path)
        // load(from:) has already checked the file is a JSON object with a known version.
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        let fields = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let version = (fields?["schemaVersion"] as? NSNumber).flatMap { Int(exactly: $0.doubleValue) } ?? report.schemaVersion
        return LoadedReport(path: path, schemaVersion: version, report: report)
    }
}
