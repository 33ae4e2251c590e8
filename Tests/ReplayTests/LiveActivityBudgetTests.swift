import APNsCore
import Replay
import TestSupport
import XCTest

/// The Live Activity budget in recorded time, in memory: a rolling hour per activity token.
final class LiveActivityBudgetTests: XCTestCase {
    private let minute: Int64 = 60_000

    func testAnUpdatePastTheBudgetWithinAnHourIsThrottledAndUsesNoPlace() {
        var b = LiveActivityBudget(perHour: 3)
        // (token, recorded minute, within the budget?)
        let table: [(String, Int64, Bool)] = [
            ("a", 0, true), ("a", 10, true), ("a", 20, true),
            ("a", 30, false),                  // 4th within the hour
            ("b", 30, true),                   // another activity has its own budget
            ("a", 59, false),                  // still within an hour of minute 0
            ("a", 60, true),                   // minute 0's place freed exactly an hour later
            ("a", 61, false),                  // minutes 10, 20, 60 hold the places (the throttled ones took none)
            ("a", 80, true),                   // minute 10's freed at 70... and 20's at 80: one place
        ]
        for (token, minuteAt, within) in table {
            XCTAssertEqual(b.record(token: token, atMillis: minuteAt * minute), within, "\(token) at minute \(minuteAt)")
        }
        XCTAssertEqual(b.updates, table.count)
        XCTAssertEqual(b.throttled, table.filter { !$0.2 }.count)
        XCTAssertEqual(b.throttledTokens, ["a"])
    }

    func testTheCountDependsOnRecordedTimeOnly() {
        // The same updates counted in any interleaving of tokens give the same count: nothing reads a clock.
        var first = LiveActivityBudget(perHour: 2), second = LiveActivityBudget(perHour: 2)
        let updates: [(String, Int64)] = (0..<300).map { i in (["x", "y", "z"][i % 3], Int64(i) * 7 * minute) }
        for (t, at) in updates { first.record(token: t, atMillis: at) }
        for token in ["z", "x", "y"] { for (t, at) in updates where t == token { second.record(token: t, atMillis: at) } }
        XCTAssertEqual(first.throttled, second.throttled)
        XCTAssertGreaterThan(first.throttled, 0)
    }

    func testTheSourceCountsPriority10PushesAsTheyPassAndChangesNothing() {
        let token = String(repeating: "ab", count: 32)
        let source = LiveActivityBudgetSource(FakePushSource(count: 5) { n, push in
            push.deviceToken = token
            push.priority = n == 4 ? .powerAware : .immediate
            push.recordedMillis = Int64(n) * self.minute
        }, perHour: 2)
        var push = OutgoingPush()
        var passed = 0
        while source.next(into: &push) == .push { passed += 1 }
        XCTAssertEqual(passed, 5, "counting never drops a push")
        XCTAssertEqual(source.budget.updates, 4, "priority 5 is outside the budget")
        XCTAssertEqual(source.budget.throttled, 2)
    }
}
