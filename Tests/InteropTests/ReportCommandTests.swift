import Foundation
import Reporting
import TestSupport
import XCTest

/// `apnsbench report`, run as a user runs it: a written report rendered again, and a bad file refused
/// with exit 1 and its path named.
final class ReportCommandTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try ScratchFolder.make("report-command", removedBy: addTeardownBlock)
    }

    func testRendersAWrittenReportAsMarkdownAndAsJSON() throws {
        let report = HdrHistogramInteropTests.makeReport()
        let paths = try ReportWriter.write(report, to: folder.path)

        let md = try apnsbench(["report", paths[0]])
        XCTAssertEqual(md.status, 0, md.output)
        XCTAssertEqual(md.output, try String(contentsOfFile: paths[1], encoding: .utf8), "the same as the run's summary.md")

        let out = folder.appendingPathComponent("again.json").path
        let json = try apnsbench(["report", paths[0], "--format", "json", "--out", out])
        XCTAssertEqual(json.status, 0, json.output)
        XCTAssertEqual(try RunReport.load(from: out), report, "nothing lost, histograms included")

        // To a file (--out), as a page is kept.
        let page = folder.appendingPathComponent("again.html").path
        let html = try apnsbench(["report", paths[0], "--format", "html", "--out", page])
        XCTAssertEqual(html.status, 0, html.output)
        XCTAssertEqual(try String(contentsOfFile: page, encoding: .utf8), try String(contentsOfFile: paths[3], encoding: .utf8),
                       "the same as the run's report.html")
    }

    func testRefusesABadFileNamingIt() throws {
        let missing = folder.appendingPathComponent("nope.json").path
        let r1 = try apnsbench(["report", missing])
        XCTAssertEqual(r1.status, 1, r1.output)
        XCTAssertTrue(r1.output.contains("report \(missing): no such file"), r1.output)

        let notJSON = folder.appendingPathComponent("summary.md").path
        try "# not a report\n".write(toFile: notJSON, atomically: true, encoding: .utf8)
        let r2 = try apnsbench(["report", notJSON, "--format", "json"])
        XCTAssertEqual(r2.status, 1, r2.output)
        XCTAssertTrue(r2.output.contains("report \(notJSON): not a JSON report"), r2.output)

        let other = folder.appendingPathComponent("v9.json").path
        try #"{"schemaVersion": 9}"#.write(toFile: other, atomically: true, encoding: .utf8)
        let r3 = try apnsbench(["report", other])
        XCTAssertEqual(r3.status, 1, r3.output)
        XCTAssertTrue(r3.output.contains("report \(other): schemaVersion 9"), r3.output)

        let r4 = try apnsbench(["report", other, "--format", "html"])
        XCTAssertEqual(r4.status, 1, r4.output)
        XCTAssertTrue(r4.output.contains("report \(other): schemaVersion 9"), r4.output)

        let r5 = try apnsbench(["report", other, "--format", "pdf"])
        XCTAssertEqual(r5.status, 64, "an unknown format is a usage error\n\(r5.output)")
    }
}
