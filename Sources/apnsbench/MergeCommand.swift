import APNsCore
import ArgumentParser
import Foundation
import Reporting

/// `apnsbench merge DIR... --out DIR`: the shards of one run as one report.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the reports of a sharded run (run --shard/--shards), or of senders, into one report, exactly.",
        discussion: """
            Each DIR is a shard's report folder, its report.json, or a folder of shards. \(ReportFiles.help) The \
            --out folder is left out, so `apnsbench merge /reports/RUN --out /reports/RUN/merged` takes all shards \
            written under /reports/RUN.

            Every report is verified as it is read: one whose counts do not add up (a push class, a histogram or \
            the timeline against the totals; attempts against first sends and retries) is refused with exit 1, \
            each violation named with the file, the field, what was expected and what was found.

            Push counts are summed class by class, latency histograms added bucket by bucket (from the \
            HdrHistograms each report carries), engine counters summed, and timelines added by wall clock. The \
            events are each shard's reading of the whole stream and must be equal. The merged folder holds \
            report.json, summary.md, latency.hlog and report.html, as a single run's does, so it can be compared \
            and gated like one.

            The merge is refused, with every problem named, when a shard is missing or given twice, when the \
            reports are of different runs (run id) or shard counts, when their configurations differ in more \
            than the shard, or when they replayed different recordings.

            Senders' reports (apnsbench simulate --report: a fleet of senders, each against a simulator of its \
            own) merge the same way, exactly, with their received section added (requests by push type, topic, \
            priority and answer; provider tokens; connections); their simulators must be configured alike. A \
            sender's report is never merged with a run's.

            Exit codes:
              0   merged
              1   bad input: a report that cannot be read or breaks an invariant, a folder with no report in it, with the path named
              6   refused: the shards are incomplete or do not belong together (each problem named)
              99  merged and written, but the run missed its SLO (judged on the merged report, never per shard)
              64  usage: a flag or argument the command line parser refuses
            """)

    @Argument(help: ArgumentHelp("Shard report folders (or report.json files), or a folder of them.", valueName: "DIR"))
    var inputs: [String]

    @Option(name: .long, help: ArgumentHelp(
        "Where to write the merged report: a folder that is or holds a shard's report is refused, one that already holds a report is refused unless --force.",
        valueName: "DIR"))
    var out: String

    @Flag(name: .long, help: ArgumentHelp(
        "Replace the report already in the --out folder (its report.json, sweep.json or matrix.json); without --force such a folder is refused."))
    var force = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give the shards' report folders: apnsbench merge DIR... --out DIR") }
    }

    func run() throws {
        let paths = try ReportFiles.expand(inputs, excluding: out)
        try checkOutputs()
        try refusingOutput { try OutputPath.refuseReplacingReport(out, force: force) }
        var loaded: [ReportMerge.Input] = []
        for path in paths {
            loaded.append(ReportMerge.Input(source: (path as NSString).deletingLastPathComponent, report: try RunReport.load(from: path)))
        }
        let merged: RunReport
        do { merged = try ReportMerge.merge(loaded) } catch let refusal as MergeRefusal {
            FileHandle.standardError.write(Data("apnsbench merge: \(refusal)\n".utf8))
            throw ExitCodes.mergeRefused
        }
        let written = try ReportWriter.write(merged, to: out)
        print(SummaryText.console(merged))
        let what = merged.received != nil ? "senders' reports" : "shards of run \(merged.runID ?? "?")"
        print("merged \(loaded.count) \(what): \(written.joined(separator: ", "))")
        // The run's SLO, judged here on the whole run (each shard left it to the merge).
        if SLOCheck.checks(merged).contains(where: { !$0.met }) { throw ExitCodes.sloMissed }
    }
}

extension MergeCommand: WritingCommand {
    static let writes: [Writes<Self>] = [.init("--out", .folder(writes: ReportWriter.fileNames)) { $0.out }]
    static let reads = ["<DIR>"]

    /// Each shard's report.json (the --out folder is left out of a folder of shards).
    func inputFiles() throws -> [OutputPath.Input] {
        try ReportFiles.expand(inputs, excluding: out).map { OutputPath.Input("the shard report", $0) }
    }
}
