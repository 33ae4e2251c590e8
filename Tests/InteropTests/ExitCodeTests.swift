import Foundation
import XCTest

/// The exit codes are part of the interface: `apnsbench` run as a user runs it, each code checked with
/// the message that names the cause.
final class ExitCodeTests: XCTestCase {
    func apnsbench(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = try SimulateProcess.binary(file: #filePath, line: #line)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testAFlagOutOfRangeIsAUsageErrorNamingTheFlag() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("exit-\(UUID().uuidString)").path
        let r = try apnsbench(["run", "--connections", "65", "--out", out])
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertTrue(r.output.contains("--connections must be between 1 and 64, found 65"), r.output)
        XCTAssertTrue(r.output.contains("Usage: apnsbench run"), r.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing ran")
        let conflict = try apnsbench(["run", "--rate", "10", "--speed", "2", "--out", out])
        XCTAssertEqual(conflict.status, 64, conflict.output)
        XCTAssertTrue(conflict.output.contains("choose one of --speed, --rate, --ramp and --closed-loop"), conflict.output)
    }

    func testABadProfileValueIsBadInputNamingFileLineAndKey() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("exit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let profile = dir.appendingPathComponent("bad.yaml").path
        try "name: t\nworkload: leave-requests\nstream: s.ndjson\ntemplate: t.json\nbundle_id: com.x\nstreams: 5000\n"
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let r = try apnsbench(["run", profile, "--out", dir.appendingPathComponent("out").path])
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.output.contains("bad.yaml:6: 'streams' must be between 1 and 1000"), r.output)
    }

    func testHelpListsEveryExitCode() throws {
        for arguments in [["--help"], ["run", "--help"]] {
            let r = try apnsbench(arguments)
            XCTAssertEqual(r.status, 0, r.output)
            for code in ["0   done", "1   bad input or setup failure", "3   run stopped at a bad stream line", "64  usage"] {
                XCTAssertTrue(r.output.contains(code), "\(arguments) lacks '\(code)':\n\(r.output)")
            }
        }
    }
}
