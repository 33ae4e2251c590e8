import Foundation
import TestSupport
import XCTest

/// The committed-baseline path of the CI gate, as docs/ci-gate.md gives it: `scripts/ci-regression.sh` without
/// `--base` compares the candidate's runs with reports/baselines/ci-validating. At the script's defaults (its
/// profile, duration, simulator model and baseline; one run instead of three, for the suite's time) it passes,
/// and the regression scripts/ci-false-alarms.sh plants (1% of pushes answered 503) against the same baseline
/// exits 2, naming its row.
final class CIBaselineTests: XCTestCase {
    private func gate(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let out = try ScratchFolder.make("cibaseline", removedBy: addTeardownBlock)
        return try runChild(RepoFiles.path("scripts/ci-regression.sh"), ["--runs", "1", "--out", out.appendingPathComponent("runs").path] + arguments,
                            environment: ["APNSBENCH_BIN": try APNsBenchProcess.binary().path, "GITHUB_STEP_SUMMARY": ""])
    }

    func testTheCommittedBaselinePassesAtTheScriptsDefaults() throws {
        let r = try gate([])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("ci-regression: compare exited 0 (0 no regression, 2 regression, 4 improvements only, 5 incomparable)"),
                      r.output)
        XCTAssertTrue(r.output.contains("Baseline: `reports/baselines/ci-validating` (5 runs)"), r.output)
    }

    func testAPlantedRegressionAgainstTheCommittedBaselineExits2() throws {
        let dir = try ScratchFolder.make("cibaseline-model", removedBy: addTeardownBlock)
        let model = try String(contentsOfFile: RepoFiles.path("profiles/ci-simulator.yaml"), encoding: .utf8)
        let planted = model.replacingOccurrences(of: "\nfaults:", with: "\nfaults:\n  service_unavailable_fraction: 0.01")
        XCTAssertNotEqual(planted, model, "profiles/ci-simulator.yaml has a faults: section to plant the regression in")
        let path = dir.appendingPathComponent("planted-simulator.yaml")
        try planted.write(to: path, atomically: true, encoding: .utf8)
        let r = try gate(["--sim-config-new", path.path])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.output.contains("ci-regression: compare exited 2 (0 no regression, 2 regression, 4 improvements only, 5 incomparable)"),
                      r.output)
        XCTAssertTrue(r.output.contains("| rejected ServiceUnavailable | 0 |"), r.output)
    }
}
