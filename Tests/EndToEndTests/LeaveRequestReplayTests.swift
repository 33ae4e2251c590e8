import APNsCore
import Foundation
import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// `apnsbench run` end to end: profile → embedded simulator over TLS on loopback → libcurl engine → report.
final class LeaveRequestReplayTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("e2e", removedBy: addTeardownBlock)
    }

    func testShippedProfileReplaysWithCountsThatAddUp() throws {
        var options = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/leave-requests.yaml").path)
        options.outDirectory = scratch.appendingPathComponent("report").path
        let result = try ReplayRun.execute(options, log: { _ in })
        let p = result.report.pushes
        XCTAssertEqual(result.report.violations(), [])
        let rejected = p.rejected.values.reduce(0) { $0 + $1.count }
        XCTAssertEqual(p.delivered + rejected + p.failed.values.reduce(0, +) + p.timedOut + p.notSent.values.reduce(0, +), p.planned)
        // The shipped stream plants no bad tokens: every planned push is delivered or has no token yet.
        XCTAssertEqual(p.delivered + (p.notSent["no_token"] ?? 0), p.planned)
        XCTAssertGreaterThan(p.notSent["no_token"] ?? 0, 0, "the stream has status changes before their late token")
        XCTAssertEqual(rejected, 0)
        // Every line is an event; every event ends in one class.
        let lines = try String(contentsOfFile: Self.repo.appendingPathComponent("profiles/streams/leave-requests.ndjson").path, encoding: .utf8)
            .split(separator: "\n").count
        XCTAssertEqual(result.report.events.read, lines)
        XCTAssertGreaterThanOrEqual(lines, 1000)
        XCTAssertEqual(result.report.events.producedPushes + result.report.events.stateOnly
                       + result.report.events.invalid.values.reduce(0, +), lines)
        XCTAssertEqual(result.report.events.producedPushes, p.planned, "one push per status change")
        // The report on disk is the same report.
        let loaded = try RunReport.load(from: scratch.appendingPathComponent("report/report.json").path)
        XCTAssertEqual(loaded.pushes, p)
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("report/summary.md").path))
        XCTAssertEqual(result.report.engine.providerTokenSignings, 1)
        XCTAssertEqual(result.report.simulator?["accepted"], p.delivered)
    }

    /// A stream with malformed lines: each is reported with its line number, and the totals still add up.
    func testMalformedLinesAreReportedWithLineNumbersAndTotalsAddUp() throws {
        let token = String(repeating: "ab", count: 80)
        let lines = [
            #"{"at":"2025-04-16T07:00:00Z","kind":"leave.created","request_id":1,"student_id":7,"student_name":"A \"B\" 🎒","request_type":"early","#
                + #""reason":null,"activity_id":"E0D62919-9EF2-49C6-A108-85A227AF3904","token":"\#(token)"}"#,
            #"{"at":"2025-04-16T07:01:00Z","kind":"leave.status","request_id":1,"status":"approved","staff_id":3,"staff_name":"Jane"}"#,
            #"this is not json"#,
            #"{"at":"2025-04-16T07:02:00Z","kind":"leave.status","status":"finished"}"#,
            #"{"at":"2025-04-16T07:03:00Z","kind":"leave.teleport","request_id":1}"#,
            #"{"at":"2025-04-16T07:04:00Z","kind":"leave.status","request_id":"one","status":"finished"}"#,
            #"{"at":"2025-04-16T07:05:00Z","kind":"leave.status","request_id":2,"status":"approved"}"#,
            #"{"at":"2025-04-16T07:06:00Z","kind":"leave.status","request_id":1,"status":"finished","staff_name":"Jane"}"#,
        ]
        let profile = try writeProfile(stream: lines, badLines: "skip")
        var options = RunRequest(profilePath: profile)
        options.outDirectory = scratch.appendingPathComponent("report").path
        let result = try ReplayRun.execute(options, log: { _ in })
        let report = result.report
        XCTAssertNil(result.stoppedAt)
        XCTAssertEqual(report.events.read, 8)
        XCTAssertEqual(report.events.invalid.values.reduce(0, +), 4)
        XCTAssertEqual(Set(report.events.badLineSamples.map(\.line)), [3, 4, 5, 6])
        XCTAssertEqual(report.events.badLineSamples.first { $0.line == 4 }?.cause, "missing_field")
        XCTAssertEqual(report.events.badLineSamples.first { $0.line == 5 }?.cause, "unknown_kind")
        XCTAssertEqual(report.events.badLineSamples.first { $0.line == 6 }?.cause, "wrong_type")
        XCTAssertTrue(report.events.badLineSamples.first { $0.line == 3 }?.detail.contains("line 3") ?? false)
        // 2 delivered (lines 2 and 8), 1 for a request never created, 4 bad lines counted as not sent.
        XCTAssertEqual(report.pushes.delivered, 2)
        XCTAssertEqual(report.pushes.notSent["unknown_target"], 1)
        XCTAssertEqual(report.pushes.notSent["bad_line"], 4)
        XCTAssertEqual(report.pushes.planned, 7)
        XCTAssertEqual(report.violations(), [])

        // With `bad_lines: stop` the run stops at line 3 and says so; the report still balances.
        let stopping = try writeProfile(stream: lines, badLines: "stop")
        var stopOptions = RunRequest(profilePath: stopping)
        stopOptions.outDirectory = scratch.appendingPathComponent("stop").path
        let stopped = try ReplayRun.execute(stopOptions, log: { _ in })
        XCTAssertEqual(stopped.stoppedAt?.line, 3)
        XCTAssertEqual(stopped.report.pushes.delivered, 1)
        XCTAssertEqual(stopped.report.violations(), [])
    }

    func testBadProfileKeyIsNamedWithItsLine() throws {
        let path = scratch.appendingPathComponent("typo.yaml").path
        try "name: x\nworkload: leave-requests\nstream: s.ndjson\nrecipe: \(RepoFiles.recipe("leave-requests"))\nbundle_id: com.x\nconections: 4\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ReplayRun.execute(RunRequest(profilePath: path), log: { _ in })) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("typo.yaml:6"), text)
            XCTAssertTrue(text.contains("conections"), text)
        }
    }

    func testRealAPNsWithoutAKeyIsRefusedBeforeSending() throws {
        var options = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/leave-requests.yaml").path)
        options.overrides.target = .sandbox
        options.outDirectory = scratch.appendingPathComponent("r").path
        XCTAssertThrowsError(try ReplayRun.execute(options, log: { _ in })) { error in
            XCTAssertTrue("\(error)".contains("--key-path"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: options.outDirectory))
    }

    private func writeProfile(stream lines: [String], badLines: String) throws -> String {
        let stream = scratch.appendingPathComponent("stream-\(badLines).ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: stream, atomically: true, encoding: .utf8)
        let profile = scratch.appendingPathComponent("p-\(badLines).yaml")
        try """
            name: test
            workload: leave-requests
            stream: \(stream.path)
            recipe: \(RepoFiles.recipe("leave-requests"))
            bundle_id: com.example.leaverequests
            bad_lines: \(badLines)
            """.write(to: profile, atomically: true, encoding: .utf8)
        return profile.path
    }
}
