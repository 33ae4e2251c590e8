import APNsCore
import Foundation
import RunOptions
import TestSupport
import XCTest

/// `run` and `sweep` share their run settings: each shared option reads the same in both `--help`s, and
/// sweep takes where to send and with which key.
final class SharedOptionsHelpTests: XCTestCase {
    /// Each option of a `--help` text with its help, lines joined.
    func options(_ help: String) -> [String: String] {
        var found: [String: String] = [:], name: String?
        for line in help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("  --"), let flag = line.dropFirst(2).split(separator: " ").first {
                name = String(flag)
                found[name!] = String(line.dropFirst(2 + flag.count)).trimmingCharacters(in: .whitespaces)
            } else if let n = name, line.hasPrefix("   ") {
                found[n]! += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                name = nil
            }
        }
        return found
    }

    func testSharedOptionsReadTheSameInRunAndSweep() throws {
        let run = try apnsbench(["run", "--help"]), sweep = try apnsbench(["sweep", "--help"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(sweep.status, 0, sweep.output)
        let r = options(run.output), s = options(sweep.output)
        for flag in ["--target", "--ca-cert", "--key-path", "--key-id", "--team-id"] {
            XCTAssertNotNil(s[flag], "sweep --help lists \(flag)")
        }
        // Sweep's own --rate and --speed (LOW..HIGH, or one value with --vary) and --out (a folder of runs)
        // share a name, not a meaning.
        let shared = Set(r.keys).intersection(s.keys).subtracting(["--rate", "--speed", "--out"])
        XCTAssertGreaterThanOrEqual(shared.count, 25, "\(shared.sorted())")
        for flag in shared.sorted() { XCTAssertEqual(r[flag], s[flag], flag) }
        // Every flag of the table is one of run's.
        for flag in RunSettingFlags.name.values.sorted() { XCTAssertNotNil(r[flag], "run --help lists \(flag)") }
        // Enumerated options list their values.
        XCTAssertTrue(r["--delivery"]?.contains("values: device, broadcast") ?? false, r["--delivery"] ?? "")
        XCTAssertTrue(r["--apns-model"]?.contains("values: near, far, overloaded, FILE") ?? false, r["--apns-model"] ?? "")
        XCTAssertTrue(s["--search"]?.contains("values: exponential, binary, steps:N") ?? false, s["--search"] ?? "")
    }

    func testSweepRefusesWhatItWouldOtherwiseIgnore() throws {
        let r = try apnsbench(["sweep", "profiles/leave-requests.yaml", "--vary", "connections=1,2", "--no-loop"])
        XCTAssertEqual(r.status, 64, r.output)
        XCTAssertTrue(r.output.contains("--no-loop goes with the knee search"), r.output)
        let s = try apnsbench(["sweep", "profiles/leave-requests.yaml", "--rate", "10..20", "--search", "steps:1"])
        XCTAssertEqual(s.status, 64, s.output)
        for (args, message) in [
            (["--speed", "2"], "--speed '2' must be LOW..HIGH recorded-pace multiples"),
            (["--speed", "1..10", "--rate", "10..20"], "choose one of --rate LOW..HIGH (fixed rates) and --speed LOW..HIGH"),
            (["--rate", "10..20", "--repeats", "11"], "--repeats 11 must be between 0 and 10"),
            (["--rate", "10..20", "--peak", "0"], "--peak 0.0 must be a rate above 0"),
            (["--vary", "connections=1,2", "--speed", "1..2"], "--speed '1..2' with --vary must be one multiple X"),
        ] {
            let refused = try apnsbench(["sweep", "profiles/leave-requests.yaml"] + args)
            XCTAssertEqual(refused.status, 64, refused.output)
            XCTAssertTrue(refused.output.contains(message), "\(args): \(refused.output)")
        }
    }
}
