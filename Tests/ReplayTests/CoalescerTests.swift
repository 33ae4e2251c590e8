import APNsCore
@testable import Replay
import TestSupport
import XCTest

final class CoalescerTests: XCTestCase {
    struct Result {
        var out: [(String, Int64, String)]
        /// Updates superseded, as the coalescer counted them and as it said them (not sent `coalesced`).
        var saved: Int
        var coalesced: Int
        /// Every update's staleness, from the coalescer's histogram.
        var staleness: [UInt64]
        var notSent: [String: Int]
    }

    func drain(_ items: [(String, Int64, String)], window: Int64) -> Result {
        let c = Coalescer(FakePushSource.recorded(items.map { (token: $0.0, at: $0.1, body: $0.2) }), windowMillis: window)
        let d = TestSupport.drain(c)
        var staleness: [UInt64] = []
        for v in c.staleness.recordedValues() { staleness += Array(repeating: v.value, count: Int(v.count)) }
        return Result(out: d.pushes.map { ($0.token, $0.recordedMillis, $0.body) }, saved: c.saved,
                      coalesced: d.notSentByCause["coalesced"] ?? 0, staleness: staleness.sorted(), notSent: d.notSentByCause)
    }

    func testUpdatesWithinTheWindowCollapseToTheLatest() {
        let r = drain([("A", 0, "a0"), ("A", 100, "a1"), ("A", 200, "a2"), ("B", 210, "b0"), ("A", 260, "a3"), ("C", 600, "c0")], window: 250)
        XCTAssertEqual(r.out.map(\.2), ["a2", "b0", "a3", "c0"])
        // Released when the window the first update opened closes.
        XCTAssertEqual(r.out.map(\.1), [250, 460, 510, 850])
        XCTAssertEqual(r.saved, 2)
        XCTAssertEqual(r.coalesced, 2)
        // Counts add up: every input is either released or saved.
        XCTAssertEqual(r.out.count + r.saved, 6)
        // Staleness of every update: release - recorded.
        XCTAssertEqual(r.staleness, [50, 150, 250, 250, 250, 250])
    }

    /// A released update carries how long it was held: the window's end less its own recorded time, which time to
    /// device counts; a push that was not held carries 0.
    func testAReleasedUpdateCarriesHowLongItWasHeld() {
        let c = Coalescer(FakePushSource.recorded([(token: "A", at: 0, body: "a0"), (token: "A", at: 100, body: "a1"), (token: "B", at: 210, body: "b0")]),
                          windowMillis: 250)
        var push = OutgoingPush()
        push.heldMillis = 999
        var held: [Int64] = []
        pulling: while true {
            switch c.next(into: &push) {
            case .push: held.append(push.heldMillis)
            case .end: break pulling
            case .notSent, .idle: continue
            }
        }
        XCTAssertEqual(held, [150, 250], "a1 recorded at 100, released at 250; b0 at 210, released at 460")
    }

    func testDistinctTokensNeverMergeAndOrderIsByWindowOpening() {
        let r = drain((0..<10).map { ("T\($0)", Int64($0 * 10), "x\($0)") }, window: 1000)
        XCTAssertEqual(r.out.map(\.0), (0..<10).map { "T\($0)" })
        XCTAssertEqual(r.saved, 0)
        let times = r.out.map(\.1)
        XCTAssertEqual(times, times.sorted())
    }

    func testABurstOnOneTokenBecomesOnePushPerWindow() {
        // 1,000 updates 10 ms apart on one token, 250 ms window: one push per 250 ms (25 updates each).
        let r = drain((0..<1000).map { ("A", Int64($0 * 10), "u\($0)") }, window: 250)
        XCTAssertEqual(r.out.count, 40)
        XCTAssertEqual(r.saved, 960)
        XCTAssertEqual(r.out.last?.2, "u999")
        XCTAssertEqual(r.staleness.max(), 250)
    }

    func testAbandonGivesBackHeldUpdatesAsNotSent() {
        // Three tokens held in open windows when the run stops: each ends as not sent (run_stopped), and
        // nothing is read from the inner source after that.
        let inner = FakePushSource.recorded([("A", 0, "a0"), ("B", 10, "b0"), ("C", 20, "c0"), ("D", 5_000, "d0"), ("E", 6_000, "e0")])
        let c = Coalescer(inner, windowMillis: 1_000)
        var push = OutgoingPush()
        XCTAssertEqual(c.next(into: &push), .push, "A's window closed when D arrived")
        var given: [NotSentCause] = []
        c.drainAfterAbandon(using: &push) { cause, _ in given.append(cause) }
        // B, C and D were held; E was still in the inner source, which gives it back as not sent too.
        XCTAssertEqual(given, [.runStopped, .runStopped, .runStopped, .runStopped])
        XCTAssertEqual(inner.handedOut, 5)
    }
}
