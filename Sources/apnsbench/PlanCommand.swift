import APNsCore
import ArgumentParser
import Foundation
import Harness
import Replay

/// `apnsbench plan PROFILE`: parses, then hands the walk to `Harness.PushPlan`.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Walk a profile's recording through its workload and show every push it plans, sending nothing.",
        discussion: """
            Reads the profile and its recording as `run` does, but starts no engine, simulator or connection: \
            every push the workload plans is counted, by the kind of the event that planned it, as to send or \
            not sent by cause (the report's keys), and with --out written as one NDJSON line in plan order: \
            n, event {line, kind, stream}, token (redacted unless --show-tokens) or channel and reach for a \
            broadcast, push_type, topic, priority, expiration_seconds and collapse_id when configured, and the \
            payload as a JSON object; a push not sent has not_sent: CAUSE instead of the token and payload. \
            Broadcast delivery gets made-up channel ids (c0, c1, … by store). The summary goes to standard \
            error when --out is -, else to standard output.

            \(ExitCodes.help)
            """)

    @Argument(help: "The run profile (YAML).")
    var profile: String

    @Option(name: .long, help: ArgumentHelp("Write the planned pushes as NDJSON here (- : standard output); without it only the summary.", valueName: "FILE"))
    var out: String?

    @Option(name: .long, help: ArgumentHelp("Write only the first N push lines (the whole recording is still walked and counted).", valueName: "N"))
    var limit: Int?

    @Flag(name: .long, help: "Write device tokens whole (redacted by default: the first 8 characters and the length).")
    var showTokens = false

    @Flag(name: .long, help: "Print only the totals of the summary (and where a bad_lines: stop walk stopped).")
    var quiet = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit \(limit) must be 0 or more") }
    }

    func run() throws {
        try checkOutputs()
        let config = try ReplayRun.configuration(RunRequest(profilePath: profile))
        let recipes = try Workloads.recipes(for: config)
        let source = try PushPlan.source(config, recipes: recipes)
        let lines = try out.map { try PlanLineWriter(path: $0, config: config, recipes: recipes, showTokens: showTokens) }
        let tally = try PushPlan.walk(source, lines: lines, limit: limit)
        let summary = PlanSummary.text(tally, profile: profile, brief: quiet)
        if out == "-" {
            FileHandle.standardError.write(Data(summary.utf8))
        } else {
            print(summary, terminator: "")
        }
        if tally.stopError != nil { throw ExitCodes.stoppedAtBadLine }
    }
}

extension PlanCommand: WritingCommand {
    static let writes: [Writes<Self>] = [.init("--out", .file) { $0.out == "-" ? nil : $0.out }]
    static let reads = ["<profile>"]

    /// The profile and every file it names.
    func inputFiles() throws -> [OutputPath.Input] { try ReplayRun.configuration(RunRequest(profilePath: profile)).inputFiles }
}
