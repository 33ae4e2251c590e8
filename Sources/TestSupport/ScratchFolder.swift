import Foundation

/// Folders for a test's files: `<temporary directory>/apnsbench-<name>-<UUID>`, created empty, one per call.
public enum ScratchFolder {
    /// A new empty folder; the caller removes it (``remove(_:)``).
    public static func make(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("apnsbench-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new empty folder whose removal is handed to `removedBy`, e.g. a test's `addTeardownBlock`, so that it
    /// goes when the test ends.
    public static func make(_ name: String, removedBy register: (@escaping @Sendable () -> Void) -> Void) throws -> URL {
        let url = try make(name)
        register { remove(url) }
        return url
    }

    /// Removes `url` and what it holds; nothing if it is gone.
    public static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}
