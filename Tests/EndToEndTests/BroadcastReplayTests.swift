import APNsCore
import Foundation
import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// Broadcast delivery end to end against the embedded simulator: the same recording in both modes, the
/// channels' bracket (created before, deleted after, or kept), and the app's channel limit.
final class BroadcastReplayTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("bc", removedBy: addTeardownBlock)
    }

    func profile(extra: String = "") throws -> String {
        try OrderChangesFixture.profile(in: scratch, name: "bc-test", lines: 900, settings: "streams: 50\n" + extra, channels: true)
    }

    func run(_ profile: String, configure: (inout RunConfigOverrides) -> Void = { _ in }) throws -> RunReport {
        try OrderChangesFixture.run(profile, in: scratch, configure: configure).result.report
    }

    func testTheSameRecordingInBothModes() throws {
        let path = try profile()
        let stores = try BroadcastSetupProbe.subscribedStores(path)
        let device = try run(path)
        let broadcast = try run(path) { $0.delivery = .broadcast }
        XCTAssertEqual(device.violations(), [], "\(device.pushes)")
        XCTAssertEqual(broadcast.violations(), [], "\(broadcast.pushes)")
        XCTAssertNil(device.broadcast)
        XCTAssertEqual(device.engine.devicesReached, device.pushes.delivered, "a device push reaches one device")

        let b = try XCTUnwrap(broadcast.broadcast)
        XCTAssertEqual(b.channels, stores.count, "one channel per store the recording subscribes activities to")
        XCTAssertEqual(b.deleted, b.channels)
        XCTAssertEqual(b.managementCalls, ["create 201": b.channels, "delete 204": b.channels])
        XCTAssertEqual(broadcast.simulator?["channels_created"], b.channels)
        XCTAssertEqual(broadcast.simulator?["channels_deleted"], b.channels, "every channel the run made is gone")
        XCTAssertLessThan(broadcast.engine.sent * 2, device.engine.sent, "a broadcast stands for several device pushes")
        XCTAssertGreaterThan(broadcast.engine.devicesReached, broadcast.pushes.delivered, "a broadcast reaches its subscribers")
        XCTAssertLessThanOrEqual(broadcast.simulator?["broadcasts"] ?? 0, broadcast.pushes.delivered)
        XCTAssertGreaterThan(broadcast.simulator?["broadcasts"] ?? 0, 0)
        XCTAssertEqual(broadcast.events.streamSHA256, device.events.streamSHA256, "the same recording")
        XCTAssertEqual(broadcast.events.byKind, device.events.byKind)
        XCTAssertEqual(broadcast.events.expectedPushes, broadcast.pushes.planned, "one planned push per order change")
        XCTAssertEqual(broadcast.pushes.planned, device.events.byKind.values.reduce(0, +) - (device.events.byKind["device.register"] ?? 0))
    }

    func testKeptChannelsAreNotDeleted() throws {
        let report = try run(try profile()) {
            $0.delivery = .broadcast
            $0.keepChannels = true
        }
        let b = try XCTUnwrap(report.broadcast)
        XCTAssertTrue(b.kept)
        XCTAssertEqual(b.deleted, 0)
        XCTAssertNil(b.managementCalls["delete 204"])
        XCTAssertEqual(report.simulator?["channels_deleted"] ?? 0, 0)
    }

    func testTheChannelLimitLeavesTheRestNotSent() throws {
        let report = try run(try profile(extra: "simulator: { broadcast: { channel_limit: 3 } }\n")) { $0.delivery = .broadcast }
        let b = try XCTUnwrap(report.broadcast)
        XCTAssertEqual(b.channels, 3)
        XCTAssertGreaterThan(b.storesRefused, 0)
        XCTAssertEqual(b.managementCalls["create CannotCreateChannelConfig"], 1, "the first refusal stops creating")
        XCTAssertGreaterThan(report.pushes.notSent["channel_limit"] ?? 0, 0)
        XCTAssertEqual(report.violations(), [])
    }
}

/// The stores a profile's recording subscribes activities to, read as the run reads them.
enum BroadcastSetupProbe {
    static func subscribedStores(_ profile: String) throws -> Set<Int> {
        let config = try ReplayRun.configuration(RunRequest(profilePath: profile))
        let text = try String(contentsOfFile: config.workload.stream, encoding: .utf8)
        return Set(text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["input_push_channel"] as? Int
        })
    }
}
