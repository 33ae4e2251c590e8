@testable import apnsbench
import ArgumentParser
import Foundation
import TestSupport
import XCTest

/// Every option or argument of every command that writes is declared beside the command (``WritingCommand``),
/// and each is tried against each kind of input its command reads: the same file, a folder that holds it, a
/// path inside it. All are refused with exit 64 and the message naming both, before anything is written.
final class OutputDeclarationTests: XCTestCase {
    /// The value names `--help` gives an option or argument that names a file or folder.
    static let pathValueNames: Set<String> = ["FILE", "DIR", "PATH", "NAME|FILE", "PROFILE", "REPORT", "REPORT.json", "BASELINE", "NEW",
                                              "profile", "recording"]

    /// Each command of the tool's command tree (`--experimental-dump-help`, the parser's own description of its
    /// definitions): its names from the root, and each option or argument as `--help` names it, with its value name.
    func commandTree() throws -> [String: [(name: String, valueName: String)]] {
        let dump = try apnsbench(["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.output)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        var tree: [String: [(name: String, valueName: String)]] = [:]
        func walk(_ command: [String: Any], _ path: [String]) {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            tree[path.joined(separator: " ")] = arguments.compactMap { a in
                guard let kind = a["kind"] as? String, kind != "flag", let value = a["valueName"] as? String else { return nil }
                let long = (a["preferredName"] as? [String: Any])?["name"] as? String
                return (kind == "positional" ? "<\(value)>" : "--\(long ?? value)", value)
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path + [sub["commandName"] as? String ?? "?"]) }
        }
        walk(try XCTUnwrap(root["command"] as? [String: Any]), ["apnsbench"])
        return tree
    }

    func testEveryOptionThatNamesAFileIsDeclaredWrittenOrRead() throws {
        let tree = try commandTree()
        let declared = Dictionary(uniqueKeysWithValues: CommandTree.writing.map { ($0.path.joined(separator: " "), $0.type) })
        var paths = 0
        for (command, arguments) in tree.sorted(by: { $0.key < $1.key }) {
            let writes = Set(declared[command]?.writtenBy.map(\.name) ?? []), reads = Set(declared[command]?.reads ?? [])
            for argument in arguments where Self.pathValueNames.contains(argument.valueName) {
                paths += 1
                XCTAssertTrue(writes.contains(argument.name) || reads.contains(argument.name),
                              "\(command) \(argument.name) \(argument.valueName) names a file: declare it in the command's writes or reads")
            }
            for name in writes.union(reads) {
                XCTAssertTrue(arguments.contains { $0.name == name }, "\(command) declares \(name), which it does not have")
            }
        }
        let writers = CommandTree.writing.reduce(0) { $0 + $1.type.writtenBy.count }
        XCTAssertEqual(Set(declared.keys), Set(FixtureCommands.names), "every writing command has its fixture in this test")
        print("output declarations: \(paths) options naming a file in \(tree.count) commands; \(writers) write, in \(declared.count) commands")
        XCTAssertGreaterThanOrEqual(writers, 14)
    }

    /// `apnsbench ARGUMENTS` in this process, as the executable's `main` runs it: parsed and run, and what fails
    /// turned into the exit status and the message it prints. A usage error a command finds while it runs gives
    /// its `Error: ` line only: the command's usage `main` prints after it takes longer to build than the
    /// check it follows (the process cases print it). A command that succeeds prints its own output to this
    /// process's standard output, so its output here is empty.
    static func inProcess(_ arguments: [String]) -> (status: Int32, output: String) {
        var command: ParsableCommand
        do { command = try APNSBench.parseAsRoot(arguments) } catch {
            return (APNSBench.exitCode(for: error).rawValue, APNSBench.fullMessage(for: error))
        }
        do { try command.run() } catch let e as ValidationError {
            return (ExitCodes.usage.rawValue, "Error: \(e.message)")
        } catch {
            return (APNSBench.exitCode(for: error).rawValue, APNSBench.fullMessage(for: error))
        }
        return (0, "")
    }

    func testEveryWritingOptionRefusesEveryInputItIsHoldsOrLiesInside() throws {
        let scratch = try ScratchFolder.make("output-declarations", removedBy: addTeardownBlock)
        let fixture = try FixtureCommands(scratch)
        var tried = 0, inputs = Set<String>(), processes = Set<String>()
        for entry in CommandTree.writing {
            let command = entry.path.dropFirst().joined(separator: " ")
            for writer in entry.type.writtenBy {
                for invocation in try XCTUnwrap(fixture.invocations[command], command) {
                    for input in invocation.inputs {
                        inputs.insert(input.what)
                        let folder = (input.path as NSString).deletingLastPathComponent
                        // A folder is refused naming the first input it holds, in the order the command reads them.
                        let held = invocation.inputs.first { $0.path.hasPrefix(folder + "/") } ?? input
                        for (path, relation, named) in [(input.path, "is", input), (folder, "holds", held), (input.path + "/x", "lies inside", input)] {
                            tried += 1
                            let before = try Data(contentsOf: URL(fileURLWithPath: input.path))
                            let arguments = invocation.arguments(setting: writer.name, to: path)
                            // The first case of each option as a process (the executable's wiring), the rest in this one.
                            let r = processes.insert("\(command) \(writer.name)").inserted
                                ? try apnsbench(arguments, directory: scratch) : Self.inProcess(arguments)
                            XCTAssertEqual(r.status, 64, "\(command) \(writer.name) \(path): \(r.output)")
                            XCTAssertEqual(r.output.split(separator: "\n").first { $0.hasPrefix("Error: ") }.map(String.init),
                                           "Error: \(writer.name) \(path) \(relation) \(named.what) \(named.path), an input of this command: "
                                               + "write elsewhere (no command writes over its own input)")
                            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: input.path)), before, "\(input.what) is untouched")
                        }
                    }
                }
            }
        }
        XCTAssertEqual(processes.count, CommandTree.writing.reduce(0) { $0 + $1.type.writtenBy.count }, "every writing option ran as a process once")
        print("output check: \(tried) writes refused (\(processes.count) as processes): every writing option of \(CommandTree.writing.count) commands against "
            + "\(inputs.count) kinds of input (\(inputs.sorted().joined(separator: ", "))), each as the path, its folder and a path inside it")
        XCTAssertGreaterThanOrEqual(inputs.count, 12)
    }
}
