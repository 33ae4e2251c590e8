import Foundation
import Reporting
import TestSupport
import XCTest

/// The exit codes are part of the interface: `apnsbench` run as a user runs it, each code checked with
/// the message that names the cause.
final class ExitCodeTests: XCTestCase {
    func testAFlagOutOfRangeIsAUsageErrorNamingTheFlag() throws {
        let out = try ScratchFolder.make("exit", removedBy: addTeardownBlock).appendingPathComponent("out").path
        let r = try apnsbench(["run", "--connections", "65", "--out", out], directory: RepoFiles.root)
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertTrue(r.output.contains("--connections must be between 1 and 64, found 65"), r.output)
        XCTAssertTrue(r.output.contains("Usage: apnsbench run"), r.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing ran")
        let conflict = try apnsbench(["run", "--rate", "10", "--speed", "2", "--out", out], directory: RepoFiles.root)
        XCTAssertEqual(conflict.status, 64, conflict.output)
        XCTAssertTrue(conflict.output.contains("choose one of --speed, --rate, --ramp and --closed-loop"), conflict.output)
    }

    func testProductionAtAnUnboundedRateIsRefusedBeforeAnythingRuns() throws {
        let out = try ScratchFolder.make("exit", removedBy: addTeardownBlock).appendingPathComponent("out").path
        let r = try apnsbench(["run", "--target", "production", "--out", out], directory: RepoFiles.root)
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertTrue(r.output.contains("--allow-production-load is needed to send to production APNs faster than 100 pushes/s"), r.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing ran")
    }

    func testABadProfileValueIsBadInputNamingFileLineAndKey() throws {
        let dir = try ScratchFolder.make("exit")
        defer { ScratchFolder.remove(dir) }
        let profile = dir.appendingPathComponent("bad.yaml").path
        try "name: t\nworkload: leave-requests\nstream: s.ndjson\nrecipe: \(RepoFiles.recipe("leave-requests"))\nbundle_id: com.x\nstreams: 5000\n"
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let r = try apnsbench(["run", profile, "--out", dir.appendingPathComponent("out").path], directory: RepoFiles.root)
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.output.contains("bad.yaml:6: 'streams' must be between 1 and 1000"), r.output)
    }

    /// `--version` names apnsbench's release and the transport libraries loaded, the ones a report records.
    func testVersionNamesLibcurlNghttp2AndTheTLSLibrary() throws {
        let r = try apnsbench(["--version"])
        XCTAssertEqual(r.status, 0, r.output)
        let lines = r.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.map { $0.split(separator: " ").first.map(String.init) ?? "" }, ["apnsbench", "libcurl", "nghttp2", "TLS"], r.output)
        XCTAssertTrue(lines[1].hasPrefix("libcurl 8."), r.output)
        XCTAssertTrue(lines[2].range(of: #"^nghttp2 \d+\.\d+"#, options: .regularExpression) != nil, r.output)
        XCTAssertTrue(lines[3].hasPrefix("TLS OpenSSL "), r.output)
    }

    /// A report's generator is the release `--version` names: one version string everywhere.
    func testAReportsGeneratorVersionIsTheVersionPrinted() throws {
        let r = try apnsbench(["--version"])
        XCTAssertEqual(r.status, 0, r.output)
        let printed = r.output.split(separator: "\n").first.map(String.init)
        XCTAssertEqual(printed, "apnsbench \(RunReport.Generator().version)", r.output)
    }

    func testHelpListsEveryExitCode() throws {
        for arguments in [["--help"], ["run", "--help"]] {
            let r = try apnsbench(arguments)
            XCTAssertEqual(r.status, 0, r.output)
            for code in ["0   done", "1   bad input or setup failure", "3   run stopped at a bad stream line", "64  usage", "99  the run completed",
                         "130 run stopped by SIGINT"] {
                XCTAssertTrue(r.output.contains(code), "\(arguments) lacks '\(code)':\n\(r.output)")
            }
        }
    }

    /// A copy of the leave-requests profile (absolute paths) with `extra` lines appended; with `template`
    /// (relative to profiles/), the shipped recipe copied into `dir` with that template instead of its own.
    func profile(in dir: URL, extra: String, template: String? = nil) throws -> String {
        let profiles = RepoFiles.root.appendingPathComponent("profiles").path
        let path = dir.appendingPathComponent("slo.yaml").path
        var recipe = RepoFiles.recipe("leave-requests")
        if let template {
            recipe = dir.appendingPathComponent("leave-requests.yaml").path
            try String(contentsOfFile: RepoFiles.recipe("leave-requests"), encoding: .utf8)
                .replacingOccurrences(of: "template: ../templates/leave-requests.json", with: "template: \(profiles)/\(template)")
                .write(toFile: recipe, atomically: true, encoding: .utf8)
        }
        try """
            name: slo
            workload: leave-requests
            stream: \(profiles)/streams/leave-requests.ndjson
            recipe: \(recipe)
            bundle_id: com.example.leaverequests
            \(extra)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testAMissedSLOExits99WithItsCrossLineAfterTheReportIsWritten() throws {
        let dir = try ScratchFolder.make("exit")
        defer { ScratchFolder.remove(dir) }
        let out = dir.appendingPathComponent("out").path
        let junit = dir.appendingPathComponent("slo.xml").path
        let missed = try apnsbench(["run", try profile(in: dir, extra: "slo_p99: 1ms\nslo_max_error_share: {rejected: 1}"), "--out", out, "--junit", junit],
                                   directory: RepoFiles.root)
        XCTAssertEqual(missed.status, 99, missed.output)
        // The SLO as JUnit: one testcase per rule, the missed one failing, valid to the JUnit schema's rules.
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        XCTAssertEqual(xml.components(separatedBy: "<testcase ").count - 1, 2, xml)
        XCTAssertTrue(xml.contains("<testsuites name=\"apnsbench slo\" tests=\"2\" failures=\"1\""), xml)
        XCTAssertTrue(xml.contains("name=\"p99 response time (from the intended send) ≤ 1 ms\">\n      <failure type=\"slo-missed\""), xml)
        let check = try runChild(URL(fileURLWithPath: "/usr/bin/env"), ["python3", RepoFiles.root.path + "/scripts/check-junit.py", junit])
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertTrue(check.output.contains("(2 testcases, 1 failures)"), check.output)
        XCTAssertTrue(missed.output.contains("✗ p99 response time (from the intended send): "), missed.output)
        XCTAssertTrue(missed.output.contains("target ≤ 1 ms (at most)"), missed.output)
        XCTAssertTrue(missed.output.contains("✓ rejected share of pushes owed ("), missed.output)
        for file in ["report.json", "summary.md", "latency.hlog"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/" + file), "\(file) written before the exit")
        }
        // The same run with the rule met exits 0; a flag overrides the profile's rule.
        let met = try apnsbench(["run", try profile(in: dir, extra: "slo_p99: 1ms"), "--slo-p99", "1h", "--out", out, "--force", "--quiet"],
            directory: RepoFiles.root)
        XCTAssertEqual(met.status, 0, met.output)
        XCTAssertTrue(met.output.contains("✓ p99 response time"), met.output)
        XCTAssertFalse(met.output.contains("apnsbench: replaying"), "--quiet drops the start line: \(met.output)")
    }

    /// Pushes APNs delivers that the device would not decode miss `slo_max_would_not_decode` (exit 99, the
    /// report written); the fixed template meets it; a model the checker cannot read is bad input (exit 1).
    func testWouldNotDecodeMissesItsSLOWithExit99AndABadModelIsBadInput() throws {
        let dir = try ScratchFolder.make("exit")
        defer { ScratchFolder.remove(dir) }
        let out = dir.appendingPathComponent("out").path
        let model = "activity_model: \(RepoFiles.root.path)/profiles/models/LeaveRequestAttributes.swift\nslo_max_would_not_decode: 0"
        let iso = try profile(in: dir, extra: model, template: "examples/templates/leave-requests-iso-dates.json")
        let missed = try apnsbench(["run", iso, "--out", out], directory: RepoFiles.root)
        XCTAssertEqual(missed.status, 99, missed.output)
        XCTAssertTrue(missed.output.contains("✗ delivered pushes the device would not decode: 100.00 % ("), missed.output)
        XCTAssertTrue(missed.output.contains("target ≤ 0.00 % (at most)"), missed.output)
        XCTAssertTrue(missed.output.contains("↳ would not decode on device"), missed.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/report.json"), "written before the exit")
        // A flag overrides the profile's rule; the fixed template meets it.
        let allowed = try apnsbench(["run", iso, "--slo-max-would-not-decode", "1", "--out", out, "--force", "--quiet"], directory: RepoFiles.root)
        XCTAssertEqual(allowed.status, 0, allowed.output)
        let fixed = try apnsbench(["run", try profile(in: dir, extra: model), "--out", out, "--force", "--quiet"], directory: RepoFiles.root)
        XCTAssertEqual(fixed.status, 0, fixed.output)
        XCTAssertTrue(fixed.output.contains("✓ delivered pushes the device would not decode: 0.00 % (0)"), fixed.output)

        // A model file the reader cannot read (an operator declaration at file level) stops the run before it starts.
        try "struct A: ActivityAttributes {\n    public struct ContentState: Codable, Hashable {\n        var s: Int\n    }\n}\ninfix operator <=>\n"
            .write(to: dir.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        let bad = try apnsbench(["run", try profile(in: dir, extra: "activity_model: A.swift"), "--out", out + "-bad"], directory: RepoFiles.root)
        XCTAssertEqual(bad.status, 1, bad.output)
        XCTAssertTrue(bad.output.contains("A.swift:6: expected a declaration, found 'infix'"), bad.output)
        XCTAssertTrue(bad.output.contains("slo.yaml:6 names in 'activity_model'"), bad.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "-bad"), "nothing ran")
    }

    func testAnUnknownSLOKeyOrClassIsBadInputNamingIt() throws {
        let dir = try ScratchFolder.make("exit")
        defer { ScratchFolder.remove(dir) }
        let out = dir.appendingPathComponent("out").path
        let key = try apnsbench(["run", try profile(in: dir, extra: "slo_p95_ms: 3"), "--out", out], directory: RepoFiles.root)
        XCTAssertEqual(key.status, 1, key.output)
        XCTAssertTrue(key.output.contains("slo.yaml:6: unknown key 'slo_p95_ms'"), key.output)
        let errorClass = try apnsbench(["run", try profile(in: dir, extra: "slo_max_error_share: {throttled: 0.1}"), "--out", out], directory: RepoFiles.root)
        XCTAssertEqual(errorClass.status, 1, errorClass.output)
        XCTAssertTrue(errorClass.output.contains("'slo_max_error_share' has an unknown class 'throttled'"), errorClass.output)
        let flag = try apnsbench(["run", try profile(in: dir, extra: ""), "--slo-max-error-share", "failed=2", "--out", out], directory: RepoFiles.root)
        XCTAssertEqual(flag.status, 64, flag.output)
        XCTAssertTrue(flag.output.contains("--slo-max-error-share failed must be a share between 0 and 1, found 2.0"), flag.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing ran")
    }

    /// Starts `apnsbench run` slowly (20 pushes a second), signals it with `send` once it has started, and
    /// waits for it.
    func interruptedRun(_ send: (ChildProcess) -> Void) throws -> (status: Int32, output: String, report: [String: Any]) {
        let dir = try ScratchFolder.make("exit")
        defer { ScratchFolder.remove(dir) }
        let out = dir.appendingPathComponent("out").path
        let run = try ChildProcess(APNsBenchProcess.binary(),
                                   ["run", try profile(in: dir, extra: ""), "--rate", "20", "--out", out])
        // Wait for the start line: the run is under way (the signal handlers are in place before it).
        guard run.output.wait(timeout: 120, until: { $0.contains { $0.contains("apnsbench: replaying") } }) else {
            _ = try? run.stop()
            throw InteropError("`\(run.command)` did not print its start line within 120 s; it printed:\n\(run.output.text)")
        }
        usleep(500_000)
        send(run)
        let status = try run.wait()
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (status, run.output.text, report)
    }

    func testSIGINTStopsGracefullyWritesABalancedReportAndExits130() throws {
        let r = try interruptedRun { $0.interrupt() }
        XCTAssertEqual(r.status, 130, r.output)
        XCTAssertTrue(r.output.contains("apnsbench: SIGINT: stopping"), r.output)
        let pushes = try XCTUnwrap(r.report["pushes"] as? [String: Any])
        XCTAssertEqual(pushes["balanced"] as? Bool, true, "\(pushes)")
        let notSent = try XCTUnwrap(pushes["notSent"] as? [String: Int])
        XCTAssertGreaterThan(notSent["interrupted"] ?? 0, 0, "what the signal kept from being sent: \(pushes)")
        XCTAssertGreaterThan(pushes["delivered"] as? Int ?? 0, 0, "what was sent before it")
    }

    func testSIGTERMDoesTheSameAndExits143() throws {
        let r = try interruptedRun { $0.terminate() }
        XCTAssertEqual(r.status, 143, r.output)
        let pushes = try XCTUnwrap(r.report["pushes"] as? [String: Any])
        XCTAssertEqual(pushes["balanced"] as? Bool, true, "\(pushes)")
    }

    func testSimulateStopsOnSIGINTPrintingItsCountersWithExit0() throws {
        let simulator = try SimulateProcess()
        defer { _ = simulator.stop() }
        simulator.child.interrupt()
        XCTAssertEqual(try simulator.child.wait(), 0, simulator.child.output.text)
        XCTAssertTrue(simulator.child.output.text.contains("apnsbench simulate: stopped\n"), simulator.child.output.text)
        XCTAssertFalse(simulator.child.output.text.contains("apnsbench: SIGINT"), "the simulator says it stopped, not how: \(simulator.child.output.text)")
    }

    func testAnUnreachableTargetFailsFastNamingHostPortAndCauseWithAReport() throws {
        let dir = try ScratchFolder.make("exit")
        defer { ScratchFolder.remove(dir) }
        let out = dir.appendingPathComponent("out").path
        // Nothing listens on port 1; the simulator's demo key signs (it is never checked: nothing answers).
        let r = try apnsbench(["run", try profile(in: dir, extra: "fail_fast: 1s"), "--target", "https://127.0.0.1:1", "--out", out,
                               "--key-path", try demoKey(in: dir), "--key-id", "DEMOKEY001", "--team-id", "DEMOTEAM01"], directory: RepoFiles.root)
        XCTAssertEqual(r.status, 1, r.output)
        XCTAssertTrue(r.output.contains("cannot reach 127.0.0.1 port 1: "), r.output)
        XCTAssertTrue(r.output.contains("no request was answered in 1 s of trying"), r.output)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any])
        XCTAssertTrue((report["stopReason"] as? String)?.hasPrefix("cannot reach 127.0.0.1 port 1") == true, "\(report["stopReason"] ?? "none")")
        XCTAssertEqual((report["pushes"] as? [String: Any])?["balanced"] as? Bool, true)
    }

    /// A throwaway P-256 key in .p8 (PKCS#8 PEM) form, in `dir` (the test's own folder).
    func demoKey(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("AuthKey_DEMOKEY001.p8").path
        // Made by Python's cryptography, so apnsbench reads a .p8 it did not write.
        let pem = try XCTUnwrap(try ES256Oracle.sign([], pem: "pkcs8").key.pem)
        try pem.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
