import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A configuration written back as a profile reads back as the same configuration, and a profile is
/// checked once, with the command line's values laid over it.
final class ProfileRoundTripTests: XCTestCase {
    static let repo = RepoFiles.root

    /// The run profiles in profiles/ (ci-simulator.yaml there is a simulator configuration file, not one).
    static func shippedProfiles() throws -> [String] {
        let folder = repo.appendingPathComponent("profiles").path
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
            .filter { path in
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                return text.contains("\nworkload:") || text.contains("\nrecipe:")
            }
    }

    /// Reads `text` as a profile at `path` (paths in it as absolute as the configuration's).
    func reread(_ text: String, as path: String) throws -> RunConfig {
        try ProfileLoader.read(yaml: text, file: path).validated()
    }

    func testEveryShippedProfileRoundTrips() throws {
        let profiles = try Self.shippedProfiles()
        XCTAssertGreaterThanOrEqual(profiles.count, 8, "the six single-recipe profiles and the two mixes")
        for path in profiles {
            let config = try ProfileLoader.load(path: path)
            var again = try reread(ProfileWriter.yaml(config), as: "/written/again.yaml")
            again.profilePath = config.profilePath
            XCTAssertEqual(again, config, "\(path)\n\(ProfileWriter.yaml(config))")
        }
    }

    func testFlagsLaidOverAProfileRoundTrip() throws {
        let profile = try ProfileLoader.read(path: Self.repo.appendingPathComponent("profiles/leave-requests.yaml").path)
        var o = RunConfigOverrides()
        o.connections = 3
        o.streams = 7
        o.schedule = .ramp(from: 10, to: 20.5, seconds: 3)
        o.duration = .secondsRounded(2.5)
        o.loopRecording = true
        o.coalesce = .milliseconds(250)
        o.collapseID = "a: b"
        o.sloMaxErrorShare = ["timed_out": 0]
        o.stallTimeout = .seconds(0)
        o.failFast = .secondsRounded(1.5)
        o.reportInterval = .seconds(2)
        o.fastSimulator = true
        o.apnsModel = "near"
        o.liveActivityBudget = 0
        o.expiration = .seconds(0)
        let config = try profile.validated(overlaying: o)
        var again = try reread(ProfileWriter.yaml(config), as: "/written/again.yaml")
        again.profilePath = config.profilePath
        XCTAssertEqual(again, config, ProfileWriter.yaml(config))
    }

    func testAFlagThatFixesAProfilesValueIsCheckedOnceOnTheFinalValue() throws {
        let base = "name: t\nworkload: order-changes\nstream: s.ndjson\nrecipe: \(RepoFiles.recipe("order-changes"))\nbundle_id: com.x\n"
        let profile = try ProfileLoader.read(yaml: base + "connections: 65\n", file: "p.yaml")
        var o = RunConfigOverrides()
        o.connections = 4
        XCTAssertEqual(try profile.validated(overlaying: o).transport.connections, 4, "the flag's value is the one checked")
        // Left alone, the profile's value is the error, named by its file, line and key.
        XCTAssertThrowsError(try profile.validated()) { error in
            XCTAssertEqual((error as? ProfileError)?.line, 6, "\(error)")
            XCTAssertTrue("\(error)".contains("'connections' must be between 1 and 64"), "\(error)")
        }
        // A flag's bad value is the flag's error (the command line names the flag).
        o.connections = 70
        XCTAssertThrowsError(try profile.validated(overlaying: o)) { error in
            XCTAssertEqual(error as? RunConfigFlagError, RunConfigFlagError(RunConfigError(.connections, "must be between 1 and 64, found 70")))
        }
        // A rule between a flag's value and the profile's names the flag it was set by.
        var w = RunConfigOverrides()
        w.workers = 2
        XCTAssertThrowsError(try ProfileLoader.read(yaml: base, file: "p.yaml").validated(overlaying: w, cores: 2)) { error in
            XCTAssertEqual((error as? RunConfigFlagError)?.error.key, .workers, "\(error)")
        }
    }

    func testKnownKeysAreTheTablesProfileKeys() {
        XCTAssertEqual(ProfileLoader.knownKeys, RunSettings.profileKeys)
        XCTAssertTrue(ProfileLoader.knownKeys.contains("push_timeout"))
        XCTAssertFalse(ProfileLoader.knownKeys.contains("push_timeout_ms"), "a former name is read, not listed")
    }
}
