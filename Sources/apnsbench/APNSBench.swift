import ArgumentParser
import Foundation
import Harness

@main
struct APNSBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apnsbench",
        abstract: "Load-test and batch-replay harness for the APNs delivery hot path.",
        discussion: """
            Replays recorded event streams of real apps as APNs pushes through a libcurl HTTP/2 engine, against \
            an embedded APNs simulator (the default) or real APNs, and writes latency and error reports.

            Quick start:  apnsbench run            (profiles/leave-requests.yaml against the simulator)
            Versions:     apnsbench --version      (apnsbench, libcurl, nghttp2 and the TLS library loaded)

            \(ExitCodes.help)
              compare: 2 a regression, 4 improvements only (--fail-on-improvement), 5 incomparable runs (compare --help)
            """,
        version: VersionText.text,
        subcommands: [RunCommand.self, PlanCommand.self, RecipeCommand.self, ScaleCommand.self, SweepCommand.self, ReportCommand.self, CompareCommand.self,
            MergeCommand.self, SimulateCommand.self, ModelCommand.self],
        defaultSubcommand: nil
    )

    /// Parses and runs the command, as the parser's own `main` does, except that a usage error a command finds
    /// while it runs (an output refused, a value out of range once the profile is read) prints that command's
    /// usage, not the top-level one.
    static func main() {
        var command: ParsableCommand
        do { command = try parseAsRoot() } catch { exit(withError: error) }
        do { try command.run() } catch let e as ValidationError {
            FileHandle.standardError.write(Data(CommandTree.usageError(e.message, for: type(of: command)).utf8))
            Foundation.exit(ExitCodes.usage.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
