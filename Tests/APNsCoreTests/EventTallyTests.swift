import APNsCore
import XCTest

/// Every event read ends in exactly one class, and the tally knows how many pushes the run must account for.
final class EventTallyTests: XCTestCase {
    static let deviceToken = "80b3c5a1d2e4f60718293a4b5c6d7e8f80b3c5a1d2e4f60718293a4b5c6d7e8f"

    func mixed() -> EventTally {
        var t = EventTally()
        t.record(kind: "leave.created", .producedPushes(1))
        t.record(kind: "leave.status", .producedPushes(3))
        t.record(kind: "leave.token", .stateOnly)
        t.record(kind: "leave.status", .invalid(cause: "unknown_request"))
        t.recordBadLine(line: 7, cause: "bad_json", detail: "unexpected end of line after \"token\":\"\(Self.deviceToken)\"")
        return t
    }

    func testEventsBalanceAcrossEveryClass() {
        let t = mixed()
        XCTAssertEqual(t.read, 5)
        XCTAssertEqual(t.producedPushes, 2)
        XCTAssertEqual(t.pushesPlanned, 4)
        XCTAssertEqual(t.stateOnly, 1)
        XCTAssertEqual(t.invalid, ["unknown_request": 1, "bad_json": 1])
        XCTAssertEqual(t.invalidTotal, 2)
        XCTAssertEqual(t.byKind, ["leave.created": 1, "leave.status": 2, "leave.token": 1, "?": 1])
        XCTAssertTrue(t.balanced)
        XCTAssertEqual(t.expectedPushes, 6, "4 planned by events + one per invalid event")
        XCTAssertTrue(EventTally().balanced)
    }

    func testBadLinesAreCountedAndTheFirstHundredKept() {
        var t = EventTally()
        for line in 1...150 {
            t.recordBadLine(line: line, cause: line.isMultiple(of: 2) ? "bad_json" : "missing_field", detail: "line \(line)")
        }
        t.recordBadLine(line: 151, cause: "bad_json", detail: "has a kind", kind: "notify")
        XCTAssertEqual(t.read, 151)
        XCTAssertEqual(t.invalid, ["bad_json": 76, "missing_field": 75])
        XCTAssertEqual(t.byKind, ["?": 150, "notify": 1])
        XCTAssertEqual(t.badLineSamples.count, EventTally.badLineSampleLimit)
        XCTAssertEqual(t.badLineSamples.first, EventTally.BadLine(line: 1, cause: "missing_field", detail: "line 1"))
        XCTAssertEqual(t.badLineSamples.last?.line, 100)
        XCTAssertTrue(t.balanced)
    }

    func testBadLineDetailsHaveTokensRedactedAndAreBounded() {
        var t = EventTally()
        t.recordBadLine(line: 3, cause: "bad_json", detail: "{\"token\":\"\(Self.deviceToken)\",\n\"kind\":")
        t.recordBadLine(line: 4, cause: "too_long", detail: String(repeating: "x", count: 5_000))
        t.recordBadLine(line: 5, cause: "missing_field", detail: "activity_id E0D6A1B2-1111-2222-3333-444455556666 has no token")
        let detail = t.badLineSamples[0].detail
        XCTAssertFalse(detail.contains(Self.deviceToken))
        XCTAssertFalse(detail.contains("80b3c5a1"))
        XCTAssertTrue(detail.contains("<token>"), detail)
        XCTAssertFalse(detail.contains("\n"))
        XCTAssertEqual(t.badLineSamples[1].detail.count, EventTally.badLineDetailLimit)
        XCTAssertTrue(t.badLineSamples[1].detail.hasSuffix("…"))
        XCTAssertEqual(t.badLineSamples[2].detail, "activity_id E0D6A1B2-1111-2222-3333-444455556666 has no token", "UUIDs are not tokens")
    }

    func testPlusAddsEveryClassAndCapsSamples() {
        let sum = mixed() + mixed()
        XCTAssertEqual(sum.read, 10)
        XCTAssertEqual(sum.pushesPlanned, 8)
        XCTAssertEqual(sum.expectedPushes, 12)
        XCTAssertEqual(sum.byKind["leave.status"], 4)
        XCTAssertEqual(sum.badLineSamples.count, 2)
        XCTAssertTrue(sum.balanced)
        var a = EventTally(), b = EventTally()
        for line in 1...80 { a.recordBadLine(line: line, cause: "bad_json", detail: "") }
        for line in 81...160 { b.recordBadLine(line: line, cause: "bad_json", detail: "") }
        let capped = a + b
        XCTAssertEqual(capped.invalid["bad_json"], 160)
        XCTAssertEqual(capped.badLineSamples.count, EventTally.badLineSampleLimit)
        XCTAssertEqual(capped.badLineSamples.last?.line, 100)
    }
}
