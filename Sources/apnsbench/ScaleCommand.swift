import APNsCore
import ArgumentParser
import Foundation
import Replay

/// `apnsbench scale RECORDING --profile P --factor K`: parses, then hands the work to `Replay.RecordingScaler`.
struct ScaleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "Grow a recording K times through its app's recipe: K disjoint populations, the same recorded times.",
        discussion: """
            Writes each line of the recording K times in a row: copy 0 as recorded, copy c with every value the \
            profile's recipe reads as an entity or group key, a device token or an id in an API path replaced \
            by its clone in copy c (integers + c x a power of ten above every recorded id; tokens and UUIDs \
            keep their length and hex alphabet; other text gets ~c). The copies share the line's recorded time, \
            so the duration is kept, each copy replays the app on a population of its own, and fan-out per \
            group and pushes per entity keep their recorded distributions while the totals grow K times. Same \
            recording, profile, factor and seed: the same bytes. Which fields were cloned goes to standard error.

            Example:
              apnsbench scale profiles/streams/order-changes.ndjson \\
                  --profile profiles/order-changes.yaml --factor 10 \\
                  --out oc-x10.ndjson --dead-tokens oc-x10.dead-tokens

            \(ExitCodes.help)
            """)

    @Argument(help: "The recording (NDJSON).")
    var recording: String

    @Option(name: .long, help: ArgumentHelp("The profile whose recipe reads the recording (one recording, not a mix).", valueName: "PROFILE"))
    var profile: String

    @Option(name: .long, help: ArgumentHelp("How many copies of the population (1 writes the recording as it is).", valueName: "K"))
    var factor: Int

    @Option(name: .long, help: "Random seed of the clones' token, UUID and long-digit values.")
    var seed: UInt64 = 7

    @Option(name: .long, help: ArgumentHelp("Output file (default, or -: standard output).", valueName: "FILE"))
    var out: String?

    @Option(name: .long, help: ArgumentHelp(
        "Write the profile's dead_tokens with their clones here, for a profile over the scaled recording.",
        valueName: "FILE"))
    var deadTokens: String?

    func validate() throws {
        guard factor >= 1 else { throw ValidationError("--factor \(factor) must be 1 or more") }
    }

    func run() throws {
        try checkOutputs()
        let config = try ProfileLoader.load(path: profile)
        guard config.workload.mix == nil else {
            throw ProfileError(file: profile, line: nil, message: "is a mix of recordings: scale each with its own app's profile")
        }
        guard let recipe = try Workloads.recipes(config.workload).first else {
            throw ProfileError(file: profile, line: nil, message: "names no recipe")
        }
        let deadSource: String?
        if deadTokens != nil {
            guard let path = config.workload.deadTokens else {
                throw ProfileError(file: profile, line: nil, message: "names no dead_tokens (--dead-tokens writes their clones)")
            }
            deadSource = path
        } else {
            deadSource = nil
        }
        let scaler = RecordingScaler(recipe: recipe, factor: factor, seed: seed)
        // The first pass reads every line before the output file is created.
        let cloner = try scaler.cloner(recording: recording)
        let output = try BufferedOutput(path: out == "-" ? nil : out)
        let summary = try scaler.scale(recording: recording, cloner: cloner, write: output.write)
        try output.close()
        if let deadTokens, let deadSource {
            let dead = try BufferedOutput(path: deadTokens)
            try scaler.deadTokens(path: deadSource, cloner: cloner, write: dead.write)
            try dead.close()
        }
        let fields = scaler.clonedFields.map { "\($0.event): \($0.fields.isEmpty ? "none" : $0.fields.joined(separator: ", "))" }
        let text = """
            scale \(recording) x\(factor) (recipe \(recipe.name), seed \(seed)): \(summary.linesRead) lines -> \(summary.linesWritten)\
            \(summary.unmatched > 0 ? ", \(summary.unmatched) matching no event copied as recorded" : "")
              cloned: \(fields.joined(separator: "; "))
              integer ids: + copy x \(summary.cloner.stride); other text ids: \(summary.cloner.separator)copy

            """
        FileHandle.standardError.write(Data(text.utf8))
    }
}

extension ScaleCommand: WritingCommand {
    static let writes: [Writes<Self>] = [
        .init("--out", .file) { $0.out == "-" ? nil : $0.out },
        .init("--dead-tokens", .file) { $0.deadTokens },
    ]
    static let reads = ["<recording>", "--profile"]

    /// The recording, then the profile and every file it names.
    func inputFiles() throws -> [OutputPath.Input] {
        [.init("the recording", recording)] + (try ProfileLoader.load(path: profile).inputFiles)
    }
}
