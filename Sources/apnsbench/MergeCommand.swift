import ArgumentParser
import Foundation
import Reporting

/// `apnsbench merge DIR... --out DIR`: the shards of one run as one report.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the reports of a sharded run (run --shard/--shards) into one report, exactly.",
        discussion: """
            Each DIR is a shard's report folder (or its report.json); a folder without a report.json stands for \
            every subfolder of it that has one (the --out folder aside), so `apnsbench merge /reports/RUN --out \
            /reports/RUN/merged` takes all shards written under /reports/RUN.

            Push counts are summed class by class, latency histograms added bucket by bucket (from the \
            HdrHistograms each report carries), engine counters summed, and timelines added by wall clock. The \
            events are each shard's reading of the whole stream and must be equal. The merged folder holds \
            report.json, summary.md, latency.hlog and report.html, as a single run's does, so it can be compared \
            and gated like one.

            The merge is refused, with every problem named, when a shard is missing or given twice, when the \
            reports are of different runs (run id) or shard counts, when their configurations differ in more \
            than the shard, or when they replayed different recordings.

            Exit codes:
              0   merged
              1   bad input: a report that cannot be read, a folder with no report in it, with the path named
              6   refused: the shards are incomplete or do not belong together (each problem named)
              99  merged and written, but the run missed its SLO (judged on the merged report, never per shard)
              64  usage: a flag or argument the command line parser refuses
            """)

    @Argument(help: ArgumentHelp("Shard report folders (or report.json files), or a folder of them.", valueName: "DIR"))
    var inputs: [String]

    @Option(name: .long, help: ArgumentHelp("Where to write the merged report.", valueName: "DIR"))
    var out: String

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give the shards' report folders: apnsbench merge DIR... --out DIR") }
    }

    func run() throws {
        let paths = try ReportInputs.expand(inputs, excluding: out)
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
        print("merged \(loaded.count) shards of run \(merged.runID ?? "?"): \(written.joined(separator: ", "))")
        // The run's SLO, judged here on the whole run (each shard left it to the merge).
        if SLOCheck.checks(merged).contains(where: { !$0.met }) { throw ExitCodes.sloMissed }
    }
}

/// Report arguments as report.json paths: a file as it is, a folder's report.json, or, for a folder without
/// one, each subfolder's (sorted; `excluding` left out).
enum ReportInputs {
    static func expand(_ arguments: [String], excluding: String?) throws -> [String] {
        let fm = FileManager.default
        let skip = excluding.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        var paths: [String] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw CommandError("\(argument): no such file or folder")
            }
            guard isDirectory.boolValue else {
                paths.append(argument)
                continue
            }
            let own = (argument as NSString).appendingPathComponent(ReportWriter.jsonFileName)
            if fm.fileExists(atPath: own) {
                paths.append(own)
                continue
            }
            let children = ((try? fm.contentsOfDirectory(atPath: argument)) ?? []).sorted()
            let found = children.compactMap { child -> String? in
                let folder = (argument as NSString).appendingPathComponent(child)
                if let skip, URL(fileURLWithPath: folder).standardizedFileURL.path == skip { return nil }
                let report = (folder as NSString).appendingPathComponent(ReportWriter.jsonFileName)
                return fm.fileExists(atPath: report) ? report : nil
            }
            guard !found.isEmpty else {
                throw CommandError("\(argument) holds no report.json, nor do its subfolders")
            }
            paths.append(contentsOf: found)
        }
        return paths
    }
}
