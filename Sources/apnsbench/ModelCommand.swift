import APNsCore
import ArgumentParser
import Foundation
import Harness
import Reporting

/// `apnsbench model fit`: an APNs model from a measured run.
struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "APNs models for the embedded simulator, fitted to your own measured path.",
        subcommands: [ModelFitCommand.self]
    )
}

struct ModelFitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Fit an APNs model (round trip, server-time lognormal, error shares) to a run's report.",
        discussion: """
            Reads a report of a run against your real path to APNs and writes a model file whose `simulator:` \
            section `apnsbench sweep PROFILE --apns-model FILE` and profiles (`simulator: {model: FILE}`) accept. \
            Measure at a low fixed rate, so that nothing queues on the client: for example against sandbox, \
            `apnsbench run PROFILE --target sandbox --rate 20 --duration 300s` (production stays behind \
            --allow-production-load above 100 pushes/s). The file records the source report's run id, date \
            and target.

            \(ExitCodes.help)
            """
    )

    @Argument(help: ArgumentHelp("The measured run's report.json (or its folder).", valueName: "REPORT"))
    var report: String

    @Option(name: .long, help: ArgumentHelp("Where to write the model file (default: model.yaml beside the report).", valueName: "FILE"))
    var out: String?

    @Flag(name: .long, help: ArgumentHelp(
        "Fit a run that queued on the client anyway (a full window, sends behind the schedule, a round trip of 0): the reasons become warnings."))
    var force = false

    func run() throws {
        let path = ReportArgument.file(report)
        let measured = try RunReport.load(from: path)
        try checkOutputs()
        let fit: APNsLatencyModelFit
        do { fit = try APNsLatencyModelFit.fit(measured, force: force) } catch let e as APNsLatencyModelFit.FitError {
            FileHandle.standardError.write(Data("Error: \(path): \(e)\n".utf8))
            throw ExitCodes.failure
        }
        let destination = self.destination
        do {
            try fit.file(report: measured, reportPath: path).write(toFile: destination, atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("Error: cannot write \(destination): \(error.localizedDescription)\n".utf8))
            throw ExitCodes.failure
        }
        print(fit.table)
        for w in fit.warnings { print("warning: \(w)") }
        print("model: \(destination)")
    }
}

extension ModelFitCommand: WritingCommand {
    static let writes: [Writes<Self>] = [.init("--out", .file) { $0.destination }]
    static let reads = ["<REPORT>"]
    func inputFiles() throws -> [OutputPath.Input] { [.init("the report", ReportArgument.file(report))] }

    /// --out, or model.yaml beside the report.
    var destination: String {
        out ?? ((ReportArgument.file(report) as NSString).deletingLastPathComponent as NSString).appendingPathComponent("model.yaml")
    }
}
