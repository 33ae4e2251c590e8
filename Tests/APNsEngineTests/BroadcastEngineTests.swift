import APNsCore
import APNsEngine
import APNsSimulator
import Foundation
import TestSupport
import XCTest

/// The engine's broadcast path against the real simulator on loopback: pushes with a channel go to
/// `/4/broadcasts/apps/<bundle>` with that channel's header list, reach counts the subscribers, and a channel
/// deleted under the run ends as `ChannelNotRegistered` once, then `channel_gone`.
final class BroadcastEngineTests: XCTestCase {
    private let payload = Array(#"{"aps":{"timestamp":1714042800,"event":"update","content-state":{"totalOrders":3}}}"#.utf8)

    func testBroadcastsReachSubscribersAndAGoneChannelStopsItsPushes() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.simulator.stop() }
        let store = fixture.simulator.channels
        let live = try store.create(bundleID: fixture.bundleID, policy: .noMessageStored)
        let gone = try store.create(bundleID: fixture.bundleID, policy: .noMessageStored)
        store.subscribe(channelID: live.id, tokens: [goodToken, String(repeating: "cd", count: 80), String(repeating: "ef", count: 80)])
        XCTAssertTrue(store.delete(id: gone.id))

        var config = fixture.engineConfiguration(streams: 1)
        config.kinds[0][APNsHeaders.expiration] = 0
        config.broadcastPath = "/4/broadcasts/apps/\(fixture.bundleID)"
        config.broadcastChannels = [live.id, gone.id]
        // Channel 0 three times (reach 3 each), channel 1 three times, one device push between them.
        let plan: [(channel: Int32, priority: Priority)] = [
            (0, .immediate), (1, .immediate), (-1, .immediate), (1, .powerAware), (0, .powerFirst), (1, .immediate), (0, .powerAware),
        ]
        let source = FakePushSource(count: plan.count) { n, push in
            push.body = self.payload
            push.priority = plan[n].priority
            push.channel = plan[n].channel
            push.reach = plan[n].channel >= 0 ? 3 : 1
            push.deviceToken = plan[n].channel == 0 ? live.id : plan[n].channel == 1 ? gone.id : goodToken
        }
        let sink = RecordingSink()
        let counters = try fixture.engine(config).run(source: source, sink: sink)

        XCTAssertEqual(sink.recorded, plan.count)
        XCTAssertEqual(sink.delivered, 4, "three broadcasts to the live channel and the device push")
        XCTAssertEqual(sink.rejected, ["ChannelNotRegistered": 1], "the gone channel is answered once")
        XCTAssertEqual(sink.notSent, ["channel_gone": 2], "and its later broadcasts are not sent")
        XCTAssertEqual(counters.devicesReached, 3 * 3 + 1)
        let c = fixture.simulator.counterSnapshot
        XCTAssertEqual(c.broadcasts, 3)
        XCTAssertEqual(c.broadcastDeliveries, 9, "the simulator counts one delivery per subscriber")
        XCTAssertEqual(c.accepted, 1, "the one device push")
    }

    func testTheChannelClientCreatesReadsListsAndDeletes() throws {
        let fixture = try SimulatorFixture { $0.broadcast.channelLimitPerBundle = 2 }
        defer { fixture.simulator.stop() }
        let tokens = try ProviderTokenCache(key: fixture.key)
        let client = try ChannelClient(baseURL: fixture.simulator.url, bundleID: fixture.bundleID,
                                       trustedCertificatePEM: fixture.simulator.certificates?.caPEM, bearer: { tokens.bearer() })
        let a = try client.create(storagePolicy: 0), b = try client.create(storagePolicy: 1), c = try client.create(storagePolicy: 0)
        XCTAssertEqual([a.status, b.status], [201, 201])
        XCTAssertNotNil(a.channelID)
        XCTAssertEqual(c.status, 400)
        XCTAssertEqual(c.reason, "CannotCreateChannelConfig", "the app's channel limit")
        let read = try client.read(try XCTUnwrap(b.channelID))
        XCTAssertEqual(read.status, 200)
        XCTAssertTrue(read.body.contains("\"message-storage-policy\"") && read.body.contains("1"), read.body)
        XCTAssertEqual(try client.list().status, 200)
        XCTAssertEqual(try client.delete(try XCTUnwrap(a.channelID)).status, 204)
        let again = try client.delete(try XCTUnwrap(a.channelID))
        XCTAssertEqual(again.reason, "ChannelNotRegistered")
        XCTAssertEqual(client.calls,
            ["create 201": 2, "create CannotCreateChannelConfig": 1, "read 200": 1, "list 200": 1, "delete 204": 1, "delete ChannelNotRegistered": 1])
        XCTAssertEqual(fixture.simulator.channels.count, 1)
    }
}
