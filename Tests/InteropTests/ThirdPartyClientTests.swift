import APNsCore
import Foundation
import TestSupport
import XCTest

/// Clients nobody here wrote, unchanged, against `apnsbench simulate`: h2load (nghttp2) and the Python
/// library aioapns. A missing tool fails the test with the command that installs it.
final class ThirdPartyClientTests: XCTestCase {
    let deviceToken = String(repeating: "5a", count: 32)

    func testH2loadGets200sOverTLSWithALPN() throws {
        let h2load = try requireTool("h2load", package: "Debian nghttp2-client")
        let sim = try SimulateProcess()
        addTeardownBlock { _ = sim.stop() }
        let payload = sim.folder.appendingPathComponent("payload.json")
        try Data(#"{"aps":{"alert":{"title":"hi","body":"from h2load"}}}"#.utf8).write(to: payload)
        let (status, output) = try runChild(h2load, [
            "-n", "2000", "-c", "2", "-m", "50", "-d", payload.path,
            "-H", "authorization: \(sim.bearer)", "-H", "apns-topic: \(sim.bundleID)", "-H", "apns-push-type: alert",
            "\(sim.url)/3/device/\(deviceToken)",
        ])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("Application protocol: h2"), output)
        XCTAssertTrue(output.contains("status codes: 2000 2xx, 0 3xx, 0 4xx, 0 5xx"), output)
        let counters = sim.stop()
        XCTAssertTrue(counters.contains("requests: 2000, accepted 2000, rejected 0"), counters)
        XCTAssertTrue(counters.contains("limit raised 2x"), "both connections raised their limit from 1: \(counters)")
    }

    func testH2loadGets200sOverH2c() throws {
        let h2load = try requireTool("h2load", package: "Debian nghttp2-client")
        let sim = try SimulateProcess(arguments: ["--h2c"])
        addTeardownBlock { _ = sim.stop() }
        let (status, output) = try runChild(h2load, [
            "-n", "500", "-c", "1", "-m", "20", "-d", try payloadFile(),
            "-H", "authorization: \(sim.bearer)", "-H", "apns-topic: \(sim.bundleID)",
            "\(sim.url)/3/device/\(deviceToken)",
        ])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("status codes: 500 2xx, 0 3xx, 0 4xx, 0 5xx"), output)
    }

    func testAioapnsGets200ForGoodPushesAndBadDeviceTokenForABadOne() throws {
        let python = try requireTool("python3", package: "python3")
        let probe = try runChild(python, ["-c", "import aioapns"])
        guard probe.status == 0 else {
            throw InteropError("the Python library aioapns is not installed (\(probe.output.split(separator: "\n").last ?? "")): "
                + "run scripts/install-deps.sh --test")
        }
        let sim = try SimulateProcess()
        addTeardownBlock { _ = sim.stop() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("aioapns_check.py").path
        let (status, output) = try runChild(python, [script, sim.host, String(sim.port), sim.caPath, sim.keyPath, sim.key.keyID,
                                                    sim.key.teamID, sim.bundleID, deviceToken])
        XCTAssertEqual(status, 0, output)
        let results = output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        XCTAssertEqual(results.compactMap { $0["status"] as? String }, ["200", "200", "200", "400", "200"], output)
        XCTAssertEqual(results[safe: 3]?["reason"] as? String, "BadDeviceToken", output)
        XCTAssertTrue(results.allSatisfy { $0["apns_id_matches"] as? Bool == true }, output)
    }

    func payloadFile() throws -> String {
        let url = try ScratchFolder.make("interop-payload", removedBy: addTeardownBlock).appendingPathComponent("payload.json")
        try Data(#"{"aps":{"alert":"hi"}}"#.utf8).write(to: url)
        return url.path
    }
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
