import Foundation
import Reporting
import TestSupport
import XCTest

/// `apnsbench sweep` stopped by a signal, as a user presses Ctrl-C: the step under way is abandoned, the
/// steps measured are written (sweep.json, sweep.md, sweep.html), and the exit code says which signal.
final class SweepStopTests: XCTestCase {
    func testSIGINTAfterTwoStepsWritesThoseStepsAndExits130() throws {
        try stop(with: SIGINT, after: 2, expecting: 130)
    }

    func testSIGTERMAfterOneStepExits143() throws {
        try stop(with: SIGTERM, after: 1, expecting: 143)
    }

    private func stop(with signal: Int32, after steps: Int, expecting code: Int32, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try ScratchFolder.make("sweep-stop")
        defer { ScratchFolder.remove(dir) }
        let out = dir.appendingPathComponent("sweep")
        let sweep = try ChildProcess(APNsBenchProcess.binary(),
                                     ["sweep", RepoFiles.root.appendingPathComponent("profiles/leave-requests.yaml").path,
                                      "--rate", "20..400", "--search", "steps:8", "--step", "3s", "--cooldown", "0",
                                      "--out", out.path])
        let prefix = String(format: "step %02d", steps)
        XCTAssertTrue(sweep.output.wait(timeout: 240) { $0.contains { $0.hasPrefix(prefix) } }, sweep.output.text, file: file, line: line)
        sweep.send(signal)
        let status = try sweep.wait()
        XCTAssertEqual(status, code, sweep.output.text, file: file, line: line)

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("sweep.json"))) as? [String: Any])
        let measured = try XCTUnwrap(json["steps"] as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(measured.compactMap { $0["index"] as? Int }, Array(1...steps), file: file, line: line)
        let interrupted = json["interrupted"] as? String ?? ""
        XCTAssertTrue(interrupted.hasPrefix(signal == SIGINT ? "SIGINT" : "SIGTERM"), "\(json)", file: file, line: line)
        let md = try String(contentsOf: out.appendingPathComponent("sweep.md"), encoding: .utf8)
        XCTAssertTrue(md.contains("Stopped by a signal"), md, file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("sweep.html").path), file: file, line: line)
        // Each measured step's report is whole and checks.
        for s in measured {
            let report = try RunReport.load(from: ((s["directory"] as? String ?? "") as NSString).appendingPathComponent("report.json"))
            XCTAssertTrue(report.pushes.balanced, file: file, line: line)
        }
    }
}
