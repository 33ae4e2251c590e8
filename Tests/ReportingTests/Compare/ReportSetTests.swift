import Foundation
import XCTest
@testable import Reporting

/// A side of a comparison: one report.json, or a folder of runs (directly in it or one level down).
final class ReportSetTests: XCTestCase {
    func testAFolderOfRunsOneLevelDownSortedAndAFileAlone() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for run in ["run-2", "run-1", "run-3"] { _ = try ReportWriter.write(CompareFixtures.base, to: dir + "/" + run) }
        try FileManager.default.createDirectory(atPath: dir + "/notes", withIntermediateDirectories: true)
        let runs = try ReportSet.load(dir)
        XCTAssertEqual(runs.map(\.path), ["run-1", "run-2", "run-3"].map { "\(dir)/\($0)/report.json" })
        XCTAssertEqual(runs.map(\.schemaVersion), [2, 2, 2])
        XCTAssertEqual(runs.first?.report, CompareFixtures.base)
        XCTAssertEqual(try ReportSet.load(dir + "/run-2/report.json").count, 1)
        XCTAssertEqual(try ReportSet.files(dir + "/run-2"), [dir + "/run-2/report.json"])
    }

    func testASchemaOneReportKeepsItsVersion() throws {
        let v1 = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/v1-order-changes.report.json").path
        XCTAssertEqual(try ReportSet.load(v1).first?.schemaVersion, 1)
    }

    func testAnEmptyFolderAMissingPathAndABadFileAreNamed() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertThrowsError(try ReportSet.load(dir)) { XCTAssertEqual($0 as? ReportSetError, .emptyFolder(path: dir)) }
        XCTAssertThrowsError(try ReportSet.load(dir + "/nope")) { XCTAssertEqual($0 as? ReportSetError, .missing(path: dir + "/nope")) }
        try FileManager.default.createDirectory(atPath: dir + "/r", withIntermediateDirectories: true)
        try "{}".write(toFile: dir + "/r/report.json", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ReportSet.load(dir)) { error in
            XCTAssertTrue(String(describing: error).contains("\(dir)/r/report.json"), "\(error)")
        }
    }
}
