import APNsCore
@testable import APNsSimulator
import Foundation
import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import XCTest

/// The real `APNsConnectionHandler` in an `EmbeddedChannel`: HTTP2Frames go in as NIOHTTP2Handler would
/// deliver them, and the frames it writes come out. No sockets, no threads, and time moves only when a
/// test moves the embedded loop's clock.
final class APNsConnectionHandlerEmbeddedTests: XCTestCase {
    // MARK: (a) the advertised limit

    func testAStreamPastTheAdvertisedLimitIsRefusedWithRefusedStream() throws {
        let c = try EmbeddedConnection()
        try c.ackSettings()
        try c.open(1)                                   // headers only: the stream stays open
        XCTAssertTrue(try c.readFrames().isEmpty)
        try c.open(3)
        let frames = try c.readFrames()
        XCTAssertEqual(frames.count, 1, "\(frames)")
        guard case let .rstStream(code)? = frames.first?.payload else { return XCTFail("expected RST_STREAM, got \(frames)") }
        XCTAssertEqual(frames.first?.streamID, 3)
        XCTAssertEqual(code, .refusedStream)
        XCTAssertEqual(c.counters.snapshot.streamsRefused, 1)
        // The open stream is still answered, and the connection goes on.
        try c.body(1)
        XCTAssertEqual(try c.readAnswers().map(\.status), [200])
    }

    // MARK: (b) a valid push

    func testAValidPushIsAnsweredWithStatus200AndAnApnsID() throws {
        let c = try EmbeddedConnection()
        try c.push(1)
        let answers = try c.readAnswers()
        XCTAssertEqual(answers.count, 1, "\(answers)")
        let answer = try XCTUnwrap(answers.first)
        XCTAssertEqual(answer.stream, 1)
        XCTAssertEqual(answer.status, 200)
        XCTAssertTrue(answer.endStream, "a 200 is one HEADERS frame with END_STREAM")
        XCTAssertNil(answer.body)
        let apnsID = try XCTUnwrap(answer.headers.first(name: "apns-id"))
        XCTAssertNotNil(UUID(uuidString: apnsID), apnsID)
        XCTAssertEqual(apnsID, apnsID.lowercased())
        XCTAssertNotNil(answer.headers.first(name: "apns-unique-id"), "sandbox adds apns-unique-id")
        XCTAssertEqual(c.counters.snapshot.accepted, 1)
        XCTAssertEqual(c.counters.snapshot.requests, 1)
    }

    /// A connection scans every payload into the same tape: each push still gets its own payload's verdict.
    func testEachPayloadOnAConnectionIsJudgedOnItsOwn() throws {
        let c = try EmbeddedConnection()
        try c.ackSettings()
        let bodies = [#"{"aps":{"alert":"hi"},"items":["# + Array(repeating: #"{"k":[1,2,3]}"#, count: 40).joined(separator: ",") + "]}",
                      #"{"aps":{"alert":"hi"},}"#, #"{"aps":{"alert":"hi"}}"#, "[]", "{}"]
        var stream: HTTP2StreamID = 1
        for body in bodies {
            try c.channel.writeInbound(HTTP2Frame(streamID: stream, payload: .headers(.init(headers: c.requestHeaders(authorization: c.bearer)))))
            try c.body(stream, body)
            c.close(stream)
            stream = stream.advanced(by: 2)
        }
        XCTAssertEqual(try c.readAnswers().map(\.status), [200, 400, 200, 400, 200])
        XCTAssertEqual(c.counters.snapshot.rejected, ["BadPayload": 2])
    }

    func testAPushWithoutAProviderTokenIsRejectedWithItsReason() throws {
        let c = try EmbeddedConnection()
        try c.push(1, authorization: nil)
        let answer = try XCTUnwrap(try c.readAnswers().first)
        XCTAssertEqual(answer.status, 403)
        XCTAssertEqual(answer.body, Reason.missingProviderToken.responseBody)
        XCTAssertEqual(c.counters.snapshot.rejected, ["MissingProviderToken": 1])
    }

    // MARK: (c) GOAWAY after N streams

    func testGoAwayShutdownAfterTheConfiguredNumberOfStreams() throws {
        let c = try EmbeddedConnection { $0.faults.goAwayAfterStreams = 2 }
        try c.ackSettings()
        try c.push(1)
        XCTAssertEqual(try c.readAnswers().map(\.status), [200])
        XCTAssertNil(try c.goAway())
        try c.push(3)
        let frames = try c.readFrames()
        XCTAssertEqual(frames.count, 2, "the answer, then GOAWAY: \(frames)")
        guard case let .goAway(lastStreamID, errorCode, opaqueData)? = frames.last?.payload else {
            return XCTFail("expected GOAWAY after the second answer, got \(frames)")
        }
        XCTAssertEqual(lastStreamID, 3)
        XCTAssertEqual(errorCode, .noError)
        XCTAssertEqual(opaqueData.map { String(buffer: $0) }, #"{"reason":"Shutdown"}"#)
        XCTAssertEqual(c.counters.snapshot.goAwaysSent, ["Shutdown": 1])
        // Nothing new is taken after GOAWAY.
        try c.open(5)
        guard case .rstStream(.refusedStream)? = try c.readFrames().first?.payload else { return XCTFail("stream 5 not refused") }
    }

    // MARK: (d) injected 503s

    func testASeeded503ShareAnswersServiceUnavailableOnTheStreamsTheDicePick() throws {
        let seed: UInt64 = 7, share = 0.5, n = 40
        let c = try EmbeddedConnection { config in
            config.seed = seed
            config.faults.requestFaults[.serviceUnavailable] = share
        }
        // The dice, rolled here as the simulator rolls them: one `unit()` per valid request from the
        // connection's generator (seed mixed with the connection id, 1 for the first connection).
        var random = SplitMix64(seed: SplitMix64.mix(seed ^ UInt64(c.connectionID) &* 0x9E37_79B9_7F4A_7C15))
        let expected = (0..<n).map { _ in random.unit() < share ? 503 : 200 }
        XCTAssertTrue(expected.contains(503) && expected.contains(200), "a share of 0.5 picks some of 40: \(expected)")

        try c.ackSettings()
        var statuses: [Int] = []
        for i in 0..<n {
            let stream = HTTP2StreamID(2 * i + 1)
            try c.push(stream)
            let answers = try c.readAnswers()
            XCTAssertEqual(answers.count, 1, "stream \(stream): \(answers)")
            guard let answer = answers.first else { break }
            statuses.append(answer.status)
            if answer.status == 503 {
                XCTAssertEqual(answer.body, #"{"reason":"ServiceUnavailable"}"#)
                XCTAssertNotNil(answer.headers.first(name: "apns-id"))
            }
            c.close(stream)
        }
        XCTAssertEqual(statuses, expected)
        let counters = c.counters.snapshot
        XCTAssertEqual(counters.rejected["ServiceUnavailable"], expected.filter { $0 == 503 }.count)
        XCTAssertEqual(counters.accepted, expected.filter { $0 == 200 }.count)
    }

    // MARK: (e) the limit rises after the first valid token

    func testTheLimitRisesAfterTheFirstValidToken() throws {
        let c = try EmbeddedConnection()
        try c.ackSettings()
        // A push without a token: rejected, and the limit stays 1.
        try c.push(1, authorization: nil)
        XCTAssertEqual(try c.readFrames().compactMap(Self.maxConcurrentStreams), [], "no SETTINGS before a valid token")
        c.close(1)
        try c.open(3)
        try c.open(5)
        XCTAssertEqual(try c.readFrames().map(Self.describe), ["RST_STREAM[5] REFUSED_STREAM"], "limit 1")
        try c.body(3)
        // Stream 3 carried the connection's first valid token: SETTINGS goes out before its answer.
        let frames = try c.readFrames()
        XCTAssertEqual(frames.map(Self.describe), ["SETTINGS MAX_CONCURRENT_STREAMS", "HEADERS[3] 200"])
        // The HTTP/2 layer's own (hard) limit: the rewriter in front of it writes the advertised value.
        XCTAssertEqual(frames.first.flatMap(Self.maxConcurrentStreams), SimulatorConfiguration().effectiveHardLimit)
        XCTAssertEqual(c.counters.snapshot.streamLimitRaises, 1)
        c.close(3)
        try c.ackSettings()
        // Now several streams are open at once.
        for stream in [7, 9, 11] as [HTTP2StreamID] { try c.open(stream) }
        XCTAssertTrue(try c.readFrames().isEmpty, "no stream refused once the limit rose")
        for stream in [7, 9, 11] as [HTTP2StreamID] { try c.body(stream) }
        XCTAssertEqual(try c.readAnswers().map(\.status), [200, 200, 200])
        XCTAssertEqual(c.counters.snapshot.streamsRefused, 1)
        XCTAssertEqual(c.counters.snapshot.streamLimitRaises, 1, "raised once")
    }

    // MARK: Timers on the embedded clock

    func testGoAwayIdleTimeoutAfterTheIdleSpell() throws {
        let c = try EmbeddedConnection { $0.faults.idleTimeoutSeconds = 10 }
        try c.ackSettings()
        c.channel.embeddedEventLoop.advanceTime(by: .seconds(6))
        try c.push(1)
        XCTAssertEqual(try c.readAnswers().map(\.status), [200])
        c.close(1)
        // 10 s after the start, but 4 s after the request: not idle yet.
        c.channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        XCTAssertNil(try c.goAway())
        c.channel.embeddedEventLoop.advanceTime(by: .seconds(6))
        let frame = try XCTUnwrap(try c.goAway(), "GOAWAY 10 s after the last request")
        guard case let .goAway(lastStreamID, _, opaqueData) = frame.payload else { return XCTFail("\(frame)") }
        XCTAssertEqual(lastStreamID, 1)
        XCTAssertEqual(opaqueData.map { String(buffer: $0) }, #"{"reason":"IdleTimeout"}"#)
        XCTAssertEqual(c.counters.snapshot.goAwaysSent, ["IdleTimeout": 1])
    }

    func testGoAwayShutdownAfterTheConfiguredSeconds() throws {
        let c = try EmbeddedConnection { $0.faults.goAwayAfterSeconds = 30 }
        c.channel.embeddedEventLoop.advanceTime(by: .seconds(29))
        XCTAssertNil(try c.goAway())
        c.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        let frame = try XCTUnwrap(try c.goAway(), "GOAWAY 30 s after the start")
        guard case let .goAway(_, _, opaqueData) = frame.payload else { return XCTFail("\(frame)") }
        XCTAssertEqual(opaqueData.map { String(buffer: $0) }, #"{"reason":"Shutdown"}"#)
    }

    // MARK: Helpers

    static func maxConcurrentStreams(_ frame: HTTP2Frame) -> Int? {
        guard case let .settings(.settings(values)) = frame.payload else { return nil }
        return values.first { $0.parameter == .maxConcurrentStreams }?.value
    }

    /// A short text for a frame the handler writes.
    static func describe(_ frame: HTTP2Frame) -> String {
        switch frame.payload {
        case let .rstStream(code): return "RST_STREAM[\(Int(frame.streamID))] \(code == .refusedStream ? "REFUSED_STREAM" : "\(code)")"
        case let .headers(h): return "HEADERS[\(Int(frame.streamID))] \(h.headers.first(name: ":status") ?? "?")"
        case .data: return "DATA[\(Int(frame.streamID))]"
        case let .settings(.settings(values)):
            return "SETTINGS " + values.map { $0.parameter == .maxConcurrentStreams ? "MAX_CONCURRENT_STREAMS" : "\($0.parameter)" }.joined(separator: " ")
        case .goAway: return "GOAWAY"
        default: return "\(frame.payload)"
        }
    }
}

/// One connection: the handler in an `EmbeddedChannel`, configured as `APNsSimulator.configure` does
/// (a SETTINGS rewriter, a counters box, the connection's id), with a registered key whose tokens
/// verify and a clock that stands still.
final class EmbeddedConnection {
    let channel: EmbeddedChannel
    let counters = SimulatorCounterBox()
    let connectionID: Int
    let key = SigningKey.generate(keyID: "KEY0000001", teamID: "TEAM000001")
    let bundleID = "com.example.app"
    let clock = MovableClock()
    /// The connection's broadcast channels (by default a store of its own, with the configured limit).
    let channels: ChannelStore
    /// One token for the connection (a new one within 20 minutes is TooManyProviderTokenUpdates).
    private(set) lazy var bearer = "bearer " + ProviderTokenCache.makeJWT(key: key, issuedAt: Int(clock.now))

    /// A frame-level answer: HEADERS, and DATA for a rejection.
    struct Answer {
        var stream: HTTP2StreamID
        var status: Int
        var headers: HPACKHeaders
        var body: String?
        var endStream: Bool
    }

    init(channels: ChannelStore? = nil, _ configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws {
        var c = SimulatorConfiguration()
        c.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
        c.topicsByTeam[key.teamID] = [bundleID]
        c.clock = clock.wallClock
        configure(&c)
        self.channels = channels ?? ChannelStore(limitPerBundle: c.broadcast.channelLimitPerBundle)
        connectionID = counters.openConnection()
        let handler = APNsConnectionHandler(configuration: c, validator: RequestValidator(configuration: c), counters: counters,
                                            rewriter: SettingsRewriter(), connectionID: connectionID, channels: self.channels)
        channel = EmbeddedChannel(handler: handler)
        // Active, as an accepted connection is (no socket: the embedded channel only records it).
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2197)).wait()
    }

    deinit { _ = try? channel.finish() }

    /// The client's SETTINGS ACK (of every SETTINGS sent so far, one at a time).
    func ackSettings(_ count: Int = 1) throws {
        for _ in 0..<count { try channel.writeInbound(HTTP2Frame(streamID: .rootStream, payload: .settings(.ack))) }
    }

    func requestHeaders(authorization: String?) -> HPACKHeaders {
        var h: HPACKHeaders = [":method": "POST", ":scheme": "https", ":path": "/3/device/" + String(repeating: "ab", count: 32),
                               ":authority": "127.0.0.1", "apns-topic": bundleID, "apns-push-type": "alert"]
        if let authorization { h.add(name: "authorization", value: authorization) }
        return h
    }

    /// HEADERS of a push with the connection's token, without END_STREAM: the stream stays open until `body`.
    func open(_ stream: HTTP2StreamID) throws {
        try channel.writeInbound(HTTP2Frame(streamID: stream, payload: .headers(.init(headers: requestHeaders(authorization: bearer)))))
    }

    /// The DATA that ends a stream: an alert payload.
    func body(_ stream: HTTP2StreamID, _ text: String = #"{"aps":{"alert":"hi"}}"#) throws {
        try channel.writeInbound(HTTP2Frame(streamID: stream, payload: .data(.init(data: .byteBuffer(ByteBuffer(string: text)), endStream: true))))
    }

    /// HEADERS + DATA of a push; `authorization` nil leaves the header out, the default is the connection's token.
    func push(_ stream: HTTP2StreamID, authorization: String? = "") throws {
        let headers = requestHeaders(authorization: authorization.map { $0.isEmpty ? bearer : $0 })
        try channel.writeInbound(HTTP2Frame(streamID: stream, payload: .headers(.init(headers: headers))))
        try body(stream)
    }

    /// The stream closed, as NIOHTTP2Handler reports it once both sides ended it.
    func close(_ stream: HTTP2StreamID) {
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: stream, reason: nil))
    }

    /// Every frame written and flushed so far.
    func readFrames() throws -> [HTTP2Frame] {
        var out: [HTTP2Frame] = []
        while let f = try channel.readOutbound(as: HTTP2Frame.self) { out.append(f) }
        return out
    }

    /// The GOAWAY among the frames written so far, if any.
    func goAway() throws -> HTTP2Frame? {
        try readFrames().first { if case .goAway = $0.payload { return true }; return false }
    }

    /// The answers among the frames written so far (SETTINGS and other frames are skipped).
    func readAnswers() throws -> [Answer] {
        var answers: [Answer] = []
        for frame in try readFrames() {
            switch frame.payload {
            case let .headers(h):
                answers.append(Answer(stream: frame.streamID, status: Int(h.headers.first(name: ":status") ?? "") ?? -1,
                                      headers: h.headers, body: nil, endStream: h.endStream))
            case let .data(d):
                guard let i = answers.lastIndex(where: { $0.stream == frame.streamID }), case let .byteBuffer(b) = d.data else { continue }
                answers[i].body = (answers[i].body ?? "") + String(buffer: b)
                answers[i].endStream = d.endStream
            default:
                continue
            }
        }
        return answers
    }
}
