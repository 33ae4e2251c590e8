import Foundation

/// Why a report argument stands for no report. Every case names the path.
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

/// The report files a command-line argument stands for: the one rule of every command that reads reports
/// (`compare`, `merge`).
///
/// - A file stands for itself.
/// - A folder with a `report.json` in it stands for that report alone (a run's report folder).
/// - A folder without one stands for the `report.json` of each subfolder that has one, one level down,
///   sorted by name (repeated runs `runs/1`, `runs/2`; the shards of one run); `excluding` (a command's own
///   output folder) is left out.
/// - A missing path, and a folder that stands for no report, are errors naming the path.
public enum ReportFiles {
    /// The report files `path` stands for, by the rule above.
    /// - Throws: ``ReportSetError``.
    public static func expand(_ path: String, excluding: String? = nil) throws -> [String] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { throw ReportSetError.missing(path: path) }
        guard isDirectory.boolValue else { return [path] }
        let own = (path as NSString).appendingPathComponent(ReportWriter.jsonFileName)
        if fm.fileExists(atPath: own) { return [own] }
        let skip = excluding.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        var found: [String] = []
        for child in ((try? fm.contentsOfDirectory(atPath: path)) ?? []).sorted() {
            let folder = (path as NSString).appendingPathComponent(child)
            if let skip, URL(fileURLWithPath: folder).standardizedFileURL.path == skip { continue }
            var childIsDirectory: ObjCBool = false
            guard fm.fileExists(atPath: folder, isDirectory: &childIsDirectory), childIsDirectory.boolValue else { continue }
            let file = (folder as NSString).appendingPathComponent(ReportWriter.jsonFileName)
            if fm.fileExists(atPath: file) { found.append(file) }
        }
        guard !found.isEmpty else { throw ReportSetError.emptyFolder(path: path) }
        return found
    }

    /// Every argument expanded, in order.
    public static func expand(_ paths: [String], excluding: String? = nil) throws -> [String] {
        try paths.flatMap { try expand($0, excluding: excluding) }
    }

    /// The rule, for the `--help` of the commands that take folders.
    public static let help = """
        A report argument is a report.json file, or a folder: a folder with a report.json stands for that report; \
        a folder without one stands for the report.json of each subfolder that has one (one level down, by name).
        """
}
