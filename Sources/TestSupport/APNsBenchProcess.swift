import Foundation

/// The built `apnsbench` executable, run as a user runs it.
public enum APNsBenchProcess {
    /// The executable next to the test bundle (`swift build --build-tests` builds it).
    public static func binary() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("apnsbench"),
            Bundle.main.bundleURL.appendingPathComponent("apnsbench"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("apnsbench"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotBuilt(candidates: candidates.map(\.path))
        }
        return found
    }

    /// The executable is missing, with where it was looked for.
    public struct NotBuilt: Error, CustomStringConvertible {
        public let candidates: [String]
        public var description: String {
            "the apnsbench executable is not built next to the tests (looked in \(candidates)): run `swift build --build-tests` (scripts/test.sh does)"
        }
    }
}

/// Runs `apnsbench ARGUMENTS` to its end (in `directory` when given) and returns its exit status and output
/// (standard output and error together).
public func apnsbench(_ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                      bound: Double = ChildProcess.defaultBound) throws -> (status: Int32, output: String) {
    try runChild(APNsBenchProcess.binary(), arguments, environment: environment, directory: directory, bound: bound)
}
