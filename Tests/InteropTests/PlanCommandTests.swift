import Foundation
import TestSupport
import XCTest

/// `apnsbench plan` run as a user runs it: what it prints where, and its exit codes (those of `run`).
final class PlanCommandTests: XCTestCase {
    private func scratch() throws -> URL {
        let dir = try ScratchFolder.make("plan", removedBy: addTeardownBlock)
        return dir
    }

    /// A leave-requests profile over `stream` (the shipped recipe, absolute), with `extra` lines.
    private func profile(in dir: URL, stream: String, extra: String = "") throws -> String {
        let path = dir.appendingPathComponent("p.yaml").path
        try """
            name: plan
            workload: leave-requests
            stream: \(stream)
            recipe: \(RepoFiles.recipe("leave-requests"))
            bundle_id: com.example.leaverequests
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testPlanWritesAPushLineForEveryPlannedPushAndTheSummary() throws {
        let r = try apnsbench(["plan", "profiles/leave-requests.yaml", "--out", "-"], directory: RepoFiles.root)
        XCTAssertEqual(r.status, 0, r.output)
        let summary = try XCTUnwrap(r.output.split(separator: "\n").first { $0.hasPrefix("plan profiles/leave-requests.yaml: ") }, r.output)
        let planned = try XCTUnwrap(summary.split(separator: " ").firstIndex(of: "pushes").map { Int(summary.split(separator: " ")[$0 - 1]) } ?? nil,
            String(summary))
        XCTAssertEqual(r.output.split(separator: "\n").filter { $0.hasPrefix(#"{"n":"#) }.count, planned)
        XCTAssertTrue(r.output.contains("totals add up"), r.output)
        let limited = try apnsbench(["plan", "profiles/leave-requests.yaml", "--out", "-", "--limit", "3", "--quiet"], directory: RepoFiles.root)
        XCTAssertEqual(limited.status, 0, limited.output)
        XCTAssertEqual(limited.output.split(separator: "\n").filter { $0.hasPrefix(#"{"n":"#) }.count, 3)
        XCTAssertTrue(limited.output.contains(String(summary)), "the whole recording is still counted: \(limited.output)")
    }

    func testAnUnreadableStreamFailsAsRunFails() throws {
        let dir = try scratch()
        let p = try profile(in: dir, stream: dir.appendingPathComponent("missing.ndjson").path)
        let plan = try apnsbench(["plan", p], directory: RepoFiles.root)
        let run = try apnsbench(["run", p, "--out", dir.appendingPathComponent("out").path], directory: RepoFiles.root)
        XCTAssertEqual(plan.status, 1, plan.output)
        XCTAssertEqual(plan.status, run.status, run.output)
        let message = "'stream' names \(dir.appendingPathComponent("missing.ndjson").path), which cannot be read (no such file)"
        XCTAssertTrue(plan.output.contains(message), plan.output)
        XCTAssertTrue(run.output.contains(message), run.output)
    }

    func testABadLineUnderStopExits3NamingIt() throws {
        let dir = try scratch()
        let good = try String(contentsOfFile: RepoFiles.root.appendingPathComponent("profiles/streams/leave-requests.ndjson").path, encoding: .utf8)
            .split(separator: "\n").prefix(10).map(String.init)
        let stream = dir.appendingPathComponent("s.ndjson").path
        try (good.prefix(4) + ["not json"] + good.dropFirst(4)).joined(separator: "\n").write(toFile: stream, atomically: true, encoding: .utf8)
        let stop = try apnsbench(["plan", try profile(in: dir, stream: stream, extra: "bad_lines: stop"), "--quiet"], directory: RepoFiles.root)
        XCTAssertEqual(stop.status, 3, stop.output)
        XCTAssertTrue(stop.output.contains("stopped at a bad stream line (bad_lines: stop): line 5: not JSON"), stop.output)
        let skip = try apnsbench(["plan", try profile(in: dir, stream: stream, extra: "bad_lines: skip")], directory: RepoFiles.root)
        XCTAssertEqual(skip.status, 0, skip.output)
        XCTAssertTrue(skip.output.contains("not_json: 1, lines 5"), skip.output)
    }
}
