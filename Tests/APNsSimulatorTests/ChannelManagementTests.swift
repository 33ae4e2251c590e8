import APNsCore
@testable import APNsSimulator
import Foundation
import XCTest

/// The channel-management API (`/1/apps/<bundle>/channels`, `/all-channels`) over a real HTTP/2
/// connection: each answer, and each reason from its real cause (`ChannelRequests.swift`).
final class ChannelManagementTests: XCTestCase {
    func testCreateReadListDeleteAndReadAfterDelete() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let requestID = "2288cf3f-70d8-46a6-97d7-dd5d00867127"
        let created = try h.push(c, h.channelHeaders(method: "POST", requestID: requestID), body: SimulatorHarness.createBody(policy: 1))
        XCTAssertEqual(created.status, 201, created.body)
        XCTAssertEqual(created.body, "")
        XCTAssertEqual(created.headers.first(name: "apns-request-id"), requestID, "echoed")
        let id = try XCTUnwrap(created.headers.first(name: "apns-channel-id"))
        XCTAssertEqual(id.utf8.count, 24)
        XCTAssertEqual(Data(base64Encoded: id)?.count, 16, "base64 of 16 bytes: \(id)")
        let other = try h.createChannel(c, policy: 0)
        XCTAssertNotEqual(id, other)

        let read = try h.push(c, h.channelHeaders(method: "GET", channelID: id), body: nil)
        XCTAssertEqual(read.status, 200, read.body)
        XCTAssertEqual(read.headers.first(name: "content-type"), "application/json")
        XCTAssertEqual(read.json["message-storage-policy"] as? Int, 1)
        XCTAssertEqual(read.json["push-type"] as? String, "LiveActivity")
        XCTAssertTrue(UUIDText.isCanonical((read.headers.first(name: "apns-request-id") ?? "").utf8), "a new one when none was sent")
        let readOther = try h.push(c, h.channelHeaders(method: "GET", channelID: other), body: nil)
        XCTAssertEqual(readOther.json["message-storage-policy"] as? Int, 0)

        let list = try h.push(c, h.channelHeaders(method: "GET", path: "/1/apps/\(h.bundleID)/all-channels"), body: nil)
        XCTAssertEqual(list.status, 200, list.body)
        XCTAssertEqual(list.json["channels"] as? [String], [id, other], "oldest first")

        let deleted = try h.push(c, h.channelHeaders(method: "DELETE", channelID: id), body: nil)
        XCTAssertEqual(deleted.status, 204, deleted.body)
        XCTAssertEqual(deleted.body, "")
        XCTAssertNotNil(deleted.headers.first(name: "apns-request-id"))

        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "GET", channelID: id), body: nil), .channelNotRegistered)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "DELETE", channelID: id), body: nil), .channelNotRegistered)
        let after = try h.push(c, h.channelHeaders(method: "GET", path: "/1/apps/\(h.bundleID)/all-channels"), body: nil)
        XCTAssertEqual(after.json["channels"] as? [String], [other])

        let counters = h.simulator.counterSnapshot
        XCTAssertEqual(counters.channelsCreated, 2)
        XCTAssertEqual(counters.channelsDeleted, 1)
        XCTAssertEqual(counters.channelRequests, ["created": 2, "read": 2, "listed": 2, "deleted": 1, "ChannelNotRegistered": 2])
        XCTAssertEqual(counters.requests, 0, "pushes only")
        XCTAssertEqual(counters.flattened["channels_created"], 2)
        XCTAssertTrue(counters.text.contains("channels: 2 created, 1 deleted"), counters.text)
        XCTAssertEqual(h.simulator.channels.channelIDs(bundleID: h.bundleID), [other])
    }

    func testChannelsAreFoundOnlyUnderTheirOwnBundle() throws {
        let h = try SimulatorHarness { $0.topicsByTeam["TEAM000001"] = ["com.example.app", "com.example.other"] }
        let c = try h.client()
        let id = try h.createChannel(c)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "GET", bundle: "com.example.other", channelID: id), body: nil),
                                 .channelNotRegistered)
        let list = try h.push(c, h.channelHeaders(method: "GET", path: "/1/apps/com.example.other/all-channels"), body: nil)
        XCTAssertEqual(list.body, #"{"channels":[]}"#)
    }

    func testCreateBodyReasons() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let post = h.channelHeaders(method: "POST")
        XCTAssertChannelRejected(try h.push(c, post, body: nil), .payloadEmpty)
        XCTAssertChannelRejected(try h.push(c, post, body: "{"), .badRequestPayload)
        XCTAssertChannelRejected(try h.push(c, post, body: "[1]"), .badRequestPayload)
        XCTAssertChannelRejected(try h.push(c, post, body: #"{"message-storage-policy":1,"push-type":"LiveActivity","x":1}"#), .badRequestParams)
        XCTAssertChannelRejected(try h.push(c, post, body: #"{"push-type":"LiveActivity"}"#), ChannelCreateBody.missingMessageStoragePolicy)
        for bad in ["2", "-1", #""1""#, "true", "null", "1.5"] {
            XCTAssertChannelRejected(try h.push(c, post, body: #"{"message-storage-policy":\#(bad),"push-type":"LiveActivity"}"#),
                                     .badRequestParams, "policy \(bad)")
        }
        XCTAssertChannelRejected(try h.push(c, post, body: #"{"message-storage-policy":0}"#), .missingPushType)
        XCTAssertChannelRejected(try h.push(c, post, body: #"{"message-storage-policy":0,"push-type":"alert"}"#), .invalidPushType)
        XCTAssertChannelRejected(try h.push(c, post, body: #"{"message-storage-policy":0,"push-type":1}"#), .invalidPushType)
        XCTAssertEqual(try h.push(c, post, body: #"{"message-storage-policy":0,"push-type":"liveactivity"}"#).status, 201, "any case")
        XCTAssertEqual(h.simulator.channels.count, 1, "no refused request created a channel")
    }

    func testPathMethodHeaderAndTokenReasons() throws {
        let h = try SimulatorHarness { $0.topicsByTeam["TEAM000001"] = ["com.example.app", "com.example.app.push-type.liveactivity"] }
        let c = try h.client()
        let body = SimulatorHarness.createBody()
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", path: "/1/apps/com.example.app/channel"), body: body), .badPath)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", path: "/1/apps//channels"), body: body), .badPath)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "GET", path: "/1/apps/com.example.app"), body: nil), .badPath)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "PUT"), body: body), .methodNotAllowed)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", path: "/1/apps/com.example.app/all-channels"), body: body),
                                 .methodNotAllowed)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "GET"), body: nil), .missingChannelId)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "DELETE"), body: nil), .missingChannelId)
        for bad in ["not base64!", "", "YWJjZA", "YWJj=", String(repeating: "QUJD", count: 22)] {
            XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "GET", channelID: bad), body: nil), .badChannelId, "'\(bad)'")
        }
        // Well-formed but never created: Apple's own sample id.
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "GET", channelID: "dHN0LXNyY2gtY2hubA=="), body: nil), .channelNotRegistered)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", requestID: "not-a-uuid"), body: body), .badMessageId)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", extra: [("apns-request-id", UUID().uuidString.lowercased()),
                                                                                      ("apns-request-id", UUID().uuidString.lowercased())]),
                                            body: body), .duplicateHeaders)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", bundle: "com.example.app.push-type.liveactivity"), body: body),
                                 .topicDisallowed, "no push-type suffix on the bundle")
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", bundle: "com example"), body: body), .topicDisallowed)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", authorization: nil), body: body), .missingProviderToken)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", authorization: "bearer not.a.jwt"), body: body), .invalidProviderToken)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", authorization: h.bearer(iat: Int(h.clock.now) - 3601)), body: body),
                                 .expiredProviderToken)
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", bundle: "com.other.app"), body: body), .topicMismatch)
        XCTAssertEqual(h.simulator.channels.count, 0)
        XCTAssertEqual(h.simulator.counterSnapshot.channelRequests["BadPath"], 3)
    }

    func testARequestIDIsEchoedOnErrorsToo() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let id = "123e4567-e89b-12d3-a456-4266554400a0"
        let r = try h.push(c, h.channelHeaders(method: "GET", requestID: id), body: nil)
        XCTAssertChannelRejected(r, .missingChannelId)
        XCTAssertEqual(r.headers.first(name: "apns-request-id"), id)
    }

    func testFeatureNotEnabledForAnAppWithoutTheCapability() throws {
        let h = try SimulatorHarness {
            $0.topicsByTeam["TEAM000001"] = ["com.example.app", "com.example.plain"]
            $0.broadcast.enabledBundleIDs = ["com.example.app"]
        }
        let c = try h.client()
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST", bundle: "com.example.plain"), body: SimulatorHarness.createBody()),
                                 .featureNotEnabled)
        _ = try h.createChannel(c)
    }

    func testAChannelRequestWithAValidTokenRaisesTheStreamLimit() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        _ = try h.createChannel(c)
        c.wait("the raised limit") { _ in c.advertisedLimits.last == 1000 }
        XCTAssertEqual(h.simulator.counterSnapshot.streamLimitRaises, 1)
    }

    /// Apple's 10,000 itself is reached through the handler in memory (`ChannelRequestsEmbeddedTests`):
    /// over loopback it takes about 9 s in a debug build. Here a lower limit, the same code.
    func testTheLimitIsPerAppAndADeleteFreesASlot() throws {
        let h = try SimulatorHarness {
            $0.topicsByTeam["TEAM000001"] = ["com.example.app", "com.example.second"]
            $0.broadcast.channelLimitPerBundle = 3
        }
        let c = try h.client()
        let first = try h.createChannel(c)
        for _ in 0..<2 { _ = try h.createChannel(c) }
        let create = h.channelHeaders(method: "POST"), body = SimulatorHarness.createBody()
        XCTAssertChannelRejected(try h.push(c, create, body: body), .cannotCreateChannelConfig)
        XCTAssertEqual(try h.push(c, h.channelHeaders(method: "POST", bundle: "com.example.second"), body: body).status, 201, "the limit is per app")
        XCTAssertEqual(try h.push(c, h.channelHeaders(method: "DELETE", channelID: first), body: nil).status, 204)
        XCTAssertEqual(try h.push(c, create, body: body).status, 201, "the freed slot")
        XCTAssertChannelRejected(try h.push(c, create, body: body), .cannotCreateChannelConfig)
        let counters = h.simulator.counterSnapshot
        XCTAssertEqual(counters.channelsCreated, 5)
        XCTAssertEqual(counters.channelRequests["CannotCreateChannelConfig"], 2)
        XCTAssertEqual(h.simulator.channels.channelIDs(bundleID: h.bundleID).count, 3)
    }

    func testAnInjectedFaultChangesNothing() throws {
        let h = try SimulatorHarness { $0.faults.requestFaults[.serviceUnavailable] = 1 }
        let c = try h.client()
        XCTAssertChannelRejected(try h.push(c, h.channelHeaders(method: "POST"), body: SimulatorHarness.createBody()), .serviceUnavailable)
        XCTAssertEqual(h.simulator.channels.count, 0, "a create answered 503 created nothing")
        XCTAssertEqual(h.simulator.counterSnapshot.channelRequests, ["ServiceUnavailable": 1])
    }

    func testFastModeAnswersTheBroadcastPaths200() throws {
        let h = try SimulatorHarness { $0.fast = true }
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.channelHeaders(method: "POST"), body: SimulatorHarness.createBody()))
        XCTAssertAccepted(try h.push(c, h.channelHeaders(method: "GET", path: "/1/apps/\(h.bundleID)/all-channels"), body: nil))
        XCTAssertAccepted(try h.push(c, h.channelHeaders(method: "DELETE", channelID: "x"), body: nil))
        XCTAssertAccepted(try h.push(c, h.broadcastHeaders(channelID: nil), body: SimulatorHarness.liveActivityUpdate))
        XCTAssertEqual(h.simulator.counterSnapshot.accepted, 4)
    }
}
