import APNsCore
@testable import APNsEngine
import APNsSimulator
import Foundation
import TestSupport
import XCTest

/// The engine against the simulator's injected faults: every push ends in exactly one terminal class,
/// none is lost, and retries follow the policy. Backoffs are scaled down to milliseconds; nothing here
/// asserts a time.
final class EngineFaultTests: XCTestCase {
    /// Retries after milliseconds instead of seconds, same shape.
    func fastRetries(_ c: inout EngineConfiguration, attempts: Int = 10) {
        c.retry.initialBackoff = 0.002
        c.retry.tokenBackoff = 0.02
        c.retry.maxBackoff = 0.2
        c.retry.maxAttempts = attempts
        c.lifecycle.reconnectInitial = 0.01
        c.lifecycle.reconnectMax = 0.2
    }

    func tokens(_ n: Int) -> [String] { (0..<n).map { String(format: "%064x", $0 + 1) } }

    /// Asserts that the sink got one outcome per push and returns the count of each class.
    func assertOneOutcomeEach(_ sink: RecordingSink, pushes: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(sink.outcomes.count, pushes, "one outcome per push", file: file, line: line)
    }

    func testGoAwayMidRunLosesNothing() throws {
        let fixture = try SimulatorFixture { $0.faults.goAwayAfterStreams = 300 }
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(streams: 100)
        fastRetries(&config)
        let items = (0..<2000).map { i in FakePushSource.Item(token: tokens(50)[i % 50], body: smallPayload) }
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        assertOneOutcomeEach(sink, pushes: 2000)
        XCTAssertEqual(sink.delivered, 2000, "not delivered: \(sink.outcomes.filter { $0 != .delivered }.prefix(5))")
        let counters = fixture.simulator.counterSnapshot
        XCTAssertEqual(counters.accepted, 2000, "each push accepted once: no duplicates, none lost; retries \(stats.retries), counters \(counters.flattened)")
        XCTAssertGreaterThanOrEqual(counters.goAwaysSent["Shutdown", default: 0], 5)
        XCTAssertGreaterThanOrEqual(stats.connectionsOpened, 6, "reconnected after each GOAWAY")
        XCTAssertEqual(stats.reconnects, stats.connectionsOpened - 1)
        XCTAssertEqual(counters.streamsRefused, 0, "never past the advertised stream limit")
        // Whatever the server did not process came back and was resent: attempts = pushes + retries.
        XCTAssertEqual(stats.sent, 2000 + stats.retriesTotal)
    }

    func testServiceUnavailableBurstsAreRetriedUntilDelivered() throws {
        let fixture = try SimulatorFixture {
            $0.faults.requestFaults[.serviceUnavailable] = 0.25
            $0.faults.requestFaults[.internalServerError] = 0.1
            $0.seed = 7
        }
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(streams: 50)
        fastRetries(&config, attempts: 30)
        let items = (0..<1000).map { i in FakePushSource.Item(token: tokens(20)[i % 20], body: smallPayload) }
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        assertOneOutcomeEach(sink, pushes: 1000)
        XCTAssertEqual(sink.delivered, 1000)
        let counters = fixture.simulator.counterSnapshot
        let unavailable = counters.rejected["ServiceUnavailable", default: 0]
        let internalError = counters.rejected["InternalServerError", default: 0]
        XCTAssertGreaterThan(unavailable, 100)
        XCTAssertGreaterThan(internalError, 20)
        // Every 5xx was retried exactly once more, and counted by its reason.
        XCTAssertEqual(stats.retries["ServiceUnavailable"], unavailable)
        XCTAssertEqual(stats.retries["InternalServerError"], internalError)
        XCTAssertEqual(stats.retriesTotal, unavailable + internalError)
        XCTAssertEqual(counters.requests, 1000 + stats.retriesTotal)
    }

    func testFailuresPastTheAttemptLimitEndAsTheirLastAnswer() throws {
        let fixture = try SimulatorFixture { $0.faults.requestFaults[.serviceUnavailable] = 1 }
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(streams: 10)
        fastRetries(&config, attempts: 3)
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(
            source: FakePushSource.list((0..<20).map { i in .init(token: tokens(20)[i], body: smallPayload) }), sink: sink)
        assertOneOutcomeEach(sink, pushes: 20)
        XCTAssertEqual(sink.rejected, ["ServiceUnavailable": 20])
        XCTAssertEqual(stats.retriesTotal, 40, "3 attempts each: 2 retries")
        XCTAssertEqual(fixture.simulator.counterSnapshot.requests, 60)
    }

    func testTheStallWatchdogGivesUpSilentConnectionsAndRetriesTheirPushes() throws {
        let fixture = try SimulatorFixture {
            $0.faults.requestFaults[.stall] = 0.004
            $0.seed = 11
        }
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(streams: 50)
        fastRetries(&config, attempts: 30)
        // 2 s: a connection with pushes in flight that a busy host leaves unread for 1 s is not silent.
        config.stallTimeout = .seconds(2)
        let items = (0..<1200).map { i in FakePushSource.Item(token: tokens(40)[i % 40], body: smallPayload) }
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        assertOneOutcomeEach(sink, pushes: 1200)
        XCTAssertEqual(sink.delivered, 1200, "nothing waits for the push timeout: \(sink.outcomes.filter { $0 != .delivered }.prefix(5))")
        let counters = fixture.simulator.counterSnapshot
        XCTAssertGreaterThanOrEqual(counters.connectionsStalled, 1, "the fault fired: \(counters.flattened)")
        XCTAssertEqual(stats.stalls, counters.connectionsStalled, "each silenced connection given up once")
        XCTAssertGreaterThanOrEqual(stats.retries["stall", default: 0], counters.connectionsStalled, "the stalled pushes were retried")
        XCTAssertTrue(stats.retries.keys.allSatisfy { $0 == "stall" || $0.hasPrefix("curl_") }, "\(stats.retries)")
        XCTAssertGreaterThanOrEqual(stats.connectionsOpened, 1 + counters.connectionsStalled, "a new connection after each stall")
        XCTAssertEqual(stats.sent, 1200 + stats.retriesTotal)
    }

    func testWithTheWatchdogOffAStalledPushTimesOut() throws {
        let fixture = try SimulatorFixture { $0.faults.requestFaults[.stall] = 1 }
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(streams: 5)
        fastRetries(&config, attempts: 3)
        config.stallTimeout = .zero
        config.pushTimeout = .milliseconds(1500)
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(
            source: FakePushSource.list((0..<3).map { i in .init(token: tokens(3)[i], body: smallPayload) }), sink: sink)
        assertOneOutcomeEach(sink, pushes: 3)
        XCTAssertEqual(sink.outcomes, [.timedOut, .timedOut, .timedOut], "the push timeout ends what nothing watched")
        XCTAssertEqual(stats.stalls, 0)
    }

    func testConnectionResetsAreRetriedWithReconnectBackoff() throws {
        let fixture = try SimulatorFixture {
            $0.faults.requestFaults[.connectionReset] = 0.01
            $0.seed = 3
        }
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(streams: 20)
        fastRetries(&config, attempts: 30)
        let items = (0..<1500).map { i in FakePushSource.Item(token: tokens(30)[i % 30], body: smallPayload) }
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        assertOneOutcomeEach(sink, pushes: 1500)
        XCTAssertEqual(sink.delivered, 1500, "not delivered: \(sink.outcomes.filter { $0 != .delivered }.prefix(5))")
        let counters = fixture.simulator.counterSnapshot
        XCTAssertGreaterThan(counters.connectionsReset, 3)
        XCTAssertGreaterThan(stats.retriesTotal, 0)
        XCTAssertTrue(stats.retries.keys.allSatisfy { $0.hasPrefix("curl_") }, "only transport errors were retried: \(stats.retries)")
        XCTAssertGreaterThanOrEqual(stats.reconnectHolds, 1, "a connection reset young holds sends before reconnecting")
        XCTAssertGreaterThan(stats.reconnects, 3)
        // A reset push may have been processed before the reset: at least one acceptance each, never fewer.
        XCTAssertGreaterThanOrEqual(counters.accepted, 1500)
    }

    func testTooManyRequestsBacksOffThatTokenOnly() throws {
        let fixture = try SimulatorFixture { $0.deviceRegistry.rateLimit = .init(pushes: 5, windowSeconds: 0.2) }
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(streams: 20)
        fastRetries(&config, attempts: 40)
        config.retry.maxElapsed = 60
        let hot = String(repeating: "cd", count: 32)
        let cold = tokens(200)
        // 30 pushes to one token among 200 pushes to 200 others (one each: never over the limit).
        var items: [FakePushSource.Item] = []
        for i in 0..<200 {
            items.append(.init(token: cold[i], body: smallPayload))
            if i % 7 == 0 && items.filter({ $0.token == hot }).count < 30 { items.append(.init(token: hot, body: smallPayload)) }
        }
        while items.filter({ $0.token == hot }).count < 30 { items.append(.init(token: hot, body: smallPayload)) }
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        assertOneOutcomeEach(sink, pushes: 230)
        XCTAssertEqual(sink.delivered, 230, "not delivered: \(sink.rejected)")
        let limited = fixture.simulator.counterSnapshot.rejected["TooManyRequests", default: 0]
        XCTAssertGreaterThan(limited, 0)
        XCTAssertEqual(stats.retries, ["TooManyRequests": limited], "only the hot token's 429s were retried")
        XCTAssertGreaterThan(stats.tokenBackoffs, 0)
    }

    func testUnregisteredTokenIsDeadForTheRestOfTheRun() throws {
        let dead = String(repeating: "de", count: 32)
        let fixture = try SimulatorFixture { $0.deviceRegistry.kill(token: dead) }
        defer { fixture.simulator.stop() }
        // One stream: the 410 comes back before the next push to that token is taken.
        let config = fixture.engineConfiguration(streams: 1)
        let items = [FakePushSource.Item(token: goodToken, body: smallPayload)]
            + (0..<5).map { _ in FakePushSource.Item(token: dead, body: smallPayload) }
            + [FakePushSource.Item(token: goodToken, body: smallPayload)]
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        assertOneOutcomeEach(sink, pushes: 7)
        XCTAssertEqual(sink.delivered, 2)
        XCTAssertEqual(sink.rejected, ["Unregistered": 1])
        XCTAssertEqual(sink.outcomes.filter { $0 == .notSent(.deadToken) }.count, 4)
        XCTAssertEqual(stats.deadTokens, 1)
        XCTAssertEqual(stats.retriesTotal, 0)
        XCTAssertEqual(fixture.simulator.counterSnapshot.requests, 3)
    }

    func testExpiredProviderTokenIsResignedOnceAndRetried() throws {
        let simulatorClock = TestClock()
        let engineClock = TestClock()
        let fixture = try SimulatorFixture { $0.clock = simulatorClock.wallClock }
        defer { fixture.simulator.stop() }
        let tokens = try ProviderTokenCache(key: fixture.key, clock: engineClock.wallClock)
        let engine = try CurlEngine(configuration: fixture.engineConfiguration(streams: 10), tokens: tokens)
        let first = RecordingSink()
        _ = try engine.runOnOwnThread(source: FakePushSource.list((0..<20).map { _ in .init(token: goodToken, body: smallPayload) }), sink: first)
        XCTAssertEqual(first.delivered, 20)

        // An hour and a minute later for APNs; 21 minutes later for the engine, which has not re-signed
        // on its own (refresh every 50 minutes) but may now (the 20-minute rule).
        simulatorClock.advance(61 * 60)
        engineClock.advance(21 * 60)
        let second = RecordingSink()
        let stats = try engine.runOnOwnThread(source: FakePushSource.list((0..<20).map { _ in .init(token: goodToken, body: smallPayload) }), sink: second)
        assertOneOutcomeEach(second, pushes: 20)
        XCTAssertEqual(second.delivered, 20, "rejected: \(second.rejected)")
        let expired = fixture.simulator.counterSnapshot.rejected["ExpiredProviderToken", default: 0]
        XCTAssertGreaterThanOrEqual(expired, 1)
        XCTAssertEqual(stats.retries["ExpiredProviderToken"], expired, "each expired push retried once")
        XCTAssertEqual(stats.providerTokenRefreshes, 1, "one new token for all of them")
        XCTAssertEqual(tokens.signings, 2)
        XCTAssertEqual(fixture.simulator.counterSnapshot.rejected["TooManyProviderTokenUpdates", default: 0], 0)
    }

    func testStreamLimitDroppingToOneAfterRejectionsLosesNothing() throws {
        // APNs was seen lowering a connection's limit to 1 after a rejected push and raising it after the next accept.
        let fixture = try SimulatorFixture { $0.dropStreamLimitAfterRejection = true }
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(streams: 100)
        fastRetries(&config)
        let items = (0..<1500).map { i in FakePushSource.Item(token: i % 50 == 7 ? "0bad" : goodToken, body: smallPayload) }
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(source: FakePushSource.list(items), sink: sink)
        assertOneOutcomeEach(sink, pushes: 1500)
        XCTAssertEqual(sink.rejected, ["BadDeviceToken": 30])
        XCTAssertEqual(sink.delivered, 1470, "not delivered: \(sink.outcomes.filter { $0 != .delivered && $0 != .rejected(.badDeviceToken) }.prefix(5))")
        let counters = fixture.simulator.counterSnapshot
        XCTAssertGreaterThan(counters.streamLimitDrops, 0)
        XCTAssertEqual(counters.accepted, 1470)
        // Streams libcurl opened before the lowered SETTINGS arrived may be refused; those are resent.
        XCTAssertEqual(stats.sent, 1500 + stats.retriesTotal)
    }

    func testStreamLimitOfOneIsHonouredUntilItRises() throws {
        let fixture = try SimulatorFixture { $0.maxConcurrentStreams = 40 }
        defer { fixture.simulator.stop() }
        let sink = RecordingSink()
        let stats = try fixture.engine(fixture.engineConfiguration(streams: 100))
            .runOnOwnThread(source: FakePushSource.list((0..<2000).map { _ in .init(token: goodToken, body: smallPayload) }), sink: sink)
        XCTAssertEqual(sink.delivered, 2000)
        let counters = fixture.simulator.counterSnapshot
        XCTAssertEqual(counters.streamsRefused, 0, "no stream past the limit of 1, then of 40")
        XCTAssertEqual(counters.streamLimitRaises, 1, "\(counters.text)")
        XCTAssertGreaterThan(stats.peakInFlight, 1)
    }
}

/// A wall clock the test moves.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double = 1_700_000_000
    func advance(_ by: Double) { lock.lock(); seconds += by; lock.unlock() }
    var now: Double { lock.lock(); defer { lock.unlock() }; return seconds }
    var wallClock: WallClock { WallClock { [self] in self.now } }
}

final class IdleConnectionTests: XCTestCase {
    func testAnIdleConnectionIsPingedAndKept() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration()
        config.lifecycle.pingInterval = 0.25
        let sink = RecordingSink()
        let stats = try fixture.engine(config).runOnOwnThread(source: FakePushSource.spaced(3, gapSeconds: 0.7, token: goodToken, body: smallPayload),
            sink: sink)
        XCTAssertEqual(sink.delivered, 3)
        XCTAssertGreaterThanOrEqual(stats.pings, 2, "idle 0.7 s twice with a 0.25 s ping interval")
        XCTAssertEqual(stats.connectionsOpened, 1, "the pinged connection was kept and reused")
        XCTAssertEqual(fixture.simulator.counterSnapshot.connectionsOpened, 1)
        XCTAssertEqual(fixture.simulator.counterSnapshot.pingsReceived, stats.pings, "each PING asked for reached the server")
    }
}
