import Foundation
import TestSupport
import XCTest

/// The CI examples the repository ships (the GitHub Actions workflow, the GitLab CI file) are valid for their
/// CI systems and run only scripts and flags that exist (scripts/check-ci-examples.py, PyYAML); the gate's
/// script answers --help and refuses a bad argument as usage.
final class CIExamplesTests: XCTestCase {
    func check(_ files: [String]) throws -> (status: Int32, output: String) {
        try runChild("/usr/bin/env", ["python3", RepoFiles.path("scripts/check-ci-examples.py"), "--apnsbench", APNsBenchProcess.binary().path] + files)
    }

    func testTheShippedWorkflowsAreValidAndRunTheGateWithRealFlags() throws {
        let r = try check([])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("ok: .github/workflows/apnsbench-regression.yml"), r.output)
        XCTAssertTrue(r.output.contains("ok: deploy/ci/gitlab-ci.yml"), r.output)
        for file in [".github/workflows/apnsbench-regression.yml", "deploy/ci/gitlab-ci.yml"] {
            let text = try String(contentsOfFile: RepoFiles.path(file), encoding: .utf8)
            XCTAssertTrue(text.contains("scripts/ci-regression.sh --base "), "\(file) runs the gate on a base built in the job")
        }
    }

    /// The check fails on what would break in CI: a misspelt flag, an action without a ref, a job without a script.
    func testABrokenExampleIsNamed() throws {
        let dir = try ScratchFolder.make("ciexamples", removedBy: addTeardownBlock)
        let workflows = dir.appendingPathComponent(".github/workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        let gh = try String(contentsOfFile: RepoFiles.path(".github/workflows/apnsbench-regression.yml"), encoding: .utf8)
            .replacingOccurrences(of: "--runs 3", with: "--rnus 3").replacingOccurrences(of: "actions/cache@v4", with: "actions/cache")
        try gh.write(to: workflows.appendingPathComponent("broken.yml"), atomically: true, encoding: .utf8)
        let gl = try String(contentsOfFile: RepoFiles.path("deploy/ci/gitlab-ci.yml"), encoding: .utf8)
            .replacingOccurrences(of: "  script:", with: "  scrpt:")
            .replacingOccurrences(of: "  artifacts:", with: "  after_script:\n    - .build/debug/apnsbench compare a b --colour\n  artifacts:")
        try gl.write(to: dir.appendingPathComponent("gitlab-ci.yml"), atomically: true, encoding: .utf8)
        let r = try check([workflows.appendingPathComponent("broken.yml").path, dir.appendingPathComponent("gitlab-ci.yml").path])
        XCTAssertEqual(r.status, 1, r.output)
        for problem in ["scripts/ci-regression.sh has no flag --rnus", "uses 'actions/cache' is not owner/repo@ref", "unknown key scrpt",
                        "script must be a list of commands", "apnsbench compare has no flag --colour"] {
            XCTAssertTrue(r.output.contains(problem), "\(problem):\n\(r.output)")
        }
    }

    /// The gate's verdict is written once and judged once: a workflow that appends to the step summary (the
    /// script does) or posts no comment, and a GitLab job that runs compare again with flags of its own, are named.
    func testAnExampleThatJudgesAgainOrWritesTwiceIsNamed() throws {
        let dir = try ScratchFolder.make("ciexamples", removedBy: addTeardownBlock)
        let workflows = dir.appendingPathComponent(".github/workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        let shipped = try String(contentsOfFile: RepoFiles.path(".github/workflows/apnsbench-regression.yml"), encoding: .utf8)
        let comment = try XCTUnwrap(shipped.range(of: "      - name: The short verdict as one pull-request comment"))
        let keep = try XCTUnwrap(shipped.range(of: "      - name: Keep the reports"))
        let gh = shipped.replacingCharacters(in: comment.lowerBound..<keep.lowerBound, with: """
                  - name: The short verdict
                    run: cat reports/ci-pr/summary.md >> "$GITHUB_STEP_SUMMARY"

            """)
        try gh.write(to: workflows.appendingPathComponent("twice.yml"), atomically: true, encoding: .utf8)
        let gl = try String(contentsOfFile: RepoFiles.path("deploy/ci/gitlab-ci.yml"), encoding: .utf8)
            .replacingOccurrences(of: "  artifacts:", with: "  after_script:\n    - .build/debug/apnsbench compare a b --max-p99-regression 20%\n  artifacts:")
        try gl.write(to: dir.appendingPathComponent("gitlab-ci.yml"), atomically: true, encoding: .utf8)
        let r = try check([workflows.appendingPathComponent("twice.yml").path, dir.appendingPathComponent("gitlab-ci.yml").path])
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertEqual(r.output.split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1)[1]) }, [
            "jobs.regression: writes $GITHUB_STEP_SUMMARY, which scripts/ci-regression.sh writes already",
            "jobs.regression: posts 0 pull-request comments; the gate's verdict is one comment",
            "apnsbench-regression: runs `apnsbench compare` beside scripts/ci-regression.sh: use the files the gate writes "
                + "(compare.md, summary.md, compare.xml), judged with its own flags",
        ], r.output)
    }

    /// The CI simulator model's comment names the regression scripts/ci-false-alarms.sh plants, as the docs do.
    func testTheCISimulatorsCommentIsThePlantedRegression() throws {
        let script = try String(contentsOfFile: RepoFiles.path("scripts/ci-false-alarms.sh"), encoding: .utf8)
        let model = try String(contentsOfFile: RepoFiles.path("profiles/ci-simulator.yaml"), encoding: .utf8)
        let docs = try String(contentsOfFile: RepoFiles.path("docs/ci-gate.md"), encoding: .utf8)
        XCTAssertTrue(script.contains("sed -e 's/fixed: 20ms/fixed: 22ms/' -e 's/^faults:/faults:\\n  service_unavailable_fraction: 0.01/'"), script)
        XCTAssertTrue(model.contains("with `fixed: 22ms` (+10% latency; measured: the client's p50 +9 to 10%) and\n"
            + "# `service_unavailable_fraction: 0.01`, as scripts/ci-false-alarms.sh writes it"), model)
        XCTAssertTrue(docs.contains("(the candidate's simulator answering after 22 ms instead of 20, +10% latency, and 1% of pushes 503"), docs)
    }

    func testTheGateScriptAnswersHelpAndRefusesABadArgument() throws {
        let help = try runChild(RepoFiles.path("scripts/ci-regression.sh"), ["--help"])
        XCTAssertEqual(help.status, 0, help.output)
        for flag in ["--base REV", "--profile FILE", "--runs N", "--duration S"] { XCTAssertTrue(help.output.contains(flag), help.output) }
        let bad = try runChild(RepoFiles.path("scripts/ci-regression.sh"), ["--runs", "0"])
        XCTAssertEqual(bad.status, 64, bad.output)
        XCTAssertTrue(bad.output.contains("--runs must be a whole number of at least 1, found '0'"), bad.output)
        let unknown = try runChild(RepoFiles.path("scripts/ci-regression.sh"), ["--base", "no-such-revision-anywhere"])
        XCTAssertEqual(unknown.status, 1, unknown.output)
        XCTAssertTrue(unknown.output.contains("--base no-such-revision-anywhere is not a revision of this repository"), unknown.output)
    }
}
