import APNsCore
@testable import APNsEngine
import APNsSimulator
import TestSupport
import XCTest

/// On the socket-action drive a socket with answers to read is read by one transfer of its connection, not by
/// every transfer in flight on it; each answer still reaches its own push. Counted, never timed.
final class SocketReadTests: XCTestCase {
    /// Pushes 1 ms apart answered after 30 ms: about 30 in flight on one connection, the answers arriving one
    /// by one in the order sent, so the transfer added last has not had its answer when a socket is read.
    func testAnswersOnOneConnectionAreReadByOneTransfer() throws {
        let fixture = try SimulatorFixture { $0.faults.latency = .fixed(milliseconds: 30) }
        defer { fixture.simulator.stop() }
        let engine = try CurlEngine(configuration: fixture.engineConfiguration(streams: 100), tokens: ProviderTokenCache(key: fixture.key),
                                    drive: .socketAction)
        let sink = RecordingSink()
        let stats = try engine.runOnOwnThread(source: FakePushSource.spaced(300, gapSeconds: 0.001, token: goodToken, body: smallPayload), sink: sink)
        XCTAssertEqual(sink.delivered, 300)
        XCTAssertEqual(stats.sent, 300)
        let reads = engine.socketReads
        XCTAssertGreaterThan(reads.byOne, reads.byAll, "ready sockets read by one transfer \(reads.byOne), by all \(reads.byAll)")
    }

    /// Two connections of 5 streams each, kept full: the transfer added last is often on the other connection,
    /// and its read leaves this socket readable, so every transfer of this socket runs as before. Were the
    /// socket left unread, the wait would return for it at once over and over (the wake-ups show it) until the
    /// other connection's pushes ran out, and its answers would wait that long.
    func testAnswersOnTheOtherConnectionAreReadByAllItsTransfers() throws {
        let fixture = try SimulatorFixture { $0.faults.latency = .fixed(milliseconds: 20) }
        defer { fixture.simulator.stop() }
        var configuration = fixture.engineConfiguration(connections: 2, streams: 5)
        configuration.pushTimeout = .seconds(5)
        let engine = try CurlEngine(configuration: configuration, tokens: ProviderTokenCache(key: fixture.key), drive: .socketAction)
        let sink = RecordingSink()
        let items = (0..<300).map { _ in FakePushSource.Item(token: goodToken, body: smallPayload) }
        let stats = try engine.runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        XCTAssertEqual(sink.delivered, 300)
        XCTAssertEqual(stats.sent, 300)
        XCTAssertEqual(stats.connectionsOpened, 2)
        XCTAssertLessThanOrEqual(stats.wakeUps, 300 * EngineWakeUpTests.wakeUpsPerPush, "wake-ups: the engine spins on a socket left unread")
        let reads = engine.socketReads
        XCTAssertGreaterThan(reads.byAll, 0, "the other connection's socket went the whole way (by one \(reads.byOne))")
    }
}
