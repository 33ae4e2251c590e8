import Foundation
import Reporting
import TestSupport
import XCTest

/// `compare --differ-on PATH`: a path that is no field of the reports' configuration is a usage error.
final class CompareDifferOnTests: XCTestCase {
    func testAMisspeltPathIsRefusedWithCompareUsage() throws {
        let folder = try ScratchFolder.make("differ-on", removedBy: addTeardownBlock)
        let a = folder.appendingPathComponent("a").path, b = folder.appendingPathComponent("b").path
        _ = try ReportWriter.write(HdrHistogramInteropTests.makeReport(), to: a)
        _ = try ReportWriter.write(HdrHistogramInteropTests.makeReport(), to: b)
        let r = try apnsbench(["compare", a, b, "--differ-on", "configuration.payload.priorty"])
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertEqual(r.output.split(separator: "\n").map(String.init), [
            "Error: --differ-on: 'configuration.payload.priorty' is not a field of report.json's configuration; did you mean "
                + "'configuration.payload.priority'? (configuration.payload has collapseID, expirationSeconds, priority, priorityOverride)",
            "Usage: apnsbench compare [<options>] <BASELINE> <NEW>",
            "  See 'apnsbench compare --help' for more information.",
        ])
        let fine = try apnsbench(["compare", a, b, "--differ-on", "configuration.payload.priority"])
        XCTAssertEqual(fine.status, 0, fine.output)
    }
}
