import APNsCore
@testable import APNsEngine
import APNsSimulator
import TestSupport
import XCTest

final class CurlEngineTests: XCTestCase {
    func testLoadedLibcurlIsUsable() throws {
        let info = LibcurlInfo.loaded()
        XCTAssertTrue(info.hasHTTP2, "libcurl \(info.version) lacks HTTP/2")
        XCTAssertNoThrow(try info.requireUsable())
    }

    func testOldLibcurlIsRefusedWithTheFix() {
        let old = LibcurlInfo(version: "7.88.1", versionNumber: 0x07_58_01, hasHTTP2: true, ssl: "", nghttp2: "")
        XCTAssertThrowsError(try old.requireUsable()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("7.88.1"), text)
            XCTAssertTrue(text.contains("bookworm-backports"), text)
        }
        let noH2 = LibcurlInfo(version: "8.5.0", versionNumber: 0x08_05_00, hasHTTP2: false, ssl: "", nghttp2: "")
        XCTAssertThrowsError(try noH2.requireUsable())
    }

    func testTenThousandPushesAreAllDelivered() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.simulator.stop() }
        let engine = try fixture.engine(fixture.engineConfiguration(connections: 2, streams: 100))
        let items = (0..<10_000).map { _ in FakePushSource.Item(token: goodToken, body: smallPayload) }
        let sink = RecordingSink()
        let stats = try engine.runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        XCTAssertEqual(sink.outcomes.count, 10_000)
        XCTAssertEqual(sink.delivered, 10_000, "outcomes other than delivered: \(sink.rejected) \(sink.outcomes.filter { $0 != .delivered }.prefix(3))")
        XCTAssertEqual(stats.sent, 10_000)
        // Multiplexed: a handful of connections, not one per push.
        XCTAssertGreaterThanOrEqual(stats.connectionsOpened, 1)
        XCTAssertLessThanOrEqual(stats.connectionsOpened, 2)
        XCTAssertGreaterThan(stats.peakInFlight, 2, "streams were not multiplexed")
        // One token signed and verified once per connection, not per push.
        XCTAssertEqual(stats.providerTokenSignings, 1)
        let counters = fixture.simulator.counterSnapshot
        XCTAssertEqual(counters.accepted, 10_000)
        XCTAssertLessThanOrEqual(counters.tokenVerifications, counters.connectionsOpened)
        XCTAssertEqual(counters.streamLimitRaises, counters.connectionsOpened)
    }

    func testBadTokenOversizePayloadAndWrongTopicComeBackAsTheirReasons() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.simulator.stop() }
        let oversize = Array(#"{"aps":{"alert":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 4100) + Array(#""}}"#.utf8)
        let items: [FakePushSource.Item] = [
            .init(token: goodToken, body: smallPayload),
            .init(token: "not-hex-and-too-short", body: smallPayload),
            .init(token: goodToken, body: oversize),
            .init(token: goodToken, body: smallPayload),
        ]
        let sink = RecordingSink()
        _ = try fixture.engine(fixture.engineConfiguration()).runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        XCTAssertEqual(sink.delivered, 2)
        XCTAssertEqual(sink.rejected, ["BadDeviceToken": 1, "PayloadTooLarge": 1])

        // A Live Activity push whose topic lacks the .push-type.liveactivity suffix.
        let wrongTopic = RecordingSink()
        _ = try fixture.engine(fixture.engineConfiguration(topic: fixture.bundleID))
            .runOnOwnThread(source: FakePushSource.list([.init(token: goodToken, body: smallPayload)]), sink: wrongTopic)
        XCTAssertEqual(wrongTopic.rejected, ["BadTopic": 1])

        // A topic of a bundle the team does not own.
        let foreign = RecordingSink()
        _ = try fixture.engine(fixture.engineConfiguration(topic: "com.other.app.push-type.liveactivity"))
            .runOnOwnThread(source: FakePushSource.list([.init(token: goodToken, body: smallPayload)]), sink: foreign)
        XCTAssertEqual(foreign.rejected, ["TopicDisallowed": 1])
    }

    func testUnreachableServerEndsEveryPushAsTransportFailure() throws {
        // Bind and close a simulator to get a port nobody listens on.
        let fixture = try SimulatorFixture()
        var config = fixture.engineConfiguration()
        fixture.simulator.stop()
        // Transport errors are retried with backoff (and the reconnects held): milliseconds here.
        config.retry.initialBackoff = 0.001
        config.retry.maxAttempts = 3
        config.lifecycle.reconnectInitial = 0.001
        config.lifecycle.reconnectMax = 0.01
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(
            source: FakePushSource.list((0..<5).map { _ in .init(token: goodToken, body: smallPayload) }), sink: sink)
        XCTAssertEqual(sink.outcomes.count, 5)
        for outcome in sink.outcomes {
            guard case let .failed(error) = outcome else { return XCTFail("expected a transport failure, got \(outcome)") }
            XCTAssertTrue(error.key.hasPrefix("curl_7_"), error.key)
        }
        XCTAssertEqual(stats.sent, 15, "3 attempts each")
        XCTAssertEqual(stats.retriesTotal, 10)
    }
}
