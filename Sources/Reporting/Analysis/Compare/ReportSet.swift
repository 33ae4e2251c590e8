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

/// Why a side of a comparison could not be read. Every case names the path.
public enum ReportSetError: Error, Equatable, CustomStringConvertible {
    case missing(path: String)
    case emptyFolder(path: String)

    public var description: String {
        switch self {
        case .missing(let path): return "\(path): no such report or folder"
        case .emptyFolder(let path): return "\(path): a folder with no report.json in it or in its subfolders (one level down)"
        }
    }
}

/// One side of a comparison: a `report.json`, or a folder of repeated runs.
public enum ReportSet {
    /// Reads `path`: a report file, or a folder whose `report.json` files directly in it or one level
    /// down (`runs/1/report.json`, `runs/2/report.json`) are its runs, sorted by path.
    /// - Throws: ``ReportSetError`` for a missing path or a folder without reports; ``ReportLoadError``
    ///   naming the first file that cannot be read as a report.
    public static func load(_ path: String) throws -> [LoadedReport] {
        try files(path).map(loadOne)
    }

    /// The report files `path` stands for.
    public static func files(_ path: String) throws -> [String] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { throw ReportSetError.missing(path: path) }
        guard isDirectory.boolValue else { return [path] }
        var found: [String] = []
        let direct = (path as NSString).appendingPathComponent("report.json")
        if fm.fileExists(atPath: direct) { found.append(direct) }
        let children = (try? fm.contentsOfDirectory(atPath: path)) ?? []
        for child in children.sorted() {
            let folder = (path as NSString).appendingPathComponent(child)
            var childIsDirectory: ObjCBool = false
            guard fm.fileExists(atPath: folder, isDirectory: &childIsDirectory), childIsDirectory.boolValue else { continue }
            let file = (folder as NSString).appendingPathComponent("report.json")
            if fm.fileExists(atPath: file) { found.append(file) }
        }
        guard !found.isEmpty else { throw ReportSetError.emptyFolder(path: path) }
        return found
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
