/// Why a `report.json` could not be loaded. Every case names the file.
public enum ReportLoadError: Error, Equatable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not a JSON object.
    case notJSON(path: String, reason: String)
    /// The file is JSON but has no integer `schemaVersion`, or one this build does not read.
    case unknownSchemaVersion(path: String, found: Int?, supported: Int)
    /// The file has the right version but does not match its schema (a missing or mistyped field).
    case malformed(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "report \(path): no such file"
        case .unreadable(let path, let reason):
            return "report \(path): cannot be read: \(reason)"
        case .notJSON(let path, let reason):
            return "report \(path): not a JSON report: \(reason)"
        case .unknownSchemaVersion(let path, let found, let supported):
            let seen = found.map { "schemaVersion \($0)" } ?? "no schemaVersion"
            return "report \(path): \(seen); this apnsbench reads schemaVersion 1 and \(supported)"
        case .malformed(let path, let reason):
            return "report \(path): does not match report schema \(RunReport.currentSchemaVersion): \(reason)"
        }
    }
}
