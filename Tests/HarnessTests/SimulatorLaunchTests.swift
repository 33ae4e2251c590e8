import APNsCore
import APNsSimulator
import Foundation
import Harness
import TestSupport
import XCTest

/// `apnsbench simulate`'s logic in the library: options in, a listening simulator and its printed lines out.
final class SimulatorLaunchTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try ScratchFolder.make("launch", removedBy: addTeardownBlock)
    }

    private func options() -> SimulatorLaunch.Options {
        var o = SimulatorLaunch.Options()
        o.port = 0
        o.caOut = folder.appendingPathComponent("ca.pem").path
        return o
    }

    func testWithoutKeysADemoKeyIsMadeAndWrittenBesideTheCA() throws {
        let launch = try SimulatorLaunch.start(options())
        defer { launch.simulator.stop() }
        XCTAssertGreaterThan(launch.simulator.port, 0)
        XCTAssertEqual(launch.caPath, folder.appendingPathComponent("ca.pem").path)
        let caPEM = try String(contentsOfFile: try XCTUnwrap(launch.caPath), encoding: .utf8)
        XCTAssertTrue(caPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let p8 = try XCTUnwrap(launch.demoKeyPath)
        XCTAssertEqual(p8, folder.appendingPathComponent("AuthKey_DEMOKEY001.p8").path)
        let demo = try SigningKey(p8Path: p8, keyID: SimulatorLaunch.demoKeyID, teamID: SimulatorLaunch.demoTeamID)
        XCTAssertNotNil(launch.simulator.configuration.keys[demo.keyID])
        XCTAssertEqual(launch.lines.first?.hasPrefix("apnsbench simulate: listening on https://127.0.0.1:"), true, "\(launch.lines)")
        XCTAssertTrue(launch.lines.contains("url: \(launch.simulator.url)"))
        XCTAssertTrue(launch.lines.contains("ca: \(folder.appendingPathComponent("ca.pem").path)"))
        XCTAssertNil(launch.lines.joined(separator: "\n").range(of: "eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.", options: .regularExpression),
                     "no provider token (JWT) is printed, not even the demo key's")
        XCTAssertEqual(launch.lines.last, "ready; stop with Ctrl-C (SIGINT) or SIGTERM")
        XCTAssertFalse(launch.lines.joined().contains("PRIVATE KEY"), "a key's contents are never printed")
    }

    func testGivenKeysAreRegisteredAndNoTokenIsPrinted() throws {
        let key = SigningKey.generate(keyID: "GIVEN00001", teamID: "GIVENTEAM1")
        let path = folder.appendingPathComponent("AuthKey_GIVEN00001.p8").path
        try Data(key.privateKey.pkcs8PEM.utf8).write(to: URL(fileURLWithPath: path))
        var o = options()
        o.keys = [.init(path: path, keyID: key.keyID, teamID: key.teamID)]
        o.bundleIDs = ["com.example.app"]
        o.h2c = true
        let launch = try SimulatorLaunch.start(o)
        defer { launch.simulator.stop() }
        XCTAssertNil(launch.caPath, "h2c has no CA")
        XCTAssertNil(launch.demoKeyPath)
        XCTAssertEqual(launch.simulator.configuration.topicsByTeam, ["GIVENTEAM1": ["com.example.app"]])
        XCTAssertTrue(launch.lines.contains("key: GIVEN00001 team GIVENTEAM1"), "\(launch.lines)")
        XCTAssertFalse(launch.lines.contains { $0.contains("bearer") }, "no token of a given key is printed")
        XCTAssertFalse(launch.lines.joined().contains("PRIVATE KEY"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("AuthKey_DEMOKEY001.p8").path))
    }

    func testTheCommandLineWinsOverTheFile() throws {
        let config = folder.appendingPathComponent("sim.yaml")
        try "seed: 3\nthreads: 2\nenvironment: production\nfast: true\n".write(to: config, atomically: true, encoding: .utf8)
        var o = options()
        o.configPath = config.path
        o.seed = 11
        o.environment = .sandbox
        let (c, demo) = try SimulatorLaunch.configuration(o)
        XCTAssertEqual(c.seed, 11)
        XCTAssertEqual(c.threads, 2)
        XCTAssertEqual(c.environment, .sandbox)
        XCTAssertTrue(c.fast)
        XCTAssertNil(demo, "fast mode verifies no token: no demo key")
        XCTAssertEqual(c.port, 0)
    }

    func testABadFileFailsBeforeAnythingStarts() throws {
        let config = folder.appendingPathComponent("sim.yaml")
        try "faults:\n  idle_timeout_seconds: -1\n".write(to: config, atomically: true, encoding: .utf8)
        var o = options()
        o.configPath = config.path
        XCTAssertThrowsError(try SimulatorLaunch.start(o)) {
            XCTAssertEqual(($0 as? SimulatorConfigError)?.line, 2, "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: o.caOut!), "nothing written")
    }
}
