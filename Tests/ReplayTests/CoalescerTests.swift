import APNsCore
@testable import Replay
import XCTest

final class CoalescerTests: XCTestCase {
    final class Source: PushSource {
        var items: [(token: String, at: Int64, body: String)]
        var i = 0
        init(_ items: [(String, Int64, String)]) { self.items = items.map { (token: $0.0, at: $0.1, body: $0.2) } }
        func next(into push: inout OutgoingPush) -> Bool {
            guard i < items.count else { return false }
            let it = items[i]
            i += 1
            push.deviceToken = it.token
            push.body = Array(it.body.utf8)
            push.recordedMillis = it.at
            return true
        }
    }

    final class Books: OutcomeSink, CoalescingAccounting {
        var coalesced = 0
        var staleness: [Int64] = []
        func record(_ outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64) {
            if outcome == .notSent(.coalesced) { coalesced += 1 }
        }
        func coalescingStaleness(millis: Int64) { staleness.append(millis) }
    }

    func drain(_ items: [(String, Int64, String)], window: Int64) -> (out: [(String, Int64, String)], books: Books, saved: Int) {
        let books = Books()
        let c = Coalescer(Source(items), windowMillis: window, outcomes: books, accounting: books)
        var push = OutgoingPush()
        var out: [(String, Int64, String)] = []
        while c.next(into: &push) { out.append((push.deviceToken, push.recordedMillis, String(decoding: push.body, as: UTF8.self))) }
        return (out, books, c.saved)
    }

    func testUpdatesWithinTheWindowCollapseToTheLatest() {
        let r = drain([("A", 0, "a0"), ("A", 100, "a1"), ("A", 200, "a2"), ("B", 210, "b0"), ("A", 260, "a3"), ("C", 600, "c0")], window: 250)
        XCTAssertEqual(r.out.map(\.2), ["a2", "b0", "a3", "c0"])
        // Released when the window the first update opened closes.
        XCTAssertEqual(r.out.map(\.1), [250, 460, 510, 850])
        XCTAssertEqual(r.saved, 2)
        XCTAssertEqual(r.books.coalesced, 2)
        // Counts add up: every input is either released or saved.
        XCTAssertEqual(r.out.count + r.saved, 6)
        // Staleness of every update: release - recorded.
        XCTAssertEqual(r.books.staleness.sorted(), [50, 150, 250, 250, 250, 250])
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
        XCTAssertEqual(r.books.staleness.max(), 250)
    }
}
