import APNsCore
import Foundation
import Replay
import XCTest
@testable import Harness

/// The takeout example (profiles/examples/takeout/), planned line by line against the pushes worked out by
/// hand from its recording: the kitchen alerts, the order's Live Activity with its computed pickup and
/// dismissal times and its expiration after the send, the ready alert to the customer's iOS devices only, a
/// status for an order never created (one unknown_target) and an order at a restaurant without tablets.
final class TakeoutExampleTests: XCTestCase {
    private let phone = String(repeating: "a1", count: 32), bo = String(repeating: "b1", count: 32)
    private let kitchen1 = String(repeating: "e1", count: 32), kitchen2 = String(repeating: "e2", count: 32)
    private let kitchen3 = String(repeating: "e3", count: 32), activity = String(repeating: "ac", count: 32)

    /// One planned push as the plan line shows it: the stream line, the rule, the token or why not sent, the
    /// priority, the header values it carries, and its payload's bytes.
    private struct Line: Equatable {
        var line: Int, rule: String, to: String, priority: Int
        var collapseID: String? = nil, expirationAfterSend: Int? = nil, payload: String? = nil
    }

    private func newOrder(_ line: Int, _ token: String, _ id: Int, _ body: String) -> Line {
        Line(line: line, rule: "new_order", to: token, priority: 10, collapseID: "order-\(id)",
             payload: #"{"aps":{"alert":{"title":"New order #\#(id)","body":"\#(body)"},"sound":"default"}}"#)
    }

    private func status(_ line: Int, priority: Int, _ aps: String) -> Line {
        Line(line: line, rule: "activity", to: activity, priority: priority, expirationAfterSend: 600, payload: #"{"aps":\#(aps)}"#)
    }

    private func ready(_ line: Int, _ token: String, _ id: Int, _ restaurant: String) -> Line {
        Line(line: line, rule: "ready", to: token, priority: 10, collapseID: "order-\(id)",
             payload: #"{"aps":{"alert":{"title":"Order #\#(id) is ready","body":"\#(restaurant)"},"sound":"default"}}"#)
    }

    /// 12:MM:00Z on 2025-06-01, in epoch seconds.
    private func at(_ minute: Int) -> Int { 1_748_779_200 + minute * 60 }

    private var expected: [Line] {
        [
            newOrder(7, kitchen1, 501, "2 items, first: maki"),
            newOrder(7, kitchen2, 501, "2 items, first: maki"),
            // accepted, 20 minutes to pickup: priority 5, the pickup time computed from the event's time.
            status(9, priority: 5, #"{"timestamp":\#(at(12)),"event":"update","content-state":{"status":"accepted","items":2,"pickupAt":\#(at(12) + 1200)}}"#),
            newOrder(10, kitchen3, 502, "1 item: carbonara"),
            // Line 11: order 502 has no activity token yet and is not ready: no rule holds.
            status(12, priority: 10, #"{"timestamp":\#(at(20)),"event":"update","content-state":{"status":"ready","items":2,"pickupAt":\#(at(20))}}"#),
            ready(12, phone, 501, "sakura-sushi"),  // not Ann's Android tablet
            Line(line: 13, rule: "activity", to: "unknown_target", priority: 10),  // order 999: one for the event
            ready(14, bo, 502, "pasta-place"),
            status(15, priority: 10,
                   #"{"timestamp":\#(at(30)),"event":"end","content-state":{"status":"picked_up","items":2},"dismissal-date":\#(at(30) + 900)}"#),
            Line(line: 16, rule: "new_order", to: "no_recipients", priority: 10),  // noodle-bar has no tablets
        ]
    }

    func testThePlanIsThePushesWorkedOutByHand() throws {
        let fixture = try HarnessFixture(self)
        let profile = HarnessFixture.repo.appendingPathComponent("profiles/examples/takeout/takeout.yaml").path
        let config = try ReplayRun.configuration(RunRequest(profilePath: profile))
        let path = fixture.path("takeout-plan.ndjson")
        let recipes = try Workloads.recipes(for: config)
        let tally = try PushPlan.walk(try PushPlan.source(config, recipes: recipes),
                                      lines: try PlanLineWriter(path: path, config: config, recipes: recipes, showTokens: true))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let got = try lines.map { raw -> Line in
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
            var line = Line(line: try XCTUnwrap((json["event"] as? [String: Any])?["line"] as? Int), rule: json["rule"] as? String ?? "?",
                            to: json["token"] as? String ?? json["not_sent"] as? String ?? "?", priority: json["priority"] as? Int ?? 0)
            line.collapseID = json["collapse_id"] as? String
            line.expirationAfterSend = json["expiration_after_send"] as? Int
            // The payload's bytes as planned, not re-encoded.
            if let r = raw.range(of: #""payload":"#) { line.payload = String(raw[r.upperBound...].dropLast()) }
            return line
        }
        XCTAssertEqual(got.count, expected.count)  // line 17, a fourth kitchen tablet, plans nothing
        for (i, (g, e)) in zip(got, expected).enumerated() { XCTAssertEqual(g, e, "plan line \(i + 1)") }
        XCTAssertTrue(tally.balanced)
        XCTAssertEqual(tally.events.pushesByRule, ["order.placed": ["new_order": 4], "order.status": ["activity": 4, "ready": 2]])
    }
}
