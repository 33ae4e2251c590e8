import Foundation
import TestSupport
import XCTest

/// `sweep --vary`: every value and every combination is checked before the first run, so a mistake is a
/// usage error (exit 64, as the setting's own flag gives) and nothing runs, nothing is written, nothing is sent.
final class SweepVaryRefusalTests: XCTestCase {
    /// `apnsbench sweep profiles/leave-requests.yaml ARGUMENTS --out DIR`, run from the repository; its exit
    /// status, its `Error:` line, and whether DIR was created.
    func sweep(_ arguments: [String]) throws -> (status: Int32, error: String, wroteOut: Bool, output: String) {
        let out = try ScratchFolder.make("vary", removedBy: addTeardownBlock).appendingPathComponent("out").path
        let r = try apnsbench(["sweep", "profiles/leave-requests.yaml"] + arguments + ["--rate", "50", "--cooldown", "0", "--out", out],
                              directory: RepoFiles.root)
        let error = r.output.split(separator: "\n").first { $0.hasPrefix("Error: ") }.map(String.init) ?? ""
        return (r.status, error, FileManager.default.fileExists(atPath: out), r.output)
    }

    func testAKeyGivenTwiceIsAUsageErrorBeforeAnyRun() throws {
        let r = try sweep(["--vary", "connections=1", "--vary", "connections=4"])
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertEqual(r.error, "Error: --vary connections is given twice (connections=1 and connections=4): give its values once, --vary connections=1,4")
        XCTAssertFalse(r.wroteOut, "nothing ran")
    }

    func testAValueOutOfRangeInAnyCombinationIsAUsageErrorBeforeTheFirstRun() throws {
        for (vary, message) in [
            ("connections=1,65", "Error: --vary connections=65: must be between 1 and 64, found 65"),
            ("streams=100,1001", "Error: --vary streams=1001: must be between 1 and 1000 (APNs allows up to about 1000), found 1001"),
        ] {
            let r = try sweep(["--vary", vary])
            XCTAssertEqual(r.status, 64, r.output)
            XCTAssertEqual(r.error, message)
            XCTAssertFalse(r.wroteOut, "\(vary): the first combination did not run")
            XCTAssertFalse(r.output.contains("matrix 1:"), r.output)
        }
    }

    func testAVaryValueItsSettingRefusesExitsAsTheFlagDoes() throws {
        let vary = try sweep(["--vary", "priority=7"])
        let flag = try sweep(["--vary", "connections=1", "--priority", "7"])
        XCTAssertEqual(vary.status, 64, vary.output)
        XCTAssertEqual(flag.status, 64, flag.output)
        XCTAssertEqual(vary.error, "Error: --vary priority=7: must be 1, 5 or 10, found '7'")
        XCTAssertEqual(flag.error, "Error: --priority must be 1, 5 or 10, found '7'")
        XCTAssertFalse(vary.wroteOut)
    }
}
