import APNsCore
import ArgumentParser
import Foundation
import Reporting

/// `apnsbench report REPORT.json`: renders a written report again, without running.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a report.json again (Markdown, HTML or JSON) without rerunning.",
        discussion: """
            Examples:
              apnsbench report reports/latest/report.json                     (summary.md to standard output)
              apnsbench report reports/latest/report.json --format html --out report.html
              apnsbench report reports/latest/report.json --format json --out copy.json
              apnsbench report --check reports/latest/report.json              (verify only)
              apnsbench report reports/latest/report.json --format profile --out again.yaml   (then: apnsbench run again.yaml)

            A file that is missing, not JSON, of another schema version or not a report is refused with exit 1,
            naming the file. So is a report that breaks an invariant of its counts (push classes against planned,
            events against read, each latency histogram against its class, the timeline against the totals,
            attempts against first sends and retries, retries only of causes the policy resends): each violation
            is named with the file, the field, what was expected and what was found.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case md, html, json, profile
    }

    @Argument(help: ArgumentHelp("The report to render: a report.json, or a run's report folder (its report.json).", valueName: "REPORT.json"))
    var report: String

    @Option(name: .long, help: ArgumentHelp(
        "md: the Markdown summary (as summary.md); html: the self-contained page (as report.html, no network needed); json: the report itself, re-encoded; "
            + "profile: the run's configuration as a profile (YAML) that replays it: save it in the folder the run started in (its paths are relative to it) "
            + "and run it."))
    var format: Format = .md

    @Option(name: .long, help: ArgumentHelp("Write here instead of standard output.", valueName: "FILE"))
    var out: String?

    @Flag(name: .long, help: "Only verify the report (its schema and invariants): exit 0 and say so when it holds, 1 naming each violation.")
    var check = false

    func run() throws {
        let report = ReportArgument.file(self.report)
        if report != self.report, !FileManager.default.fileExists(atPath: report) {
            throw CommandError("\(self.report) is a folder with no report.json in it: give a run's report folder or its report.json")
        }
        let loaded = try RunReport.load(from: report)
        try checkOutputs()
        if check {
            print("\(report): a valid report; every invariant holds")
            return
        }
        let bytes: Data
        switch format {
        case .md: bytes = Data(SummaryText.markdown(loaded).utf8)
        case .html: bytes = Data(renderHTML(loaded).utf8)
        case .json: bytes = try loaded.encoded() + Data("\n".utf8)
        case .profile:
            bytes = Data(ProfileWriter.yaml(loaded.configuration, source: report).utf8)
            let left = ProfileWriter.left(loaded.configuration)
            if !left.isEmpty {
                FileHandle.standardError.write(Data("apnsbench: a profile cannot hold \(left.joined(separator: ", ")); give it to run again\n".utf8))
            }
        }
        guard let out else {
            FileHandle.standardOutput.write(bytes)
            return
        }
        do {
            try bytes.write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw CommandError("cannot write \(out): \(error.localizedDescription)")
        }
    }
}

extension ReportCommand: WritingCommand {
    static let writes: [Writes<Self>] = [.init("--out", .file) { $0.out }]
    static let reads = ["<REPORT.json>"]
    func inputFiles() throws -> [OutputPath.Input] { [.init("the report", ReportArgument.file(report))] }
}

/// A report argument: a report.json, or a run's report folder standing for the report.json in it.
enum ReportArgument {
    static func file(_ path: String) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return path }
        return (path as NSString).appendingPathComponent(ReportWriter.jsonFileName)
    }
}

/// A failure of the command itself, not of its command line: the message is the whole description, exit 1.
struct CommandError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
