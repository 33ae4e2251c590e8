import Foundation
import APNsCore
@testable import APNsSimulator
import TestSupport
import XCTest

/// MAX_CONCURRENT_STREAMS as APNs sends it: 1 until a request with a valid provider token, then 1000;
/// streams past the advertised limit are refused one by one; rapid resets end in GOAWAY.
final class StreamLimitTests: XCTestCase {
    func testSettingsAreAPNsValuesAndTheLimitRisesFromOneAfterTheFirstValidToken() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        c.wait("first SETTINGS") { _ in !c.advertisedLimits.isEmpty }
        guard case let .settings(false, values)? = c.frames.first else { return XCTFail("first frame \(c.frames)") }
        let byID = Dictionary(values.map { ($0.0, $0.1) }, uniquingKeysWith: { $1 })
        XCTAssertEqual(byID, [0x1: 4096, 0x3: 1, 0x4: 65535, 0x5: 16384, 0x6: 8000])
        // A rejected request without a token does not raise it.
        XCTAssertRejected(try h.push(c, h.headers(authorization: nil)), .missingProviderToken)
        XCTAssertEqual(c.advertisedLimits, [1])
        XCTAssertAccepted(try h.push(c, h.headers()))
        c.wait("raised limit") { _ in c.advertisedLimits.count == 2 }
        XCTAssertEqual(c.advertisedLimits, [1, 1000])
        XCTAssertEqual(h.simulator.counterSnapshot.streamLimitRaises, 1)
    }

    func testStreamsBeyondTheAdvertisedLimitAreRefusedNotTheConnection() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        // Wait until the server saw our ACK of its SETTINGS (limit 1): the PING-free way is to finish one
        // request, which the server reads after the ACK.
        XCTAssertRejected(try h.push(c, h.headers(authorization: nil)), .missingProviderToken)
        // Two streams open at once (headers only, body still to come): the second is refused.
        let open1 = try c.sendOpen(h.headers())
        let open2 = try c.sendOpen(h.headers())
        guard let refused = c.response(open2) else { return }
        XCTAssertEqual(refused.status, -Int(RawHTTP2Client.refusedStream), "RST_STREAM REFUSED_STREAM")
        XCTAssertNil(c.goAway, "a stream over the limit is not a connection error")
        // The open one still gets its answer.
        try c.sendData(open1, SimulatorHarness.alert)
        XCTAssertAccepted(try XCTUnwrap(c.response(open1)))
        XCTAssertEqual(h.simulator.counterSnapshot.streamsRefused, 1)
    }

    func testALoweredLimitIsEnforcedOnlyOnceAcknowledged() {
        var s = StreamLimitState(initial: 1)
        XCTAssertFalse(s.refuses(open: 5), "before the client acknowledged anything it cannot know the limit")
        s.acknowledge()
        XCTAssertTrue(s.refuses(open: 1))
        XCTAssertFalse(s.refuses(open: 0))
        s.advertise(1000)
        XCTAssertFalse(s.refuses(open: 999), "a raise is enforced at once")
        s.acknowledge()
        s.advertise(1)
        XCTAssertFalse(s.refuses(open: 10), "a drop is not enforced before its ACK")
        s.acknowledge()
        XCTAssertTrue(s.refuses(open: 1))
    }

    func testOptionalDropToOneAfterARejectionAndRestoreAfterAnAccept() throws {
        let h = try SimulatorHarness { $0.dropStreamLimitAfterRejection = true }
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.headers()))
        XCTAssertRejected(try h.push(c, h.headers(token: "bad")), .badDeviceToken)
        XCTAssertAccepted(try h.push(c, h.headers()))
        c.wait("three SETTINGS after the preamble") { _ in c.advertisedLimits.count == 4 }
        XCTAssertEqual(c.advertisedLimits, [1, 1000, 1, 1000])
        XCTAssertEqual(h.simulator.counterSnapshot.streamLimitDrops, 1)
    }

    func testRapidResetsAreAnsweredWithGoAwayAndCounted() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.headers()))
        c.wait("raised limit") { _ in c.advertisedLimits.count == 2 }
        var sent = 0
        while !c.isClosed, c.goAway == nil, sent < 1000 {
            let id = try c.sendOpen(h.headers())
            try c.reset(stream: id)
            sent += 1
        }
        c.wait(orClose: true, "GOAWAY") { _ in c.goAway != nil }
        XCTAssertEqual(c.goAway?.code, RawHTTP2Client.enhanceYourCalm, "rapid-reset protection")
        // NIO flushes its GOAWAY before it reports the error the GOAWAY count comes from, and resets are
        // counted when the server finishes a read: the client can see the frame first. No event tells
        // when the counts land; look again for up to two seconds.
        var counters = h.simulator.counterSnapshot
        _ = waitUntil(seconds: 2) {
            counters = h.simulator.counterSnapshot
            return counters.goAwaysSent["ENHANCE_YOUR_CALM"] != nil && counters.resetsReceived >= 200
        }
        XCTAssertGreaterThanOrEqual(counters.resetsReceived, 200)
        XCTAssertLessThan(sent, 1000)
        // Resets already in flight after the GOAWAY can make NIO report the error again: at least one.
        XCTAssertGreaterThanOrEqual(counters.goAwaysSent["ENHANCE_YOUR_CALM"] ?? 0, 1)
    }
}

extension RawHTTP2Client {
    /// Opens a stream with headers only (END_STREAM not set).
    func sendOpen(_ headers: [(String, String)]) throws -> UInt32 {
        try send(headers, body: nil, endStream: false)
    }
}
