import APNsCore
import ArgumentParser

/// One option or argument of a command that writes: its name as typed, what it writes, and the path the
/// parsed command gives it (nil: not given, or standard output). Declared next to the command, beside what the
/// command reads, so that every output of every command meets the one rule, ``OutputPath/check(_:inputs:)``.
struct Writes<Command>: Sendable {
    let name: String
    let kind: OutputPath.Output.Kind
    let path: @Sendable (Command) -> String?

    init(_ name: String, _ kind: OutputPath.Output.Kind, _ path: @escaping @Sendable (Command) -> String?) {
        self.name = name
        self.kind = kind
        self.path = path
    }
}

/// A command that writes files. Its `writes` name every option or argument that writes; `reads` every one
/// naming a file or folder it reads, as `--help` names it (`--config`, `<profile>`); `inputFiles()` resolves
/// those to every file it reads (a profile's recording, a folder's reports). ``checkOutputs()`` refuses, before
/// the command does anything, an output that is, holds or lies inside one of them, or that cannot be created.
protocol WritingCommand: ParsableCommand {
    static var writes: [Writes<Self>] { get }
    static var reads: [String] { get }
    func inputFiles() throws -> [OutputPath.Input]
}

extension WritingCommand {
    /// The outputs this command line asks for.
    func outputs() -> [OutputPath.Output] {
        Self.writes.compactMap { w in w.path(self).map { OutputPath.Output(w.name, $0, w.kind) } }
    }

    /// The one output check: a refusal is a usage error (exit 64, the message and this command's usage).
    func checkOutputs() throws {
        let outputs = outputs()
        guard !outputs.isEmpty else { return }
        try refusingOutput { try OutputPath.check(outputs, inputs: try inputFiles()) }
    }

    /// The declaration for a table of every writer: option names and kinds.
    static var writtenBy: [(name: String, kind: OutputPath.Output.Kind)] { writes.map { ($0.name, $0.kind) } }
}

/// `body`, with an output path it refuses (``OutputPath/Refusal``: an input written over, a report replaced
/// without --force) turned into a usage error: exit 64, the message and the command's usage.
func refusingOutput<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as OutputPath.Refusal { throw ValidationError(e.description) }
}

/// Every command of the tool, found by walking its command tree from the root.
enum CommandTree {
    static func all(from root: ParsableCommand.Type = APNSBench.self) -> [(path: [String], type: ParsableCommand.Type)] {
        var found: [(path: [String], type: ParsableCommand.Type)] = []
        func walk(_ type: ParsableCommand.Type, _ path: [String]) {
            found.append((path, type))
            for sub in type.configuration.subcommands { walk(sub, path + [sub._commandName]) }
        }
        walk(root, [root._commandName])
        return found
    }

    /// The writing commands, with the path of names that reaches each (`apnsbench recipe init`).
    static var writing: [(path: [String], type: any WritingCommand.Type)] {
        all().compactMap { entry in (entry.type as? any WritingCommand.Type).map { (entry.path, $0) } }
    }

    /// `Error: MESSAGE`, the usage of `command` and where its help is, as the parser prints a usage error.
    static func usageError(_ message: String, for command: ParsableCommand.Type) -> String {
        let names = all().first { $0.type == command }?.path.joined(separator: " ") ?? APNSBench._commandName
        let usage = (command == APNSBench.self ? APNSBench.usageString() : APNSBench.usageString(for: command))
            .split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n       ")
        return "Error: \(message)\nUsage: \(usage)\n  See '\(names) --help' for more information.\n"
    }
}
