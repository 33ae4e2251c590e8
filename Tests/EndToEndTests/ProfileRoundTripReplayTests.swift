import APNsCore
import Foundation
import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// A report's configuration, written back as a profile (`apnsbench report R.json --format profile`),
/// replays the run: a run of the written profile has the same configuration.
final class ProfileRoundTripReplayTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testARunOfTheWrittenProfileHasTheSameConfiguration() throws {
        let folder = try ScratchFolder.make("roundtrip")
        defer { ScratchFolder.remove(folder) }
        var first = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/order-changes.yaml").path)
        first.outDirectory = folder.appendingPathComponent("first").path
        first.overrides.connections = 3
        first.overrides.streams = 50
        first.overrides.fastSimulator = true
        first.overrides.coalesce = .milliseconds(250)
        first.overrides.retryAttempts = 4
        first.overrides.collapseID = "store-1"
        first.overrides.reportInterval = .seconds(2)
        // Two seconds at a fixed rate, not the whole recording (18,040 pushes): the configuration is the point,
        // and a scheduled run ends at the same push every time, so both runs plan the same pushes.
        first.overrides.schedule = .fixedRate(perSecond: 300)
        first.overrides.duration = .seconds(2)
        first.overrides.sloMaxErrorShare = ["timed_out": 0]
        let before = try ReplayRun.execute(first, log: { _ in }).report

        let written = try RunReport.load(from: folder.appendingPathComponent("first/report.json").path)
        let profile = folder.appendingPathComponent("again.yaml").path
        try ProfileWriter.yaml(written.configuration).write(toFile: profile, atomically: true, encoding: .utf8)
        var second = RunRequest(profilePath: profile)
        second.outDirectory = folder.appendingPathComponent("second").path
        let after = try ReplayRun.execute(second, log: { _ in }).report

        XCTAssertEqual(after.configuration.profilePath, profile)
        var same = after.configuration
        same.profilePath = before.configuration.profilePath
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        XCTAssertEqual(same, before.configuration, text)
        XCTAssertEqual(after.pushes.planned, before.pushes.planned)
        XCTAssertGreaterThan(before.pushes.delivered, 0, "the cut run sent pushes")
    }
}
