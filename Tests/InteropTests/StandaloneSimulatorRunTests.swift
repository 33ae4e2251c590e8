import Foundation
import Reporting
import TestSupport
import XCTest

/// `apnsbench run` against a standalone `apnsbench simulate` over TLS: with `--ca-cert` (or APNS_CA_CERT)
/// it trusts the simulator's CA and delivers; without it verification fails and the run fails fast naming
/// the cause. `simulate` binds only loopback unless told `--allow-remote`.
final class StandaloneSimulatorRunTests: XCTestCase {
    private func demoKey(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("AuthKey_DEMOKEY001.p8").path
        // Made by Python's cryptography, so apnsbench reads a .p8 it did not write.
        let pem = try XCTUnwrap(try ES256Oracle.sign([], pem: "pkcs8").key.pem)
        try pem.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func profile(in dir: URL, bundleID: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let profiles = root.appendingPathComponent("profiles").path
        let path = dir.appendingPathComponent("standalone.yaml").path
        try """
            name: standalone
            workload: leave-requests
            stream: \(profiles)/streams/leave-requests.ndjson
            recipe: \(profiles)/recipes/leave-requests.yaml
            bundle_id: \(bundleID)
            push_type: alert
            fail_fast: 2s
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testARunTrustsAStandaloneSimulatorByItsCAAndOnlyThen() throws {
        let simulator = try SimulateProcess()
        defer { _ = simulator.stop() }
        let dir = simulator.folder.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let profile = try profile(in: dir, bundleID: simulator.bundleID)
        let key = ["--key-path", simulator.keyPath, "--key-id", simulator.key.keyID, "--team-id", simulator.key.teamID]
        let target = "https://127.0.0.1:\(simulator.port)"

        let trusted = try apnsbench(["run", profile, "--target", target, "--ca-cert", simulator.caPath, "--quiet",
                                           "--out", dir.appendingPathComponent("trusted").path] + key)
        XCTAssertEqual(trusted.status, 0, trusted.output)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("trusted/report.json"))) as? [String: Any])
        let pushes = try XCTUnwrap(report["pushes"] as? [String: Any])
        XCTAssertEqual(pushes["balanced"] as? Bool, true)
        XCTAssertGreaterThan(pushes["delivered"] as? Int ?? 0, 600, "\(pushes)")

        let untrusted = try apnsbench(["run", profile, "--target", target, "--quiet", "--out", dir.appendingPathComponent("untrusted").path] + key)
        XCTAssertEqual(untrusted.status, 1, untrusted.output)
        XCTAssertTrue(untrusted.output.contains("cannot reach 127.0.0.1 port \(simulator.port)"), untrusted.output)
        XCTAssertTrue(untrusted.output.lowercased().contains("certificate") || untrusted.output.contains("peer_failed_verification"), untrusted.output)
    }

    func testABadCAFileOrTheWrongTargetIsRefusedNamingIt() throws {
        let dir = try ScratchFolder.make("ca")
        defer { ScratchFolder.remove(dir) }
        let notPEM = dir.appendingPathComponent("ca.pem").path
        try "hello".write(toFile: notPEM, atomically: true, encoding: .utf8)
        let profile = try profile(in: dir, bundleID: "com.example.x")
        let bad = try apnsbench(["run", profile, "--target", "https://127.0.0.1:1", "--ca-cert", notPEM,
                                       "--key-path", try demoKey(in: dir), "--key-id", "DEMOKEY001", "--team-id", "DEMOTEAM01"])
        XCTAssertEqual(bad.status, 1, bad.output)
        XCTAssertTrue(bad.output.contains("\(notPEM) (--ca-cert or APNS_CA_CERT) is not a PEM certificate"), bad.output)
        let simulatorTarget = try apnsbench(["run", profile, "--ca-cert", notPEM])
        XCTAssertEqual(simulatorTarget.status, 64, simulatorTarget.output)
        XCTAssertTrue(simulatorTarget.output.contains("--ca-cert \(notPEM) goes with --target"), simulatorTarget.output)
    }

    func testSimulateBindsOnlyLoopbackUnlessAllowed() throws {
        let refused = try apnsbench(["simulate", "--host", "0.0.0.0", "--port", "0"])
        XCTAssertEqual(refused.status, 64, refused.output)
        XCTAssertTrue(refused.output.contains("--host 0.0.0.0 is not a loopback address") && refused.output.contains("--allow-remote"), refused.output)
        let allowed = try SimulateProcess(arguments: ["--host", "0.0.0.0", "--allow-remote", "--tls-name", "apnsbench-sim.default.svc"])
        XCTAssertTrue(allowed.url.hasPrefix("https://0.0.0.0:"), allowed.url)
        let out = allowed.stop()
        XCTAssertTrue(out.contains("ready"), out)
    }

    func testASweepSendsToAStandaloneSimulatorWithItsCAAndKey() throws {
        let simulator = try SimulateProcess()
        defer { _ = simulator.stop() }
        let dir = simulator.folder.appendingPathComponent("sweep")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let profile = try profile(in: dir, bundleID: simulator.bundleID)
        let r = try apnsbench(["sweep", profile, "--vary", "connections=1,2", "--cooldown", "0", "--out", dir.appendingPathComponent("m").path,
                               "--target", "https://127.0.0.1:\(simulator.port)", "--ca-cert", simulator.caPath,
                               "--key-path", simulator.keyPath, "--key-id", simulator.key.keyID, "--team-id", simulator.key.teamID])
        XCTAssertEqual(r.status, 0, r.output)
        for cell in ["01-connections=1", "02-connections=2"] {
            let report = try RunReport.load(from: dir.appendingPathComponent("m/\(cell)/report.json").path)
            XCTAssertEqual(report.configuration.target, .url("https://127.0.0.1:\(simulator.port)"), cell)
            XCTAssertGreaterThan(report.pushes.delivered, 600, cell)
        }
    }
}
