import APNsCore
import ArgumentParser
import Foundation
import Replay

/// `apnsbench recipe`: tools for writing a recipe.
struct RecipeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipe",
        abstract: "Start a recipe from a recording.",
        subcommands: [RecipeInitCommand.self]
    )
}

/// `apnsbench recipe init RECORDING`: parses, then writes `Replay.RecipeScaffold`'s skeleton.
struct RecipeInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a recipe skeleton from a recording: its events, their fields typed, push rules to fill in.",
        discussion: """
            Reads a recording of API calls (method, path, body, response) or of events named by a field \
            (kind), groups its lines into events (by method and path pattern, numbers, UUIDs, hex and other \
            ids becoming captures; or by the kind's value), types every field so that every line reads, and \
            marks the fields that look like device tokens, ids and times. The skeleton plans no push: each \
            event's push rule is a commented example. `apnsbench plan` accepts it as written.

            \(ExitCodes.help)
            """)

    @Argument(help: "The recording (NDJSON).")
    var recording: String

    @Option(name: .long, help: ArgumentHelp("Write the skeleton here (default: standard output).", valueName: "FILE"))
    var out: String?

    @Option(name: .long, help: ArgumentHelp("The recipe's name (default: the recording's file name).", valueName: "NAME"))
    var name: String?

    func run() throws {
        try checkOutputs()
        let text = try RecipeScaffold.scaffold(recording: recording, name: name)
        guard let out else { return print(text, terminator: "") }
        do { try text.write(toFile: out, atomically: true, encoding: .utf8) } catch {
            throw CommandError("--out \(out) cannot be written: \(error.localizedDescription)")
        }
    }
}

extension RecipeInitCommand: WritingCommand {
    static let writes: [Writes<Self>] = [.init("--out", .file) { $0.out }]
    static let reads = ["<recording>"]
    func inputFiles() throws -> [OutputPath.Input] { [.init("the recording", recording)] }
}
