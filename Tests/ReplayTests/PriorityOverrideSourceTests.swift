import APNsCore
import Replay
import TestSupport
import XCTest

/// The priority override reaches the pushes of its scope whatever their events chose, and counts them.
final class PriorityOverrideSourceTests: XCTestCase {
    func testItReachesItsScopeAndCountsWhatItChanged() {
        // Kind 0 alerts at 10, kind 1 Live Activity updates at 10 and 5 in turn.
        let inner = FakePushSource(count: 6) { n, push in
            push.kind = Int32(n % 2)
            push.priority = n % 4 == 1 ? .powerAware : .immediate
        }
        let source = PriorityOverrideSource(inner, override: PriorityOverride(priority: .powerAware, scope: .pushType(.liveactivity)),
                                            kinds: [.alert, .liveactivity])
        var push = OutgoingPush()
        var priorities: [Int] = []
        while source.next(into: &push) == .push { priorities.append(push.priority.rawValue) }
        XCTAssertEqual(priorities, [10, 5, 10, 5, 10, 5])
        XCTAssertEqual(source.reached, 3, "the three Live Activity pushes")
        XCTAssertEqual(source.changed, 1, "one of them was at 10; two had chosen 5 already")
    }

    func testItsTextAndItsRefusals() throws {
        XCTAssertEqual(try PriorityOverride(text: "5"), PriorityOverride(priority: .powerAware))
        XCTAssertEqual(try PriorityOverride(text: "10:all").description, "10")
        XCTAssertEqual(try PriorityOverride(text: "1:liveactivity").description, "1:liveactivity")
        XCTAssertThrowsError(try PriorityOverride(text: "7")) { XCTAssertEqual("\($0)", "'7' must start with 1, 5 or 10, like 5 or 5:liveactivity") }
        XCTAssertThrowsError(try PriorityOverride(text: "5:")) {
            XCTAssertTrue("\($0)".hasPrefix("'5:' has the scope '': the scope is all or a push type (alert, "), "\($0)")
        }
        let json = try JSONEncoder().encode(PriorityOverride(priority: .immediate, scope: .pushType(.alert)))
        XCTAssertEqual(String(decoding: json, as: UTF8.self), "\"10:alert\"")
        XCTAssertEqual(try JSONDecoder().decode(PriorityOverride.self, from: json), PriorityOverride(priority: .immediate, scope: .pushType(.alert)))
    }
}
