import Foundation
import Reporting
import TestSupport
import XCTest

/// No command writes over its own input: an output path that is, or holds, one of the command's inputs is
/// a usage error (exit 64) naming both, before anything is written. A report folder named with --out that
/// already holds a report is refused unless --force.
final class OutputOverwriteTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try ScratchFolder.make("overwrite", removedBy: addTeardownBlock)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The `Error:` line of an output.
    func error(_ output: String) -> String {
        output.split(separator: "\n").first { $0.hasPrefix("Error: ") }.map(String.init) ?? ""
    }

    /// Two shard folders, keep/s0 and keep/s1, each with a report.
    func shards() throws -> (s0: String, s1: String) {
        let report = HdrHistogramInteropTests.makeReport()
        _ = try ReportWriter.write(report, to: path("keep/s0"))
        _ = try ReportWriter.write(report, to: path("keep/s1"))
        return (path("keep/s0"), path("keep/s1"))
    }

    func testMergeRefusesAnOutThatIsAShardsFolderAndLeavesTheShardAsItWas() throws {
        let (s0, s1) = try shards()
        let before = try Data(contentsOf: URL(fileURLWithPath: s0 + "/report.json"))
        let r = try apnsbench(["merge", s0, s1, "--out", s0])
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertEqual(error(r.output), "Error: --out \(s0) holds the shard report \(s0)/report.json, an input of this command: "
            + "write elsewhere (no command writes over its own input)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: s0 + "/report.json")), before, "shard 0's report is untouched")

        let report = s1 + "/report.json"
        let same = try apnsbench(["merge", s0, report, "--out", report])
        XCTAssertEqual(same.status, 64, same.output)
        XCTAssertEqual(error(same.output), "Error: --out \(report) is the shard report \(report), an input of this command: "
            + "write elsewhere (no command writes over its own input)")
    }

    func testAReportFolderNamedWithOutThatHoldsAReportIsRefusedUnlessForce() throws {
        let (s0, s1) = try shards()
        let taken = path("merged")
        _ = try ReportWriter.write(HdrHistogramInteropTests.makeReport(), to: taken)
        let r = try apnsbench(["merge", s0, s1, "--out", taken])
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertEqual(error(r.output), "Error: --out \(taken) already holds a report (\(taken)/report.json): give another folder, or --force to replace it")

        let run = try apnsbench(["run", "--out", taken], directory: RepoFiles.root)
        XCTAssertEqual(run.status, 64, run.output)
        XCTAssertEqual(error(run.output), "Error: --out \(taken) already holds a report (\(taken)/report.json): give another folder, or --force to replace it")
        let sweep = try apnsbench(["sweep", "profiles/leave-requests.yaml", "--vary", "connections=1,2", "--out", taken], directory: RepoFiles.root)
        XCTAssertEqual(sweep.status, 64, sweep.output)
        XCTAssertEqual(error(sweep.output), "Error: --out \(taken) already holds a report (\(taken)/report.json): give another folder, "
            + "or --force to replace it")
    }

    func testReportRecipeInitAndRunRefuseToWriteOverTheirInput() throws {
        let (s0, _) = try shards()
        let report = s0 + "/report.json"
        let again = try apnsbench(["report", report, "--format", "html", "--out", report])
        XCTAssertEqual(again.status, 64, again.output)
        XCTAssertEqual(error(again.output), "Error: --out \(report) is the report \(report), an input of this command: "
            + "write elsewhere (no command writes over its own input)")

        let recording = path("r.ndjson")
        try FileManager.default.copyItem(atPath: RepoFiles.stream("leave-requests"), toPath: recording)
        let scaffold = try apnsbench(["recipe", "init", recording, "--out", recording])
        XCTAssertEqual(scaffold.status, 64, scaffold.output)
        XCTAssertEqual(error(scaffold.output), "Error: --out \(recording) is the recording \(recording), an input of this command: "
            + "write elsewhere (no command writes over its own input)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: recording)), try Data(contentsOf: URL(fileURLWithPath: RepoFiles.stream("leave-requests"))))

        let plan = try apnsbench(["plan", "profiles/leave-requests.yaml", "--out", "profiles/streams/leave-requests.ndjson"], directory: RepoFiles.root)
        XCTAssertEqual(plan.status, 64, plan.output)
        XCTAssertEqual(error(plan.output), "Error: --out profiles/streams/leave-requests.ndjson is the recording profiles/streams/leave-requests.ndjson, "
            + "an input of this command: write elsewhere (no command writes over its own input)")
        let fit = try apnsbench(["model", "fit", report, "--out", report])
        XCTAssertEqual(fit.status, 64, fit.output)
        XCTAssertEqual(error(fit.output), "Error: --out \(report) is the report \(report), an input of this command: "
            + "write elsewhere (no command writes over its own input)")

        let run = try apnsbench(["run", "profiles/leave-requests.yaml", "--out", "profiles"], directory: RepoFiles.root)
        XCTAssertEqual(run.status, 64, run.output)
        XCTAssertEqual(error(run.output), "Error: --out profiles holds the profile profiles/leave-requests.yaml, an input of this command: "
            + "write elsewhere (no command writes over its own input)")
        let sweep = try apnsbench(["sweep", "profiles/leave-requests.yaml", "--vary", "connections=1,2", "--out", "profiles/streams"],
            directory: RepoFiles.root)
        XCTAssertEqual(sweep.status, 64, sweep.output)
        XCTAssertEqual(error(sweep.output), "Error: --out profiles/streams holds the recording profiles/streams/leave-requests.ndjson, "
            + "an input of this command: write elsewhere (no command writes over its own input)")
    }

    /// `run --junit` wrote its XML over the profile, the recording or the run's own report.json and exited 0.
    func testRunJUnitIsRefusedOverTheProfileTheRecordingAndTheRunsOwnReport() throws {
        try FileManager.default.copyItem(atPath: RepoFiles.path("profiles"), toPath: path("p"))
        let profile = path("p/leave-requests.yaml"), recording = path("p/streams/leave-requests.ndjson"), out = path("out")
        let cases = [(profile, "is the profile \(profile), an input of this command: write elsewhere (no command writes over its own input)"),
                     (recording, "is the recording \(recording), an input of this command: write elsewhere (no command writes over its own input)"),
                     (out + "/report.json", "is the report.json that --out \(out) writes: give each output its own path")]
        for (junit, why) in cases {
            let before = try? Data(contentsOf: URL(fileURLWithPath: junit))
            let r = try apnsbench(["run", profile, "--quiet", "--out", out, "--junit", junit])
            XCTAssertEqual(r.status, 64, r.output)
            XCTAssertEqual(error(r.output), "Error: --junit \(junit) \(why)")
            XCTAssertEqual(try? Data(contentsOf: URL(fileURLWithPath: junit)), before, "\(junit) is as it was")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing ran")
        }
        // The run's own report.json when --out is left at its default.
        let r = try apnsbench(["run", profile, "--quiet", "--junit", "reports/latest/report.json"], directory: folder)
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertEqual(error(r.output), "Error: --junit reports/latest/report.json is the report.json that --out reports/latest writes: "
            + "give each output its own path")
    }

    /// A file output may go into the folder the same command makes; a folder that cannot be made or written is
    /// refused before anything runs.
    func testAnOutputInsideTheRunsOwnFolderIsAcceptedAndAnUnwritableOneRefused() throws {
        let out = path("fresh/run")
        // The default profile's p99 SLO is not what is judged here, and a busy host misses it (exit 99): it is lifted.
        let r = try apnsbench(["run", "--quiet", "--slo-p99-ms", "3600000", "--out", out, "--junit", out + "/slo.xml"], directory: RepoFiles.root)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/slo.xml"), r.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/report.json"), r.output)

        let missing = try apnsbench(["run", "--quiet", "--out", path("x"), "--junit", path("nowhere/slo.xml")], directory: RepoFiles.root)
        XCTAssertEqual(missing.status, 64, missing.output)
        XCTAssertEqual(error(missing.output), "Error: --junit \(path("nowhere/slo.xml")): the folder \(path("nowhere")) does not exist")
        let file = path("r.txt")
        try "a file\n".write(toFile: file, atomically: true, encoding: .utf8)
        let under = try apnsbench(["run", "--quiet", "--out", file + "/run"], directory: RepoFiles.root)
        XCTAssertEqual(under.status, 64, under.output)
        XCTAssertEqual(error(under.output), "Error: --out \(file)/run cannot be made: \(file) is a file, not a folder")
        // /proc/1 cannot be written, not even by root.
        let locked = try apnsbench(["run", "--quiet", "--out", "/proc/1/run"], directory: RepoFiles.root)
        XCTAssertEqual(locked.status, 64, locked.output)
        XCTAssertEqual(error(locked.output), "Error: --out /proc/1/run cannot be made: /proc/1 is not writable")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x")), "nothing ran")
    }

    /// A usage error found while the command runs prints that command's usage, not the top level's.
    func testARefusedOutputPrintsItsCommandsUsage() throws {
        let taken = path("taken")
        _ = try ReportWriter.write(HdrHistogramInteropTests.makeReport(), to: taken)
        let r = try apnsbench(["run", "--out", taken], directory: RepoFiles.root)
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertEqual(r.output.split(separator: "\n").map(String.init), [
            "Error: --out \(taken) already holds a report (\(taken)/report.json): give another folder, or --force to replace it",
            "Usage: apnsbench run [<options>] [<profile>]",
            "  See 'apnsbench run --help' for more information.",
        ])
    }

    /// `simulate --report DIR` is checked before the simulator serves, not when it stops after a sender's test.
    func testSimulateChecksItsReportFolderBeforeItServes() throws {
        let file = path("report.txt")
        try "a file\n".write(toFile: file, atomically: true, encoding: .utf8)
        let cases = [("/proc/1/report", "Error: --report /proc/1/report cannot be made: /proc/1 is not writable"),
                     (file, "Error: --report \(file) is a file; it names a folder to write into"),
                     (file + "/report", "Error: --report \(file)/report cannot be made: \(file) is a file, not a folder")]
        for (report, message) in cases {
            let r = try apnsbench(["simulate", "--port", "0", "--h2c", "--duration", "5s", "--report", report])
            XCTAssertEqual(r.status, 64, r.output)
            XCTAssertEqual(r.output.split(separator: "\n").map(String.init), [
                message, "Usage: apnsbench simulate <options>", "  See 'apnsbench simulate --help' for more information.",
            ])
        }
    }
}
