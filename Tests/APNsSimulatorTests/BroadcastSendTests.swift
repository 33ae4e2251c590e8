import APNsCore
@testable import APNsSimulator
import XCTest

/// Broadcast sends (`POST /4/broadcasts/apps/<bundle>`) over a real HTTP/2 connection: the 200 and
/// its ids, each reason from its real cause, and deliveries counted per subscriber (`ChannelRequests.swift`).
final class BroadcastSendTests: XCTestCase {
    let update = SimulatorHarness.liveActivityUpdate

    func testA200CarriesTheRequestIDAndAUniqueID() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let channel = try h.createChannel(c)
        let requestID = "eabeae54-14a8-11e5-b60b-1697f925ec7b"
        let r = try h.push(c, h.broadcastHeaders(channelID: channel, requestID: requestID), body: update)
        XCTAssertEqual(r.status, 200, r.body)
        XCTAssertEqual(r.body, "")
        XCTAssertEqual(r.headers.first(name: "apns-request-id"), requestID)
        XCTAssertTrue(UUIDText.isCanonical(try XCTUnwrap(r.headers.first(name: "apns-unique-id")).utf8))
        let generated = try h.push(c, h.broadcastHeaders(channelID: channel), body: update)
        XCTAssertTrue(UUIDText.isCanonical(try XCTUnwrap(generated.headers.first(name: "apns-request-id")).utf8), "a new one when none was sent")
        XCTAssertNotEqual(generated.headers.first(name: "apns-unique-id"), r.headers.first(name: "apns-unique-id"))
        let production = try SimulatorHarness { $0.environment = .production }
        let pc = try production.client()
        let p = try production.push(pc, production.broadcastHeaders(channelID: try production.createChannel(pc)), body: update)
        XCTAssertNotNil(p.headers.first(name: "apns-unique-id"), "in both environments")
    }

    func testPrioritiesOneFiveAndTenAreAcceptedAndOthersRefused() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let channel = try h.createChannel(c)
        for p in ["1", "5", "10"] {
            XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: channel, priority: p), body: update).status, 200, "priority \(p)")
        }
        for p in ["7", "0", "high"] {
            XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, priority: p), body: update), .badPriority, "priority \(p)")
        }
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, priority: nil), body: update), .badPriority, "required")
    }

    func testPayloadOf5120BytesIsAcceptedAnd5121Refused() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let channel = try h.createChannel(c)
        XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: channel), body: broadcastPayload(size: 5120)).status, 200)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel), body: broadcastPayload(size: 5121)), .payloadTooLarge)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel), body: nil), .payloadEmpty)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel), body: "[1]"), .badRequestPayload)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel), body: #"{"aps":{"event":"update"}}"#),
                                 SimulatorConfiguration.simulatorBadPayload, "Live Activity keys, as for /3/device")
    }

    func testExpirationRules() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let noStorage = try h.createChannel(c, policy: 0)
        let stored = try h.createChannel(c, policy: 1)
        XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: noStorage, expiration: "0"), body: update).status, 200)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: noStorage, expiration: "1714046400"), body: update),
                                 .badExpirationDate, "non-zero on a no-storage channel")
        XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: stored, expiration: "1714046400"), body: update).status, 200)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: stored, expiration: nil), body: update), .badExpirationDate, "required")
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: stored, expiration: "soon"), body: update), .badExpirationDate)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: stored, expiration: "-1"), body: update), .badExpirationDate)
    }

    func testHeaderPathAndTokenReasons() throws {
        let h = try SimulatorHarness {
            $0.topicsByTeam["TEAM000001"] = ["com.example.app", "com.example.plain"]
            $0.broadcast.enabledBundleIDs = ["com.example.app"]
        }
        let c = try h.client()
        let channel = try h.createChannel(c)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: nil), body: update), .missingChannelId)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: "%%%"), body: update), .badChannelId)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: "dHN0LXNyY2gtY2hubA=="), body: update), .channelNotRegistered)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, pushType: nil), body: update), .missingPushType)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, pushType: "alert"), body: update), .invalidPushType)
        XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: channel, pushType: "LiveActivity"), body: update).status, 200, "any case")
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, extra: [("apns-priority", "5")]), body: update), .duplicateHeaders)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, requestID: "nope"), body: update), .badMessageId)
        var get = h.broadcastHeaders(channelID: channel)
        get[0] = (":method", "GET")
        XCTAssertChannelRejected(try h.push(c, get, body: nil), .methodNotAllowed)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, bundle: "com.example.app/x"), body: update), .badPath)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, bundle: "com.example.app.push-type.liveactivity"), body: update),
                                 .topicDisallowed)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, bundle: "com.other.app"), body: update), .topicMismatch)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, bundle: "com.example.plain"), body: update), .featureNotEnabled)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, authorization: nil), body: update), .missingProviderToken)
        // A new token within 20 minutes on this connection, as for /3/device.
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel, authorization: h.bearer()), body: update),
                                 .tooManyProviderTokenUpdates)
        let counters = h.simulator.counterSnapshot
        XCTAssertEqual(counters.broadcasts, 1)
        XCTAssertEqual(counters.broadcastsRejected.values.reduce(0, +), 14)
        XCTAssertEqual(counters.requests, 0, "broadcasts are not /3/device pushes")
    }

    func testABroadcastToADeletedChannelIsChannelNotRegistered() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let channel = try h.createChannel(c)
        XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: channel), body: update).status, 200)
        XCTAssertEqual(try h.push(c, h.channelHeaders(method: "DELETE", channelID: channel), body: nil).status, 204)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: channel), body: update), .channelNotRegistered)
        XCTAssertEqual(h.simulator.counterSnapshot.broadcastsRejected, ["ChannelNotRegistered": 1])
    }

    func testEachBroadcastCountsOneDeliveryPerSubscriber() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let scores = try h.createChannel(c)
        let empty = try h.createChannel(c, policy: 0)
        let tokens = DeviceRegistry.generatedTokens(count: 3, seed: 1, hexLength: 160)
        XCTAssertEqual(h.simulator.channels.subscribe(channelID: scores, tokens: tokens), 3)
        XCTAssertEqual(h.simulator.channels.subscribe(channelID: scores, tokens: [tokens[0].uppercased()]), 3, "the same token, in another case")
        XCTAssertNil(h.simulator.channels.subscribe(channelID: "dHN0LXNyY2gtY2hubA==", tokens: tokens), "no such channel")

        XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: scores), body: update).status, 200)
        XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: scores, priority: "5"), body: update).status, 200)
        XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: empty), body: update).status, 200, "no subscribers: accepted, no delivery")
        XCTAssertEqual(h.simulator.channels.unsubscribe(channelID: scores, tokens: [tokens[2]]), 2)
        XCTAssertEqual(try h.push(c, h.broadcastHeaders(channelID: scores), body: update).status, 200)
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: scores), body: nil), .payloadEmpty)

        let counters = h.simulator.counterSnapshot
        XCTAssertEqual(counters.broadcasts, 4)
        XCTAssertEqual(counters.broadcastDeliveries, 3 + 3 + 0 + 2)
        XCTAssertEqual(counters.flattened["broadcast_deliveries"], 8)
        XCTAssertEqual(counters.flattened["broadcasts_rejected_PayloadEmpty"], 1)
        XCTAssertTrue(counters.text.contains("broadcasts: 4 accepted, 8 deliveries to subscribers, rejected 1"), counters.text)
        let channel = try XCTUnwrap(h.simulator.channels.channel(id: scores))
        XCTAssertEqual(channel.broadcasts, 3)
        XCTAssertEqual(channel.deliveries, 8)
        XCTAssertEqual(channel.subscribers, Set(tokens.prefix(2)))
    }

    func testAnInjectedFaultDeliversNothing() throws {
        let h = try SimulatorHarness { $0.faults.requestFaults[.internalServerError] = 1 }
        let c = try h.client()
        // Created through the store: over HTTP the fault would answer the create too.
        let id = try h.simulator.channels.create(bundleID: h.bundleID, policy: .mostRecentMessageStored).id
        h.simulator.channels.subscribe(channelID: id, tokens: DeviceRegistry.generatedTokens(count: 2, seed: 3))
        XCTAssertChannelRejected(try h.push(c, h.broadcastHeaders(channelID: id), body: update), .internalServerError)
        let counters = h.simulator.counterSnapshot
        XCTAssertEqual(counters.broadcastDeliveries, 0)
        XCTAssertEqual(counters.broadcastsRejected, ["InternalServerError": 1])
        XCTAssertEqual(h.simulator.channels.channel(id: id)?.broadcasts, 0)
    }
}
