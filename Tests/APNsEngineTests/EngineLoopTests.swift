import APNsCore
@testable import APNsEngine
import XCTest

/// The engine's run loop as a state machine, tested as values: what it decides at the run's end and grace,
/// at a requested stop and its drain, for a push just taken, and between turns (finish, go again, wait
/// until what).
final class EngineLoopTests: XCTestCase {
    let s: UInt64 = 1_000_000_000
    /// A loop started at 100 s with a 10-s duration, a 5-s grace, a 10-s fail-fast window and 0.2 ms send-ahead.
    func timed() -> EngineLoop {
        EngineLoop(started: 100 * s, durationSeconds: 10, graceSeconds: 5, failFastSeconds: 10, sendAheadNanos: 200_000)
    }

    let noStop = (requested: false, cause: NotSentCause.runStopped, drainDeadline: UInt64.max)

    func testAPushIsSentWhenDueStagedWhenLaterAndAfterTheEndOnceTheEndPassed() {
        let loop = timed()
        XCTAssertEqual(loop.admit(intended: 0, now: 101 * s), .send, "no schedule: as soon as possible")
        XCTAssertEqual(loop.admit(intended: 101 * s + 100_000, now: 101 * s), .send, "within the send-ahead")
        XCTAssertEqual(loop.admit(intended: 102 * s, now: 101 * s), .stage)
        XCTAssertEqual(loop.admit(intended: 111 * s, now: 105 * s), .stage, "before the end, a push due after it still waits")
        XCTAssertEqual(loop.admit(intended: 111 * s, now: 110 * s), .afterEnd)
        XCTAssertEqual(loop.admit(intended: 0, now: 110 * s), .afterEnd, "past the end, an unscheduled push is not due before it")
        XCTAssertEqual(loop.admit(intended: 109 * s, now: 111 * s), .send, "due before the end: sent in the grace")
    }

    func testAtTheEndAStagedPushDueAfterItEndsAfterEndAndAtTheGracesEndTheRestStops() {
        var loop = timed()
        XCTAssertEqual(loop.stopActions(now: 105 * s, staged: 112 * s, retriesWaiting: true, inFlight: 3, stop: noStop), .init())
        XCTAssertEqual(loop.stopActions(now: 110 * s, staged: 112 * s, retriesWaiting: true, inFlight: 3, stop: noStop), .init(staged: .afterEnd))
        XCTAssertEqual(loop.phase, .running)
        // The grace's end: what waits to be resent and a push staged from before the end end now.
        let atGraceEnd = loop.stopActions(now: 115 * s, staged: 109 * s, retriesWaiting: true, inFlight: 3, stop: noStop)
        XCTAssertEqual(atGraceEnd, .init(staged: .runStopped, retries: .runStopped), "due before the end: it stopped, not after the end")
        XCTAssertEqual(loop.phase, .stopped(cause: .runStopped, endedAt: 110 * s))
        XCTAssertTrue(loop.exhausted)
        XCTAssertEqual(loop.stopActions(now: 116 * s, staged: nil, retriesWaiting: false, inFlight: 3, stop: noStop), .init(), "handled once")
    }

    func testAtTheGracesEndNothingStopsWhenNothingIsPending() {
        var loop = timed()
        loop.sourceEnded()
        XCTAssertEqual(loop.stopActions(now: 120 * s, staged: nil, retriesWaiting: false, inFlight: 2, stop: noStop), .init())
        XCTAssertEqual(loop.phase, .sourceEnded, "the source ended before the grace did: nothing was cut")
    }

    func testARequestedStopEndsStagedAndWaitingPushesForItsCauseThenGivesUpInFlightAtTheDrainDeadline() {
        var loop = EngineLoop(started: 0, durationSeconds: nil, graceSeconds: 5, failFastSeconds: 10, sendAheadNanos: 0)
        let stop = (requested: true, cause: NotSentCause.interrupted, drainDeadline: 20 * s)
        XCTAssertEqual(loop.stopActions(now: 10 * s, staged: 30 * s, retriesWaiting: true, inFlight: 4, stop: stop),
                       .init(staged: .interrupted, retries: .interrupted))
        XCTAssertEqual(loop.phase, .stopped(cause: .interrupted, endedAt: nil))
        XCTAssertEqual(loop.stopActions(now: 19 * s, staged: nil, retriesWaiting: false, inFlight: 4, stop: stop), .init())
        XCTAssertEqual(loop.stopActions(now: 20 * s, staged: nil, retriesWaiting: false, inFlight: 4, stop: stop), .init(inFlight: .interrupted))
        XCTAssertEqual(loop.stopActions(now: 21 * s, staged: nil, retriesWaiting: false, inFlight: 0, stop: stop), .init())
    }

    func testFailFastGivesUpOnlyWhenNothingWasEverAnswered() {
        var loop = timed()
        loop.transportFailure(at: 101 * s, code: 7)
        loop.transportFailure(at: 105 * s, code: 28)
        XCTAssertEqual(loop.reachability, .failingSince(101 * s, lastError: 28), "the window starts at the first failure; the last error is kept")
        XCTAssertEqual(loop.lastUnreachableError, 28)
        XCTAssertFalse(loop.givesUp(now: 110 * s, stopRequested: false))
        XCTAssertTrue(loop.givesUp(now: 111 * s, stopRequested: false), "10 s after the first failure")
        XCTAssertFalse(loop.givesUp(now: 111 * s, stopRequested: true), "a stop already requested is not requested again")
        loop.answer()
        XCTAssertEqual(loop.reachability, .answered)
        XCTAssertNil(loop.lastUnreachableError, "answered: nothing is unreachable")
        XCTAssertFalse(loop.givesUp(now: 200 * s, stopRequested: false))
        var next = timed()
        next.carryOver(from: loop)
        next.transportFailure(at: 300 * s, code: 7)
        XCTAssertFalse(next.givesUp(now: 400 * s, stopRequested: false), "an earlier run's answer counts")
    }

    func end(_ now: UInt64, staged: UInt64? = nil, room: Bool = true, inFlight: Int = 0, retries: UInt64? = nil,
             lifecycle: UInt64? = nil, completed: Bool = false, stop: Bool = false) -> EngineLoop.TurnEnd {
        .init(now: now, staged: staged, room: room, inFlight: inFlight, retriesWaiting: retries != nil, nextRetry: retries,
              lifecycleWake: lifecycle, completed: completed, stopRequested: stop, drainDeadline: now + 3 * s)
    }

    func testBetweenTurnsTheLoopFinishesGoesAgainOrWaitsForTheEarliestThingDue() {
        var loop = EngineLoop(started: 0, durationSeconds: nil, graceSeconds: 5, failFastSeconds: 10, sendAheadNanos: 200_000)
        XCTAssertEqual(loop.next(end(s, completed: true)), .again, "freed slots are refilled before waiting")
        XCTAssertEqual(loop.next(end(s, staged: 2 * s, inFlight: 5, completed: true)), .wait(due: 2 * s - 200_000),
                       "a staged push is due a send-ahead early")
        XCTAssertEqual(loop.next(end(s, staged: 2 * s, room: false, inFlight: 5)), .wait(due: nil), "no room: its time does not matter")
        XCTAssertEqual(loop.next(end(s, staged: 5 * s, inFlight: 1, retries: 3 * s, lifecycle: 4 * s)), .wait(due: 3 * s))
        XCTAssertEqual(loop.next(end(s, room: false, inFlight: 5, retries: s / 2)), .wait(due: nil),
                       "a resend due with no room waits for an answer, not for its time")
        XCTAssertEqual(loop.next(end(s, inFlight: 1, stop: true)), .wait(due: 4 * s), "a stop's drain deadline")
        loop.transportFailure(at: s / 2, code: 7)
        XCTAssertEqual(loop.next(end(s, inFlight: 1)), .wait(due: s / 2 + 10 * s), "the fail-fast window's end")
        loop.sourceEnded()
        XCTAssertEqual(loop.next(end(s, inFlight: 1, completed: true)), .wait(due: s / 2 + 10 * s), "ended: no refill")
        XCTAssertEqual(loop.next(end(s)), .finish)
        XCTAssertEqual(loop.next(end(s, retries: 9 * s)), .wait(due: 9 * s), "a resend still waits")
    }

    func testATimedRunWakesAtItsEndThenAtItsGracesEnd() {
        let loop = timed()
        XCTAssertEqual(loop.next(end(105 * s, inFlight: 1)), .wait(due: 110 * s))
        XCTAssertEqual(loop.next(end(111 * s, inFlight: 1)), .wait(due: 115 * s))
        XCTAssertEqual(loop.next(end(116 * s, inFlight: 1)), .wait(due: nil), "past the grace with nothing to stop: only answers")
    }

    func testTheLoopGoesRoundWithoutWaitingABoundedNumberOfTimesInARow() {
        var loop = timed()
        for _ in 0..<EngineLoop.turnsWithoutWaitLimit { XCTAssertTrue(loop.mayGoRoundWithoutWaiting()) }
        XCTAssertFalse(loop.mayGoRoundWithoutWaiting(), "then a wait, so the sockets are read")
        loop.waited()
        XCTAssertTrue(loop.mayGoRoundWithoutWaiting())
    }

    func testLibcurlsQueuedWorkIsPerformedAtMostTwiceInARowBeforeAWait() {
        var loop = timed()
        var asked = 0
        let busy = { () -> Bool in asked += 1; return true }
        XCTAssertTrue(loop.goesRoundInsteadOfWaiting(busy))
        XCTAssertTrue(loop.goesRoundInsteadOfWaiting(busy))
        XCTAssertFalse(loop.goesRoundInsteadOfWaiting(busy), "the third turn waits")
        XCTAssertEqual(asked, 2, "libcurl is not asked when no busy turn is left")
        XCTAssertTrue(loop.goesRoundInsteadOfWaiting(busy), "a wait resets the count")
        XCTAssertFalse(loop.goesRoundInsteadOfWaiting { false })
    }
}
