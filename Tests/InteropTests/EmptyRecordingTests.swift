import Foundation
import TestSupport
import XCTest

/// A recording that holds no event (no line at all, or every line bad) is refused before the run, naming the
/// file, as `recipe init` refuses it: a run over it would send nothing and say so only in an empty report.
final class EmptyRecordingTests: XCTestCase {
    /// `apnsbench run` over a profile whose stream is `stream`: its status, its `Error:` line, the paths.
    func run(stream: String) throws -> (status: Int32, error: String, profile: String, stream: String, wroteOut: Bool, output: String) {
        let dir = try ScratchFolder.make("empty-recording", removedBy: addTeardownBlock)
        let streamPath = dir.appendingPathComponent("s.ndjson").path
        try stream.write(toFile: streamPath, atomically: true, encoding: .utf8)
        let profile = dir.appendingPathComponent("p.yaml").path
        try "name: t\nworkload: leave-requests\nstream: s.ndjson\nrecipe: \(RepoFiles.recipe("leave-requests"))\nbundle_id: com.x\n"
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out").path
        let r = try apnsbench(["run", profile, "--out", out], directory: RepoFiles.root)
        let error = r.output.split(separator: "\n").first { $0.hasPrefix("Error: ") }.map(String.init) ?? ""
        return (r.status, error, profile, streamPath, FileManager.default.fileExists(atPath: out), r.output)
    }

    func testAnEmptyRecordingIsBadInputNamingTheFileBeforeTheRun() throws {
        for text in ["", "\n  \n"] {
            let r = try run(stream: text)
            XCTAssertEqual(r.status, 1, r.output)
            XCTAssertEqual(r.error, "Error: \(r.stream): the recording has no line: nothing to replay (the stream of \(r.profile))")
            XCTAssertFalse(r.wroteOut, "nothing ran")
        }
    }

    func testARecordingWhoseEveryLineIsBadIsBadInputNamingTheFileAndTheFirstCause() throws {
        let r = try run(stream: "{\"at\": oops}\n{\"a\":1}\n")
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertEqual(r.error, "Error: \(r.stream): no line of the recording is an event: all 2 lines are bad (first: line 1: "
            + "not JSON (expected a value at byte 8)): nothing to replay (the stream of \(r.profile))")
        XCTAssertFalse(r.wroteOut, "nothing ran")
    }
}
