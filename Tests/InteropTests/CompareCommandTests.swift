import APNsCore
import Foundation
import Reporting
import TestSupport
import XCTest

/// `apnsbench compare`, run as a user (or a CI job) runs it, on reports written to a temporary folder:
/// each exit code with the words that explain it.
final class CompareCommandTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try ScratchFolder.make("compare-command", removedBy: addTeardownBlock)
    }

    static let base = HdrHistogramInteropTests.makeReport()

    /// Writes the base report, changed by `edit`, to `folder/name/report.json` and returns the folder's path.
    @discardableResult
    func write(_ name: String, from report: RunReport = CompareCommandTests.base, _ edit: (inout RunReport) -> Void = { _ in }) throws -> String {
        var r = report
        edit(&r)
        let dir = folder.appendingPathComponent(name).path
        _ = try ReportWriter.write(r, to: dir)
        return dir
    }

    func testIdenticalRunsExit0AndSaySingleRunTolerancesOnly() throws {
        let a = try write("a"), b = try write("b")
        let r = try apnsbench(["compare", a + "/report.json", b])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.hasPrefix("### apnsbench compare: ✅ no regression"), r.output)
        XCTAssertTrue(r.output.contains("single run per side: tolerances only"), r.output)
        XCTAssertTrue(r.output.contains("| delivered | 10000 | 10000 | 0 |"), r.output)
    }

    func testAPlantedRegressionExits2WithRegressionsFirst() throws {
        let a = try write("a")
        // 40 pushes answered 503 instead of delivered, and p99 30% up.
        let b = try write("b", from: HdrHistogramInteropTests.makeReport(unavailable: 40)) { r in
            r.latency.responseTime.p99 = r.latency.responseTime.p99 * 13 / 10
        }
        let r = try apnsbench(["compare", a, b])
        XCTAssertEqual(r.status, 2, r.output)
        XCTAssertTrue(r.output.hasPrefix("### apnsbench compare: ❌ regression — 3 regressions"), r.output)
        let rows = r.output.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| metric") && !$0.hasPrefix("| ---") }
        XCTAssertEqual(rows.prefix(3).map { String($0.split(separator: "|")[0]).trimmingCharacters(in: .whitespaces) },
                       ["delivered", "rejected ServiceUnavailable", "response time p99"], r.output)
        XCTAssertTrue(rows[1].contains("new: not there before"), String(rows[1]))

        // The same as JUnit to a file: the exit code does not depend on the format.
        let xml = folder.appendingPathComponent("compare.xml").path
        let j = try apnsbench(["compare", a, b, "--format", "junit", "--out", xml])
        XCTAssertEqual(j.status, 2, j.output)
        XCTAssertTrue(j.output.contains("apnsbench compare: ❌ regression"), "a verdict line on standard error: \(j.output)")
        XCTAssertTrue(try String(contentsOfFile: xml, encoding: .utf8).contains("<failure type=\"regression\""))
        // And as JSON.
        let json = try apnsbench(["compare", a, b, "--format", "json"])
        XCTAssertEqual(json.status, 2)
        let decoded = try JSONDecoder().decode(ComparisonReport.self, from: Data(json.output.utf8))
        XCTAssertEqual(decoded.verdict, .regression)
        XCTAssertEqual(decoded.regressions.count, 3)
    }

    func testAWiderToleranceLetsTheLatencyChangeThrough() throws {
        let a = try write("a")
        let b = try write("b") { $0.latency.responseTime.p99 = $0.latency.responseTime.p99 * 13 / 10 }
        let r = try apnsbench(["compare", a, b, "--max-p99-regression", "35%"])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("but not past 35%"), r.output)
    }

    func testIncomparableRunsExit5NamingEachDifference() throws {
        let a = try write("a")
        let b = try write("b") { r in
            r.configuration.workload.name = "order-changes"
            r.configuration.transport.streams = 1000
            r.environment.libcurl = "7.88.1"
        }
        let r = try apnsbench(["compare", a, b])
        XCTAssertEqual(r.status, 5, r.output)
        XCTAssertTrue(r.output.contains("⛔ incomparable — the runs differ in 3 ways"), r.output)
        for field in ["configuration.workload.name", "configuration.transport.streams", "environment.libcurl"] {
            XCTAssertTrue(r.output.contains("`\(field)`"), "\(field) named:\n\(r.output)")
        }
        // Environment differences alone are warnings with --allow-env-mismatch.
        let c = try write("c") { $0.environment.nghttp2 = "1.52.0" }
        XCTAssertEqual(try apnsbench(["compare", a, c]).status, 5)
        let allowed = try apnsbench(["compare", a, c, "--allow-env-mismatch"])
        XCTAssertEqual(allowed.status, 0, allowed.output)
        XCTAssertTrue(allowed.output.contains("environment differs (--allow-env-mismatch): environment.nghttp2: 1 vs 1.52.0"), allowed.output)
    }

    func testImprovementsOnlyExit4OnlyWhenAsked() throws {
        let a = try write("a") { $0.engine.connectionsOpened = 4 }
        let b = try write("b") { $0.engine.connectionsOpened = 2 }
        let lenient = try apnsbench(["compare", a, b])
        XCTAssertEqual(lenient.status, 0, lenient.output)
        XCTAssertTrue(lenient.output.contains("✅ no regression, improvements only"), lenient.output)
        let strict = try apnsbench(["compare", a, b, "--fail-on-improvement"])
        XCTAssertEqual(strict.status, 4, strict.output)
    }

    func testFoldersOfRepeatsUseTheStatistics() throws {
        for i in 1...3 {
            try write("base/run-\(i)")
            try write("new/run-\(i)")
        }
        let r = try apnsbench(["compare", folder.appendingPathComponent("base").path, folder.appendingPathComponent("new").path])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("3 baseline and 3 new runs: flagged when past both tolerances and the bootstrap 95% confidence interval"), r.output)
        XCTAssertTrue(r.output.contains("(3 runs)"), r.output)
    }

    func testBadInputExits1NamingThePath() throws {
        let a = try write("a")
        let empty = folder.appendingPathComponent("empty").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let r1 = try apnsbench(["compare", a, empty])
        XCTAssertEqual(r1.status, 1, r1.output)
        XCTAssertTrue(r1.output.contains("\(empty): a folder with no report.json"), r1.output)

        let bad = folder.appendingPathComponent("bad").path
        try FileManager.default.createDirectory(atPath: bad, withIntermediateDirectories: true)
        try "not json".write(toFile: bad + "/report.json", atomically: true, encoding: .utf8)
        let r2 = try apnsbench(["compare", bad, a])
        XCTAssertEqual(r2.status, 1, r2.output)
        XCTAssertTrue(r2.output.contains("report \(bad)/report.json: not a JSON report"), r2.output)

        let r3 = try apnsbench(["compare", a, folder.appendingPathComponent("nope").path])
        XCTAssertEqual(r3.status, 1, r3.output)
        XCTAssertTrue(r3.output.contains("nope: no such report or folder"), r3.output)
    }

    func testUsageErrorsExit64() throws {
        let a = try write("a")
        let r = try apnsbench(["compare", a, a, "--max-p99-regression", "ten"])
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertTrue(r.output.contains("--max-p99-regression must be a percentage such as 10%, found 'ten'"), r.output)
        XCTAssertEqual(try apnsbench(["compare", a]).status, 64)
        XCTAssertEqual(try apnsbench(["compare", a, a, "--format", "pdf"]).status, 64)
        // Written to a file: a large standard output through the test's pipe can lose its tail.
        let page = a + ".html"
        let html = try apnsbench(["compare", a, a, "--format", "html", "--out", page])
        XCTAssertEqual(html.status, 0, html.output)
        let text = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("<!DOCTYPE html>") && text.contains("id=\"spectrum\""), String(text.prefix(300)))
    }

    func testHelpListsCompareExitCodes() throws {
        let r = try apnsbench(["compare", "--help"])
        XCTAssertEqual(r.status, 0, r.output)
        for code in ["0   no regression", "1   bad input", "2   regression", "4   improvements only", "5   incomparable", "64  usage"] {
            XCTAssertTrue(r.output.contains(code), "lacks '\(code)':\n\(r.output)")
        }
        let top = try apnsbench(["--help"])
        XCTAssertTrue(top.output.contains("compare: 2 a regression, 4 improvements only"), top.output)
    }
}
