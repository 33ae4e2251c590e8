import APNsCore
import APNsSimulator
import Foundation
import XCTest
@testable import Harness

/// Where a run's pushes go: the embedded simulator started for the run, or a URL.
final class RunTargetTests: XCTestCase {
    func testTheSimulatorIsStartedOnLoopbackWithTheRunsKeyTopicsAndDeadTokens() throws {
        let fixture = try HarnessFixture(self)
        var config = try fixture.config()
        config.workload.deadTokens = try fixture.write("dead.txt", HarnessFixture.tokens[1] + "\n")
        config.simulator.fast = true
        let inputs = try RunInputs(config, credentials: Credentials())
        let target = try RunTarget(config, inputs: inputs)
        defer { target.stop() }

        let simulator = try XCTUnwrap(target.simulator)
        XCTAssertTrue(target.baseURL.hasPrefix("https://127.0.0.1:"), target.baseURL)
        XCTAssertEqual(target.baseURL, simulator.url)
        XCTAssertGreaterThan(simulator.port, 0)
        XCTAssertEqual(target.description, "the embedded simulator at \(simulator.url)")
        XCTAssertEqual(target.trustedCertificatePEM, simulator.certificates?.caPEM)
        XCTAssertTrue(target.trustedCertificatePEM?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)

        let s = simulator.configuration
        XCTAssertNotNil(s.keys[inputs.key.keyID], "the run's key is registered")
        XCTAssertEqual(s.topicsByTeam[inputs.key.teamID], ["com.example.leaverequests"])
        XCTAssertTrue(s.fast)
        XCTAssertNotNil(s.deviceRegistry.check(token: HarnessFixture.tokens[1], bundleID: "com.example.leaverequests"), "the planted dead token is dead")
        XCTAssertNil(s.deviceRegistry.check(token: HarnessFixture.tokens[0], bundleID: "com.example.leaverequests"))
        XCTAssertNotNil(target.simulatorCounters?["accepted"], "\(target.simulatorCounters ?? [:])")
    }

    func testTheProfilesSimulatorSectionIsAppliedUnderWhatTheRunNeeds() throws {
        let fixture = try HarnessFixture(self)
        let config = try ReplayRun.configuration(RunRequest(profilePath: try fixture.profile(extra: "simulator: { broadcast: { channel_limit: 3 } }")))
        let inputs = try RunInputs(config, credentials: Credentials())
        let target = try RunTarget(config, inputs: inputs)
        defer { target.stop() }
        let s = try XCTUnwrap(target.simulator).configuration
        XCTAssertEqual(s.broadcast.channelLimitPerBundle, 3)
        XCTAssertNotNil(s.keys[inputs.key.keyID], "the run's key is registered as well")
    }

    func testAURLTargetStartsNothingAndTrustsWhatTheInputsTrust() throws {
        let fixture = try HarnessFixture(self)
        var config = try fixture.config()
        config.target = .url("https://127.0.0.1:9")
        let (key, keyPath) = try fixture.key()
        let ca = try fixture.write("ca.pem", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
        let inputs = try RunInputs(config, credentials: Credentials(keyPath: keyPath, keyID: key.keyID, teamID: key.teamID), caCertificatePath: ca)
        let target = try RunTarget(config, inputs: inputs)
        defer { target.stop() }
        XCTAssertNil(target.simulator)
        XCTAssertNil(target.simulatorCounters)
        XCTAssertEqual(target.baseURL, "https://127.0.0.1:9")
        XCTAssertEqual(target.description, "https://127.0.0.1:9")
        XCTAssertEqual(target.trustedCertificatePEM, inputs.trustedCertificatePEM)

        config.target = .sandbox
        let sandbox = try RunTarget(config, inputs: inputs)
        XCTAssertEqual(sandbox.baseURL, "https://api.sandbox.push.apple.com:443")
    }

    func testStopClosesTheSimulatorsPort() throws {
        let config = try HarnessFixture(self).config()
        let target = try RunTarget(config, inputs: try RunInputs(config, credentials: Credentials()))
        let port = try XCTUnwrap(target.simulator).port
        XCTAssertTrue(HTTPGet.accepts(port: port), "listening while the run lasts")
        target.stop()
        XCTAssertFalse(HTTPGet.accepts(port: port), "nothing listens once stopped")
    }
}
