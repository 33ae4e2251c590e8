import Foundation
import TestSupport
import XCTest

/// The bounded wait every test's child process gets: output read while it runs, a hang killed and named.
final class ChildProcessTests: XCTestCase {
    func testALargeOutputIsReadWhileTheChildRunsAndWholeAfter() throws {
        // About 3.4 MB: far more than a pipe holds, so a wait that read only after the exit would never end.
        let r = try runChild("/usr/bin/seq", ["1", "500000"])
        XCTAssertEqual(r.status, 0)
        let lines = r.output.split(separator: "\n")
        XCTAssertEqual(lines.count, 500_000)
        XCTAssertEqual(lines.last, "500000", "the tail is not lost")
    }

    func testStandardErrorApartOrTogetherAndTheExitStatus() throws {
        let apart = try ChildProcess("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], separateErrors: true)
        XCTAssertEqual(try apart.wait(), 3)
        XCTAssertEqual(apart.output.text, "out\n")
        XCTAssertEqual(apart.errors?.text, "err\n")
        let together = try runChild("/bin/sh", ["-c", "echo out; echo err >&2"], environment: ["UNUSED": "1"])
        XCTAssertEqual(together.output.split(separator: "\n").sorted(), ["err", "out"])
        XCTAssertEqual(try runChild("/bin/sh", ["-c", "echo $CHILD_VALUE; pwd"], environment: ["CHILD_VALUE": "given"],
            directory: URL(fileURLWithPath: "/tmp")).output,
                       "given\n/tmp\n")
    }

    func testAChildPastItsBoundIsKilledAndNamedWithTheBound() throws {
        let child = try ChildProcess("/bin/sleep", ["600"])
        XCTAssertThrowsError(try child.wait(bound: 1)) { error in
            let timeout = error as? ChildProcessTimeout
            XCTAssertEqual(timeout?.command, "sleep 600")
            XCTAssertEqual(timeout?.killedWith, "SIGTERM")
            XCTAssertTrue("\(error)".hasPrefix("`sleep 600` did not exit within its bound of 1 s"), "\(error)")
        }
        XCTAssertFalse(child.isRunning, "killed")
    }

    func testAChildThatIgnoresSIGTERMGetsSIGKILL() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "trap '' TERM; echo trapped; while true; do sleep 1; done"])
        XCTAssertTrue(child.output.wait(timeout: 120) { $0.contains("trapped") }, child.output.text)
        // A grace of 1 s, not the default 10: the test waits it out whole.
        XCTAssertThrowsError(try child.wait(bound: 1, grace: 1)) { error in
            XCTAssertEqual((error as? ChildProcessTimeout)?.killedWith, "SIGTERM, then SIGKILL 1 s later")
            XCTAssertTrue("\(error)".contains("It printed:\ntrapped\n"), "\(error)")
        }
        XCTAssertFalse(child.isRunning, "killed")
    }
}
