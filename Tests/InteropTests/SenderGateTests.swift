import Foundation
import TestSupport
import XCTest

/// The gate on what a sender that is not apnsbench controls (Peers/h2_sender.py, on PyPI's h2), each run
/// against its own `apnsbench simulate --report`: an honest repeat compares with exit 0; every alert demoted
/// from priority 10 to 5 exits 2 naming the classes; a simulator with another latency model is refused
/// (exit 5) naming its keys, unless `--differ-on model` lets it differ.
final class SenderGateTests: XCTestCase {
    static let sender = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers/h2_sender.py").path

    /// A simulator configuration answering after `latencyMillis`, with the device model on.
    func configuration(in folder: URL, name: String, latencyMillis: Int) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try "faults: { latency: { fixed: \(latencyMillis)ms } }\ndevice: {}\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// 200 pushes from the Python sender (alerts at `alertPriority`, Live Activity updates at 10, each with
    /// apns-expiration and a collapse id) into a simulator's report at `report`; the report folder.
    func send(into report: String, config: String, alertPriority: Int) throws -> String {
        let sim = try SimulateProcess(arguments: ["--h2c", "--config", config, "--report", report, "--control-listen", "127.0.0.1:0"])
        addTeardownBlock { _ = sim.stop() }
        let env = ["BEARER": String(sim.bearer.dropFirst("bearer ".count)), "ALERT_PRIORITY": String(alertPriority),
                   "EXPIRATION": "4102444800", "COLLAPSE_ID": "order-%d"]
        let sent = try runChild("/usr/bin/env", ["python3", Self.sender, sim.host, String(sim.port), "200", "2"], environment: env)
        XCTAssertEqual(sent.status, 0, sent.output)
        let control = try XCTUnwrap(sim.child.output.all.first { $0.hasPrefix("control: ") }.map { String($0.dropFirst(9)) })
        let post = try runChild("/usr/bin/env", ["python3", "-c", "import sys, urllib.request; "
            + "print(urllib.request.urlopen(urllib.request.Request(sys.argv[1], method='POST')).status)", control])
        XCTAssertEqual(post.output.trimmingCharacters(in: .whitespacesAndNewlines), "202", post.output)
        XCTAssertEqual(try sim.child.wait(bound: 60), 0, sim.child.output.text)
        return report
    }

    /// The line of `output` whose first cell is `metric`.
    func row(_ metric: String, in output: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.hasPrefix("| \(metric) |") }
    }

    func testAPythonSendersPriorityDemotionExitsTwoNamingItsRowsAndAnHonestRepeatExitsZero() throws {
        let probe = try runChild("/usr/bin/env", ["python3", "-c", "import h2"])
        guard probe.status == 0 else { throw InteropError("the Python package h2 is not installed: run scripts/install-deps.sh --test") }
        let dir = try ScratchFolder.make("sendergate", removedBy: addTeardownBlock)
        let config = try configuration(in: dir, name: "sim.yaml", latencyMillis: 1)
        let honest = try send(into: dir.appendingPathComponent("honest").path, config: config, alertPriority: 10)
        let again = try send(into: dir.appendingPathComponent("again").path, config: config, alertPriority: 10)
        let demoted = try send(into: dir.appendingPathComponent("demoted").path, config: config, alertPriority: 5)

        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: honest + "/report.json"))) as? [String: Any])
        let sends = try XCTUnwrap(report["sends"] as? [String: Any], "the report counts what the sender sent")
        XCTAssertEqual(sends["total"] as? Int, 200)
        XCTAssertEqual(sends["withExpiration"] as? Int, 200)
        XCTAssertEqual(sends["withCollapseID"] as? Int, 200)
        XCTAssertEqual(sends["distinctCollapseIDs"] as? Int, 200)

        let same = try apnsbench(["compare", honest, again, "--format", "md"])
        XCTAssertEqual(same.status, 0, same.output)
        XCTAssertEqual(row("sent alert com.example.interop priority 10", in: same.output),
                       "| sent alert com.example.interop priority 10 | 100 | 100 | 0 | 0.0% | unchanged |  |", same.output)

        let changed = try apnsbench(["compare", honest, demoted, "--format", "md"])
        XCTAssertEqual(changed.status, 2, changed.output)
        XCTAssertEqual(row("sent alert com.example.interop priority 10", in: changed.output),
                       "| sent alert com.example.interop priority 10 | 100 | 0 | -100 | -100.0% | ❌ regression (gone: not sent any more) |  |",
                       changed.output)
        XCTAssertEqual(row("sent alert com.example.interop priority 5", in: changed.output),
                       "| sent alert com.example.interop priority 5 | 0 | 100 | +100 | new | ❌ regression (new: not sent before) |  |", changed.output)
    }

    func testASimulatorWithAnotherLatencyModelIsRefusedNamingItsKeysUnlessDifferOnModel() throws {
        let probe = try runChild("/usr/bin/env", ["python3", "-c", "import h2"])
        guard probe.status == 0 else { throw InteropError("the Python package h2 is not installed: run scripts/install-deps.sh --test") }
        let dir = try ScratchFolder.make("sendergate", removedBy: addTeardownBlock)
        let fast = try send(into: dir.appendingPathComponent("fast").path, config: try configuration(in: dir, name: "a.yaml", latencyMillis: 1),
                            alertPriority: 10)
        let slow = try send(into: dir.appendingPathComponent("slow").path, config: try configuration(in: dir, name: "b.yaml", latencyMillis: 4),
                            alertPriority: 10)
        let refused = try apnsbench(["compare", fast, slow, "--format", "md"])
        XCTAssertEqual(refused.status, 5, refused.output)
        XCTAssertEqual(row("`configuration.simulator.effective.faults.latency.fixed_ms`", in: refused.output),
                       "| `configuration.simulator.effective.faults.latency.fixed_ms` | 1 | 4 | baseline vs new |", refused.output)
        XCTAssertTrue(refused.output.contains("incomparable — the runs differ in 1 way"), refused.output)
        let varied = try apnsbench(["compare", fast, slow, "--format", "md", "--differ-on", "model"])
        XCTAssertNotEqual(varied.status, 5, varied.output)
        XCTAssertTrue(varied.output.contains("configuration.simulator.effective.faults.latency.fixed_ms"), varied.output)
    }
}
