import Foundation
import TestSupport
import XCTest
@testable import Reporting

/// A side of a comparison: one report.json, or a folder of runs (directly in it or one level down).
final class ReportSetTests: XCTestCase {
    func testAFolderOfRunsOneLevelDownSortedAndAFileAlone() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        for run in ["run-2", "run-1", "run-3"] { _ = try ReportWriter.write(CompareFixtures.base, to: dir + "/" + run) }
        try FileManager.default.createDirectory(atPath: dir + "/notes", withIntermediateDirectories: true)
        let runs = try ReportSet.load(dir)
        XCTAssertEqual(runs.map(\.path), ["run-1", "run-2", "run-3"].map { "\(dir)/\($0)/report.json" })
        XCTAssertEqual(runs.map(\.schemaVersion), [2, 2, 2])
        XCTAssertEqual(runs.first?.report, CompareFixtures.base)
        XCTAssertEqual(try ReportSet.load(dir + "/run-2/report.json").count, 1)
        XCTAssertEqual(try ReportFiles.expand(dir + "/run-2"), [dir + "/run-2/report.json"])
    }

    func testASchemaOneReportKeepsItsVersion() throws {
        let v1 = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/v1-order-changes.report.json").path
        XCTAssertEqual(try ReportSet.load(v1).first?.schemaVersion, 1)
    }

    func testAnEmptyFolderAMissingPathAndABadFileAreNamed() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        XCTAssertThrowsError(try ReportSet.load(dir)) { XCTAssertEqual($0 as? ReportSetError, .emptyFolder(path: dir)) }
        XCTAssertThrowsError(try ReportSet.load(dir + "/nope")) { XCTAssertEqual($0 as? ReportSetError, .missing(path: dir + "/nope")) }
        try FileManager.default.createDirectory(atPath: dir + "/r", withIntermediateDirectories: true)
        try "{}".write(toFile: dir + "/r/report.json", atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try ReportSet.load(dir)) { error in
            XCTAssertTrue(String(describing: error).contains("\(dir)/r/report.json"), "\(error)")
        }
    }

    func testOneRuleForFoldersAFolderWithItsOwnReportStandsForItAlone() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        for run in ["b", "a", "out"] { _ = try ReportWriter.write(CompareFixtures.base, to: dir + "/" + run) }
        XCTAssertEqual(try ReportFiles.expand(dir), ["a", "b", "out"].map { "\(dir)/\($0)/report.json" })
        XCTAssertEqual(try ReportFiles.expand(dir, excluding: dir + "/./out"), ["a", "b"].map { "\(dir)/\($0)/report.json" })
        XCTAssertEqual(try ReportFiles.expand([dir + "/b", dir + "/a/report.json"]), [dir + "/b/report.json", dir + "/a/report.json"])
        _ = try ReportWriter.write(CompareFixtures.base, to: dir)
        XCTAssertEqual(try ReportFiles.expand(dir), [dir + "/report.json"], "a run's folder: its own report, not its subfolders'")
    }
}

/// `compare --exact-counts`: every differing count of pushes and events, and the dead-token split summed.
final class ExactCountsTests: XCTestCase {
    func testIdenticalReportsHaveNoDifferenceAndEachEditedCountIsNamed() throws {
        let base = CompareFixtures.base
        XCTAssertEqual(try ExactCounts.differences(baseline: base, new: base), [])
        var other = base
        other.pushes.delivered -= 1
        other.pushes.timedOut += 1
        other.events.byKind["new.kind"] = 0
        XCTAssertEqual(try ExactCounts.differences(baseline: base, new: other), [
            .init(field: "events.byKind.new.kind", baseline: "absent", new: "0"),
            .init(field: "pushes.delivered", baseline: "\(base.pushes.delivered)", new: "\(base.pushes.delivered - 1)"),
            .init(field: "pushes.timedOut", baseline: "\(base.pushes.timedOut)", new: "\(base.pushes.timedOut + 1)"),
        ])
    }

    func testTheDeadTokenSplitIsComparedAsOneCountWhenAsked() throws {
        var a = CompareFixtures.base
        a.pushes.notSent["dead_token"] = 3
        a.pushes.rejected["Unregistered"] = .init(status: 410, count: 2)
        var b = a
        b.pushes.notSent["dead_token"] = 1
        b.pushes.rejected["Unregistered"] = .init(status: 410, count: 4)
        XCTAssertEqual(try ExactCounts.differences(baseline: a, new: b).map(\.field),
                       ["pushes.notSent.dead_token", "pushes.rejected.Unregistered.count"])
        XCTAssertEqual(try ExactCounts.differences(baseline: a, new: b, deadTokenSplit: true), [])
        b.pushes.notSent["dead_token"] = 2
        XCTAssertEqual(try ExactCounts.differences(baseline: a, new: b, deadTokenSplit: true),
                       [.init(field: "pushes.deadTokenPushes", baseline: "5", new: "6")])
    }
}
