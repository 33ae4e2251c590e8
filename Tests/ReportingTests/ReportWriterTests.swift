import APNsCore
import Foundation
import TestSupport
import XCTest
@testable import Reporting

final class ReportWriterTests: XCTestCase {
    func testWritesEveryFileIntoANewNestedDirectory() throws {
        let base = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        let dir = base + "/reports/nested/run-1"
        let paths = try ReportWriter.write(Fixtures.report(from: Fixtures.mixedRecorder()), to: dir)

        XCTAssertEqual(paths, [dir + "/report.json", dir + "/summary.md", dir + "/latency.hlog", dir + "/report.html"])
        for path in paths { XCTAssertTrue(FileManager.default.fileExists(atPath: path), path) }
        let json = try String(contentsOfFile: paths[0], encoding: .utf8)
        XCTAssertTrue(json.hasPrefix("{\n"), "pretty-printed")
        let keys = ["\"configuration\"", "\"durationSeconds\"", "\"engine\"", "\"environment\"", "\"events\""]
        let offsets = keys.compactMap { json.range(of: $0)?.lowerBound }
        XCTAssertEqual(offsets.count, keys.count)
        XCTAssertEqual(offsets, offsets.sorted(), "keys sorted")
    }

    func testRewritingReplacesEarlierFiles() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        _ = try ReportWriter.write(Fixtures.report(from: Fixtures.mixedRecorder()), to: dir)
        let empty = Fixtures.report(from: RunRecorder())
        let paths = try ReportWriter.write(empty, to: dir)
        XCTAssertEqual(try RunReport.load(from: paths[0]), empty)
    }

    func testSummaryHoldsCountsBalanceAndBothLatencyLabels() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        let paths = try ReportWriter.write(Fixtures.report(from: Fixtures.mixedRecorder()), to: dir)
        let md = try String(contentsOfFile: paths[1], encoding: .utf8)

        XCTAssertTrue(md.hasPrefix("# apnsbench run: profiles/leave-requests.yaml\n"), md)
        for row in ["| planned | 18 |", "| delivered | 5 |", "| rejected | 4 |",
                    "| rejected: BadDeviceToken (400) | 2 |", "| rejected: TooManyRequests (429) | 1 |",
                    "| failed | 3 |", "| failed: curl_7_couldnt_connect | 2 |", "| failed: curl_56_recv_error | 1 |",
                    "| timed out | 2 |", "| not sent | 4 |", "| not sent: no_token | 3 |", "| not sent: run_stopped | 1 |",
                    "Balanced: **yes**"] {
            XCTAssertTrue(md.contains(row), "summary.md lacks \(row)\n\(md)")
        }
        XCTAssertTrue(md.contains("response time (from intended send, corrected for coordinated omission)"))
        XCTAssertTrue(md.contains("service time (from actual send)"))
        XCTAssertTrue(md.contains("| p99.9 |"))
        XCTAssertTrue(md.contains("pushes/s"))
        XCTAssertTrue(md.contains("libcurl 8.14.1"))
        XCTAssertTrue(md.contains("3 opened"))
        XCTAssertTrue(md.contains("provider token signings: 1"))
        XCTAssertTrue(md.contains("target `simulator`"))
        XCTAssertTrue(md.contains("2 connections × 50 streams"))
        XCTAssertTrue(md.contains("## Bad lines"))
        XCTAssertTrue(md.contains("| 7 | bad_json |"))
        XCTAssertFalse(md.contains(Fixtures.deviceToken), "device tokens never appear in reports")
    }

    func testSummaryFlagsAnUnbalancedRunAndOmitsEmptySections() throws {
        let recorder = RunRecorder()
        Fixtures.send(recorder, .delivered)
        var events = EventTally()
        events.record(kind: "notify", .producedPushes(2))
        let md = SummaryText.markdown(Fixtures.report(from: recorder, events: events, simulator: nil))
        XCTAssertTrue(md.contains("Balanced: **NO**"), md)
        XCTAssertTrue(md.contains("workload expected 2"), md)
        XCTAssertFalse(md.contains("## Bad lines"))
        XCTAssertFalse(md.contains("## Simulator"))
        XCTAssertFalse(md.contains("## Coalescing"))
    }

    func testSummaryEscapesTableBreakingText() {
        var events = EventTally()
        events.recordBadLine(line: 2, cause: "bad_json", detail: "a | b")
        let md = SummaryText.markdown(Fixtures.report(from: RunRecorder(), events: events))
        XCTAssertTrue(md.contains("| 2 | bad_json | a \\| b |"), md)
    }
}
