import Foundation

/// Notices of former key names (a profile's, a recipe's, a simulator configuration's), each said once on stderr
/// however often a command reads the file that holds the key.
public enum DeprecationNotice {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var said: Set<String> = []

    public static func say(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        guard said.insert(line).inserted else { return }
        FileHandle.standardError.write(Data("apnsbench: \(line)\n".utf8))
    }
}
