import APNsCore
@testable import APNsSimulator
import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import XCTest

/// The broadcast APIs through the real `APNsConnectionHandler` in an `EmbeddedChannel`: the frames of
/// each answer, and answers delayed by the latency fault, with no sockets and no real time.
final class ChannelRequestsEmbeddedTests: XCTestCase {
    func headers(_ c: EmbeddedConnection, method: String, path: String, _ extra: [(String, String)] = []) -> HPACKHeaders {
        var h: HPACKHeaders = [":method": method, ":scheme": "https", ":path": path, ":authority": "127.0.0.1", "authorization": c.bearer]
        for (n, v) in extra { h.add(name: n, value: v) }
        return h
    }

    func send(_ c: EmbeddedConnection, _ stream: HTTP2StreamID, _ headers: HPACKHeaders, body: String?) throws {
        try c.channel.writeInbound(HTTP2Frame(streamID: stream, payload: .headers(.init(headers: headers, endStream: body == nil))))
        if let body { try c.body(stream, body) }
    }

    func testEachAnswersFrames() throws {
        let c = try EmbeddedConnection()
        let channels = "/1/apps/\(c.bundleID)/channels"
        try send(c, 1, headers(c, method: "POST", path: channels), body: SimulatorHarness.createBody(policy: 0))
        let created = try XCTUnwrap(try c.readAnswers().first)
        XCTAssertEqual(created.status, 201)
        XCTAssertTrue(created.endStream, "201 is one HEADERS frame with END_STREAM")
        XCTAssertNil(created.body)
        let id = try XCTUnwrap(created.headers.first(name: "apns-channel-id"))
        XCTAssertEqual(c.channels.channel(id: id)?.storagePolicy, .noMessageStored)
        c.close(1)

        try send(c, 3, headers(c, method: "GET", path: channels, [("apns-channel-id", id)]), body: nil)
        let read = try XCTUnwrap(try c.readAnswers().first)
        XCTAssertEqual(read.status, 200)
        XCTAssertEqual(read.body, #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#)
        XCTAssertTrue(read.endStream)
        c.close(3)

        c.channels.subscribe(channelID: id, tokens: ["aa", "bb"])
        let broadcast: [(String, String)] = [("apns-channel-id", id), ("apns-push-type", "liveactivity"), ("apns-priority", "10"),
                                             ("apns-expiration", "0")]
        try send(c, 5, headers(c, method: "POST", path: "/4/broadcasts/apps/\(c.bundleID)", broadcast), body: SimulatorHarness.liveActivityUpdate)
        let sent = try XCTUnwrap(try c.readAnswers().first)
        XCTAssertEqual(sent.status, 200)
        XCTAssertTrue(sent.endStream)
        XCTAssertNotNil(sent.headers.first(name: "apns-unique-id"))
        XCTAssertNotNil(sent.headers.first(name: "apns-request-id"))
        c.close(5)

        try send(c, 7, headers(c, method: "DELETE", path: channels, [("apns-channel-id", id)]), body: nil)
        let deleted = try XCTUnwrap(try c.readAnswers().first)
        XCTAssertEqual(deleted.status, 204)
        XCTAssertTrue(deleted.endStream)
        XCTAssertNil(deleted.body)
        c.close(7)

        try send(c, 9, headers(c, method: "GET", path: "/1/apps/\(c.bundleID)/all-channels"), body: nil)
        XCTAssertEqual(try c.readAnswers().first?.body, #"{"channels":[]}"#)

        let counters = c.counters.snapshot
        XCTAssertEqual(counters.broadcasts, 1)
        XCTAssertEqual(counters.broadcastDeliveries, 2)
        XCTAssertEqual(counters.channelRequests, ["created": 1, "read": 1, "deleted": 1, "listed": 1])
        XCTAssertEqual(counters.requests, 0)
    }

    /// Apple's limit, for real, through the handler: 10,000 creates answered 201, then one more is
    /// `CannotCreateChannelConfig`; a delete frees a slot.
    func testTheTenThousandChannelLimitPerApp() throws {
        let c = try EmbeddedConnection()
        XCTAssertEqual(c.channels.limitPerBundle, 10_000)
        let create = headers(c, method: "POST", path: "/1/apps/\(c.bundleID)/channels")
        var stream = 1
        func answer(_ h: HPACKHeaders, body: String?) throws -> EmbeddedConnection.Answer {
            let s = HTTP2StreamID(stream)
            stream += 2
            try send(c, s, h, body: body)
            let a = try XCTUnwrap(try c.readAnswers().first)
            c.close(s)
            return a
        }
        var statuses: [Int: Int] = [:]
        for _ in 0..<10_000 { statuses[try answer(create, body: SimulatorHarness.createBody()).status, default: 0] += 1 }
        XCTAssertEqual(statuses, [201: 10_000])
        let refused = try answer(create, body: SimulatorHarness.createBody())
        XCTAssertEqual(refused.status, 400)
        XCTAssertEqual(refused.body, Reason.cannotCreateChannelConfig.responseBody)
        let first = try XCTUnwrap(c.channels.channelIDs(bundleID: c.bundleID).first)
        let delete = headers(c, method: "DELETE", path: "/1/apps/\(c.bundleID)/channels", [("apns-channel-id", first)])
        XCTAssertEqual(try answer(delete, body: nil).status, 204)
        XCTAssertEqual(try answer(create, body: SimulatorHarness.createBody()).status, 201, "the freed slot")
        XCTAssertEqual(try answer(create, body: SimulatorHarness.createBody()).status, 400)
        let counters = c.counters.snapshot
        XCTAssertEqual(counters.channelsCreated, 10_001)
        XCTAssertEqual(counters.channelRequests["CannotCreateChannelConfig"], 2)
    }

    func testTheLatencyFaultDelaysAnAnswerAndItsEffectIsCountedAtOnce() throws {
        let c = try EmbeddedConnection { $0.faults.latency = .fixed(milliseconds: 50) }
        try send(c, 1, headers(c, method: "POST", path: "/1/apps/\(c.bundleID)/channels"), body: SimulatorHarness.createBody())
        XCTAssertTrue(try c.readAnswers().isEmpty, "not yet")
        XCTAssertEqual(c.channels.count, 1)
        c.channel.embeddedEventLoop.advanceTime(by: .milliseconds(50))
        XCTAssertEqual(try c.readAnswers().map(\.status), [201])
    }
}
