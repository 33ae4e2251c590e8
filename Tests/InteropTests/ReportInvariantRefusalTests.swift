import Foundation
import Reporting
import TestSupport
import XCTest

/// A report with one class count edited by hand, as a user might: `report`, `compare` and `merge` each refuse
/// it with exit 1, naming the file, the field, what was expected and what was found.
final class ReportInvariantRefusalTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try ScratchFolder.make("report-invariants", removedBy: addTeardownBlock)
    }

    /// The report written, and a copy whose `pushes.delivered` was raised by one in the file's text.
    func writeGoodAndEdited() throws -> (good: String, edited: String, planned: Int, delivered: Int) {
        let report = HdrHistogramInteropTests.makeReport()
        let good = try ReportWriter.write(report, to: folder.appendingPathComponent("good").path)[0]
        let editedFolder = folder.appendingPathComponent("edited")
        try FileManager.default.createDirectory(at: editedFolder, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: good, encoding: .utf8)
        let line = "\"delivered\" : \(report.pushes.delivered),"
        XCTAssertEqual(text.components(separatedBy: line).count, 2, "one pushes.delivered line in \(good)")
        let edited = editedFolder.appendingPathComponent("report.json").path
        try text.replacingOccurrences(of: line, with: "\"delivered\" : \(report.pushes.delivered + 1),")
            .write(toFile: edited, atomically: true, encoding: .utf8)
        return (good, edited, report.pushes.planned, report.pushes.delivered + 1)
    }

    func assertRefused(_ result: (status: Int32, output: String), _ path: String, planned: Int,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 1, result.output, file: file, line: line)
        XCTAssertTrue(result.output.contains("\(path): pushes.planned: expected \(planned + 1) (delivered + rejected + failed + timedOut + notSent), "
            + "found \(planned)"),
                      result.output, file: file, line: line)
        XCTAssertTrue(result.output.contains("\(path): pushes.balanced"), result.output, file: file, line: line)
    }

    func testReportCompareAndMergeRefuseAnEditedClassCount() throws {
        let (good, edited, planned, _) = try writeGoodAndEdited()

        let check = try apnsbench(["report", "--check", good])
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertTrue(check.output.contains("every invariant holds"), check.output)

        assertRefused(try apnsbench(["report", "--check", edited]), edited, planned: planned)
        assertRefused(try apnsbench(["report", edited]), edited, planned: planned)
        assertRefused(try apnsbench(["compare", good, edited]), edited, planned: planned)
        assertRefused(try apnsbench(["compare", "--exact-counts", good, edited]), edited, planned: planned)
        assertRefused(try apnsbench(["merge", folder.appendingPathComponent("edited").path, "--out", folder.appendingPathComponent("merged").path]),
                      edited, planned: planned)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("merged").path), "nothing merged")
    }

    func testExactCountsNamesEachDifferingCount() throws {
        let (good, _, _, _) = try writeGoodAndEdited()
        let same = try apnsbench(["compare", "--exact-counts", good, good])
        XCTAssertEqual(same.status, 0, same.output)
        XCTAssertTrue(same.output.contains("identical"), same.output)

        // A consistent change (so it is read without complaint): one more planned push, not sent.
        var other = try RunReport.load(from: good)
        other.pushes.planned += 1
        other.pushes.notSent["no_token", default: 0] += 1
        other.pushes.expectedPlanned = other.pushes.expectedPlanned.map { $0 + 1 }
        other.events.expectedPushes = other.events.expectedPushes.map { $0 + 1 }
        let changed = folder.appendingPathComponent("changed.json").path
        try other.encoded().write(to: URL(fileURLWithPath: changed))
        let diff = try apnsbench(["compare", "--exact-counts", good, changed])
        XCTAssertEqual(diff.status, 2, diff.output)
        XCTAssertTrue(diff.output.contains("differs: pushes.planned: \(other.pushes.planned - 1) → \(other.pushes.planned)"), diff.output)
        XCTAssertTrue(diff.output.contains("differs: pushes.notSent.no_token: absent → 1"), diff.output)
    }
}
