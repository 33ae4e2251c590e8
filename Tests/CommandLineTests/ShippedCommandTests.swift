@testable import apnsbench
import Foundation
import TestSupport
import XCTest

/// The commands the shipped profiles' comments suggest are commands the tool takes: each parses, with every
/// flag known and every value valid, from the repository's root.
final class ShippedCommandTests: XCTestCase {
    /// Each `apnsbench SUBCOMMAND ... profiles/...` in a comment of a shipped profile, up to a backtick or a
    /// parenthesis, with the file it is in.
    func suggestedCommands() throws -> [(file: String, arguments: [String])] {
        let root = RepoFiles.root.appendingPathComponent("profiles")
        var found: [(file: String, arguments: [String])] = []
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".yaml") } ?? []
        for file in files.sorted() {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("#") {
                guard let start = line.range(of: "apnsbench ") else { continue }
                let command = line[start.upperBound...].prefix { $0 != "`" && $0 != "(" }
                let arguments = command.split(separator: " ").map(String.init)
                guard arguments.contains(where: { $0.hasPrefix("profiles/") }) else { continue }
                found.append(("profiles/" + file, arguments))
            }
        }
        return found
    }

    func testEveryCommandAShippedProfileSuggestsParses() throws {
        let commands = try suggestedCommands()
        let here = FileManager.default.currentDirectoryPath
        FileManager.default.changeCurrentDirectoryPath(RepoFiles.root.path)
        defer { FileManager.default.changeCurrentDirectoryPath(here) }
        for (file, arguments) in commands {
            XCTAssertNoThrow(try APNSBench.parseAsRoot(arguments), "\(file): apnsbench \(arguments.joined(separator: " "))")
        }
        print("shipped commands: \(commands.count) suggested in the profiles' comments, each parsed")
        XCTAssertGreaterThanOrEqual(commands.count, 10)
    }
}
