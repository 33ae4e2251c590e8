import ArgumentParser
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
}
