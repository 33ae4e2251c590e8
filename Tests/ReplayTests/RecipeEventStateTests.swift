import APNsCore
@testable import Replay
import TestSupport
import XCTest

/// The recipe interpreter's cycle of one event as values: each transition of ``RecipeEventState`` from each
/// point, in memory; then the points ``RecipeRules`` passes through for a line that matches no event, one that
/// plans, one that holds no rule and one that fails.
final class RecipeEventStateTests: XCTestCase {
    private let event = RecipeEventState.Event(rule: 2, line: 7, at: 1_000)
    private let divide = RecipeEventState.Failure(key: "slots.left", fault: ExprFault(column: 5, message: "division by zero"))
    private let overflow = RecipeEventState.Failure(key: "priority", fault: ExprFault(column: 1, message: "integer overflow"))

    func testPlanningKeepsTheRulesLiveEventAndTheEventsFirstFailure() {
        var s = RecipeEventState.idle
        s.begin(event)
        XCTAssertEqual(s, .planning(event, liveEvent: "", failure: nil))
        s.planRule(liveEvent: "end")
        XCTAssertEqual(s.liveEvent, "end")
        XCTAssertEqual(s.token, "", "no push is filled while the event plans")
        s.record(divide)
        s.record(overflow)
        s.planRule(liveEvent: "update")
        XCTAssertEqual(s, .planning(event, liveEvent: "update", failure: divide), "the first failure is kept")
        XCTAssertEqual(s.takeFailure(), divide)
        XCTAssertEqual(s, .failed(event), "an event whose expression failed is a bad line")
        XCTAssertNil(s.takeFailure(), "taken once")
    }

    func testAPlannedEventHandsOutItsPushesEachWithItsOwnFailure() {
        var s = RecipeEventState.idle
        s.begin(event)
        XCTAssertNil(s.takeFailure())
        s.planned(heldNoRule: false)
        XCTAssertEqual(s, .handingOut(event, heldNoRule: false, push: nil))
        s.record(divide)
        XCTAssertEqual(s, .handingOut(event, heldNoRule: false, push: nil), "nothing is evaluated between pushes")
        s.fill(token: "aa", liveEvent: "update")
        XCTAssertEqual([s.token, s.liveEvent], ["aa", "update"])
        XCTAssertFalse(s.pushFailed)
        s.record(divide)
        s.record(overflow)
        XCTAssertEqual(s, .handingOut(event, heldNoRule: false, push: .init(token: "aa", liveEvent: "update", failure: divide)))
        XCTAssertTrue(s.pushFailed)
        s.fill(token: "bb", liveEvent: "end")
        XCTAssertFalse(s.pushFailed, "the next push starts without the last one's failure")
        XCTAssertEqual([s.token, s.liveEvent], ["bb", "end"])
        XCTAssertEqual(s.event, event)
    }

    func testTransitionsThatDoNotApplyAtAPointChangeNothing() {
        var points: [RecipeEventState] = [.idle, .unmatched(countedAs: "nope"), .failed(event),
                                          .handingOut(event, heldNoRule: true, push: nil)]
        for i in points.indices {
            let before = points[i]
            points[i].planRule(liveEvent: "end")
            points[i].record(divide)
            XCTAssertNil(points[i].takeFailure())
            points[i].planned(heldNoRule: false)
            if case .handingOut = before {} else { points[i].fill(token: "aa", liveEvent: "update") }
            XCTAssertEqual(points[i], before, "\(before)")
        }
        var unmatched = RecipeEventState.unmatched(countedAs: nil)
        unmatched.fail()
        XCTAssertEqual(unmatched, .unmatched(countedAs: nil), "a line that matched no event has no event to fail")
        var planning = RecipeEventState.planning(event, liveEvent: "end", failure: divide)
        planning.fail()
        XCTAssertEqual(planning, .failed(event))
    }

    func testHeldNoRuleIsTheHandedOutEventsOnly() {
        XCTAssertTrue(RecipeEventState.handingOut(event, heldNoRule: true, push: nil).heldNoRule)
        for s in [RecipeEventState.idle, .unmatched(countedAs: nil), .planning(event, liveEvent: "", failure: nil), .failed(event),
                  .handingOut(event, heldNoRule: false, push: nil)] {
            XCTAssertFalse(s.heldNoRule, "\(s)")
        }
    }

    // MARK: The points RecipeRules passes through

    private let token = String(repeating: "a1", count: 32)

    private func rules() throws -> RecipeRules {
        let dir = try ScratchFolder.make("recipe-event-state", removedBy: addTeardownBlock)
        try #"{"aps":{"alert":"{{#n}}"}}"#.write(to: dir.appendingPathComponent("t.json"), atomically: true, encoding: .utf8)
        let yaml = """
        recipe: points
        events:
          phone:
            match: {kind: phone}
            fields: {phone_id: string, token: token, level: int}
            upsert: phone
            key: phone_id
            token: token
            push:
              - to: {entity: phone, key: phone_id}
                when: "level >= 0"
                template: t.json
                slots: {n: "10 / level"}
        """
        return RecipeRules(try RecipeLoader.load(yaml: yaml, file: dir.appendingPathComponent("r.yaml").path), priority: .immediate)
    }

    private func record(_ line: Int, _ kind: String, level: Int) throws -> StreamRecord {
        let json = #"{"kind":"\#(kind)","phone_id":"p1","token":"\#(token)","level":\#(level)}"#
        return StreamRecord(line: line, at: 5_000, kind: kind, fields: try FlatJSON.parse(json, line: line))
    }

    func testRecipeRulesPassesThroughEachPointOfTheCycle() throws {
        let r = try rules()
        var push = OutgoingPush(bodyCapacity: 64)
        XCTAssertEqual(r.phase, .idle)
        XCTAssertThrowsError(try r.apply(record(1, "tablet", level: 1)))
        XCTAssertEqual(r.phase, .unmatched(countedAs: "tablet"))
        XCTAssertEqual(r.lastEventName, "tablet")

        XCTAssertEqual(try r.apply(record(2, "phone", level: -1)), 0)
        XCTAssertEqual(r.phase, .handingOut(.init(rule: 0, line: 2, at: 5_000), heldNoRule: true, push: nil))
        XCTAssertTrue(r.lastEventHeldNoRule)

        XCTAssertEqual(try r.apply(record(3, "phone", level: 5)), 1)
        XCTAssertEqual(r.nextPlanned(into: &push), .push)
        XCTAssertEqual(r.phase, .handingOut(.init(rule: 0, line: 3, at: 5_000), heldNoRule: false, push: .init(token: token, liveEvent: "")))
        XCTAssertNil(r.nextPlanned(into: &push))
        XCTAssertEqual(r.lastEventName, "phone")
        XCTAssertFalse(r.lastEventHeldNoRule)

        XCTAssertThrowsError(try r.apply(record(4, "phone", level: 0))) { error in
            XCTAssertEqual("\(error)", "line 4: bad value in field 'events.phone.push[0].slots.n': column 4: division by zero")
        }
        XCTAssertEqual(r.phase, .failed(.init(rule: 0, line: 4, at: 5_000)))
        XCTAssertEqual(r.lastEventName, "phone")
        XCTAssertNil(r.nextPlanned(into: &push), "a bad line hands out nothing")
    }
}
