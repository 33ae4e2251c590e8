import Foundation

/// Files of this repository (its shipped recipes, templates, streams and profiles), found from this source
/// file's place in it, so tests read what ships.
public enum RepoFiles {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The absolute path of `relative` under the root.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The shipped recipe `profiles/recipes/NAME.yaml`, as an absolute path.
    public static func recipe(_ name: String) -> String { path("profiles/recipes/\(name).yaml") }

    /// The shipped recording `profiles/streams/NAME.ndjson`, as an absolute path.
    public static func stream(_ name: String) -> String { path("profiles/streams/\(name).ndjson") }

    /// The first `count` lines of the shipped recording `profiles/streams/NAME.ndjson`, each with its newline: a
    /// smaller recording of the same app, its times and identities as recorded.
    public static func streamPrefix(_ name: String, lines count: Int) throws -> Data {
        let data = try Data(contentsOf: URL(fileURLWithPath: stream(name)))
        var end = data.startIndex, taken = 0
        while taken < count, let newline = data[end...].firstIndex(of: UInt8(ascii: "\n")) {
            end = data.index(after: newline)
            taken += 1
        }
        precondition(taken == count, "\(name).ndjson has \(taken) lines, fewer than \(count)")
        return Data(data[..<end])
    }

    /// The names of the shipped recipes, sorted.
    public static var recipeNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path("profiles/recipes"))) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }
}
