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
}
