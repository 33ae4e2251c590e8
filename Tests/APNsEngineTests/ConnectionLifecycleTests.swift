@testable import APNsEngine
import XCTest

/// The connection state machine, driven by events and a clock in nanoseconds: no sockets.
final class ConnectionLifecycleTests: XCTestCase {
    let s: UInt64 = 1_000_000_000

    func testOneStreamUntilTheFirstAuthenticatedAnswerThenTheWindow() {
        var m = ConnectionLifecycle(now: 0)
        XCTAssertEqual(m.state, .warmingUp)
        XCTAssertEqual(m.streamLimit(window: 100), 1)
        XCTAssertEqual(m.handle(.connectionOpened, now: 1), .none)
        XCTAssertEqual(m.handle(.authenticatedAnswer, now: 2), .resume)
        XCTAssertEqual(m.streamLimit(window: 100), 100)
        XCTAssertEqual(m.handle(.authenticatedAnswer, now: 3), .none)
    }

    func testALossAfterManyAnswersIsANormalEnd() {
        // A server that sends GOAWAY every 10 s after hundreds of answers: reconnect at once, every time.
        var m = ConnectionLifecycle(now: 0)
        var t: UInt64 = 0
        for round in 0..<5 {
            XCTAssertEqual(m.handle(.connectionOpened, now: t), .none)
            for i in 0..<100 { _ = m.handle(.authenticatedAnswer, now: t + UInt64(i)) }
            t += 10 * s
            XCTAssertEqual(m.handle(.connectionLost, now: t), .none, "round \(round): no hold")
            XCTAssertEqual(m.consecutiveFailures, 0)
        }
        XCTAssertEqual(m.holds, 0)
        // 99 answers is not enough: a failure.
        _ = m.handle(.connectionOpened, now: t)
        for i in 0..<99 { _ = m.handle(.authenticatedAnswer, now: t + UInt64(i)) }
        XCTAssertEqual(m.handle(.connectionLost, now: t + 5 * s), .hold(untilNanos: t + 6 * s))
    }

    func testAConnectionThatDiesYoungHoldsSendsWithGrowingBackoffUpTo60s() {
        var m = ConnectionLifecycle(now: 0)
        _ = m.handle(.connectionOpened, now: 0)
        _ = m.handle(.authenticatedAnswer, now: 1)
        // Lost after 5 s: hold 1 s; every transfer on it failing says so once only.
        XCTAssertEqual(m.handle(.connectionLost, now: 5 * s), .hold(untilNanos: 6 * s))
        XCTAssertEqual(m.handle(.connectionLost, now: 5 * s + 10), .none)
        XCTAssertEqual(m.streamLimit(window: 100), 0)
        XCTAssertEqual(m.wakeNanos, 6 * s)
        XCTAssertEqual(m.handle(.tick, now: 6 * s - 1), .none)
        XCTAssertEqual(m.handle(.tick, now: 6 * s), .resume)
        XCTAssertEqual(m.streamLimit(window: 100), 1, "warm up again on the new connection")
        XCTAssertEqual(m.handle(.connectionOpened, now: 6 * s), .none, "the reconnect the hold was for")
        _ = m.handle(.authenticatedAnswer, now: 6 * s + 1)
        // Dies young again: 2 s, then 4 s … capped at 60 s.
        var t = 7 * s
        var holds: [UInt64] = []
        for _ in 0..<8 {
            guard case let .hold(until) = m.handle(.connectionLost, now: t) else { return XCTFail("expected a hold") }
            holds.append((until - t) / s)
            t = until
            XCTAssertEqual(m.handle(.tick, now: t), .resume)
            _ = m.handle(.connectionOpened, now: t)
        }
        XCTAssertEqual(holds, [2, 4, 8, 16, 32, 60, 60, 60])
        XCTAssertEqual(m.consecutiveFailures, 9)
        XCTAssertEqual(m.reconnects, 9)
    }

    func testAConnectionThatLivedLongReconnectsAtOnceAndResetsTheBackoff() {
        var m = ConnectionLifecycle(now: 0)
        _ = m.handle(.connectionOpened, now: 0)
        guard case .hold = m.handle(.connectionLost, now: 1 * s) else { return XCTFail("young connection: hold") }
        _ = m.handle(.tick, now: 3 * s)
        _ = m.handle(.connectionOpened, now: 3 * s)
        _ = m.handle(.authenticatedAnswer, now: 3 * s)
        XCTAssertEqual(m.handle(.connectionLost, now: 100 * s), .none)
        XCTAssertEqual(m.consecutiveFailures, 0)
        XCTAssertEqual(m.state, .warmingUp)
        XCTAssertEqual(m.streamLimit(window: 50), 1)
    }

    func testASilentReconnectByLibcurlIsJudgedToo() {
        // GOAWAY: libcurl moved on to a new connection by itself; only the opening shows.
        var m = ConnectionLifecycle(initialConnections: 2, now: 0)
        _ = m.handle(.connectionOpened, now: 0)
        _ = m.handle(.connectionOpened, now: 0)
        _ = m.handle(.authenticatedAnswer, now: 1)
        XCTAssertEqual(m.handle(.connectionOpened, now: 2 * s), .hold(untilNanos: 3 * s), "a connection 2 s old went away")
        _ = m.handle(.tick, now: 3 * s)
        _ = m.handle(.authenticatedAnswer, now: 3 * s)
        XCTAssertEqual(m.handle(.connectionOpened, now: 300 * s), .none, "after 297 s it had lived long enough")
        XCTAssertEqual(m.state, .open)
    }

    func testAnIdleConnectionIsPingedAboutHourly() {
        var m = ConnectionLifecycle(now: 0)
        _ = m.handle(.connectionOpened, now: 0)
        _ = m.handle(.authenticatedAnswer, now: 0)
        XCTAssertEqual(m.handle(.tick, now: 3599 * s), .none)
        XCTAssertEqual(m.handle(.tick, now: 3600 * s), .ping)
        XCTAssertEqual(m.handle(.tick, now: 3601 * s), .none, "not again before another hour")
        XCTAssertEqual(m.handle(.tick, now: 7200 * s), .ping)
        _ = m.handle(.sent, now: 7300 * s)
        XCTAssertEqual(m.handle(.tick, now: 10_800 * s), .none, "busy an hour ago: not idle long enough")
        XCTAssertEqual(m.pings, 2)
    }
}
