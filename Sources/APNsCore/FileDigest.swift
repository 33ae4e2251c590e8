import Foundation

/// Content digests of input files, so two runs can tell whether they replayed the same recording.
public enum FileDigest {
    /// The SHA-256 of the file's bytes, lower-case hex, read in 1 MiB chunks (constant memory).
    /// - Throws: when the file cannot be opened or read, with the path.
    public static func sha256(path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        var hasher = SHA256Hasher()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(chunk)
        }
        return SHA256Hasher.hex(hasher.finalize())
    }

    /// Several recordings' digest (a mix): the SHA-256 of the lines `NAME SHA256`, one per part in order, so
    /// it changes when any part's content, workload or place changes.
    public static func sha256(parts: [(name: String, sha256: String)]) -> String {
        let text = parts.map { "\($0.name) \($0.sha256)\n" }.joined()
        return SHA256Hasher.hex(SHA256Hasher.hash(Array(text.utf8)))
    }
}
