import APNsCore
import Foundation
@testable import Replay
import XCTest

/// The shipped order-changes recipe (profiles/recipes/order-changes.yaml) over small recordings, device delivery.
final class OrderChangesRecipeTests: XCTestCase {
    struct Sent {
        let token: String
        let priority: Priority
        let json: [String: Any]
        var aps: [String: Any] { json["aps"] as? [String: Any] ?? [:] }
        var state: [String: Any] { aps["content-state"] as? [String: Any] ?? [:] }
    }

    let tokenA = String(repeating: "a1", count: 80), tokenB = String(repeating: "b2", count: 80)
    let tokenC = String(repeating: "c3", count: 80), tokenD = String(repeating: "d4", count: 32)

    /// The rules and the driver of the last `replay`.
    var rules: RecipeRules!
    var driver: WorkloadDriver!

    func replay(_ lines: [String], policy: RunConfig.Workload.BadLinePolicy = .skip) throws -> (sent: [Sent], ledger: WorkloadLedger, workload: RecipeRules) {
        let path = StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: self)
        let ledger = WorkloadLedger()
        rules = try ShippedRecipes.rules("order-changes")
        driver = try ledger.driver(rules, path: path, badLines: policy)
        ledger.drain(driver)
        let sent = try ledger.sent.map { s in
            Sent(token: s.token, priority: s.priority, json: try XCTUnwrap(JSONSerialization.jsonObject(with: Data(s.body.utf8)) as? [String: Any]))
        }
        return (sent, ledger, rules)
    }

    func register(_ at: Int, _ device: String, _ token: String, _ stores: [Int]) -> String {
        #"{"at":"2025-02-25T10:00:\#(String(format: "%02d", at))Z","kind":"device.register","device_id":"\#(device)","push_token":"\#(token)","#
            + #""store_ids":\#(stores)}"#
    }
    func change(_ at: Int, store: Int, orders: Int = 15, late: Int = 3, items: Int = 42, extra: String = "") -> String {
        #"{"at":"2025-02-25T10:00:\#(String(format: "%02d", at))Z","kind":"order.change","store_id":\#(store),"totalOrders":\#(orders),"lateOrders":\#(late),"#
            + #""totalItems":\#(items)\#(extra)}"#
    }

    func testOrderChangeFansOutToEveryFollowerWithTheSeedPayload() throws {
        let (sent, ledger, _) = try replay([
            register(0, "D1", tokenA, [5, 8]), register(1, "D2", tokenB, [5]), register(2, "D3", tokenC, [6]),
            change(3, store: 5, orders: 15, late: 3, items: 42),
            change(4, store: 6),
            change(5, store: 99),
        ])
        XCTAssertEqual(sent.map(\.token), [tokenA, tokenB, tokenC])
        let first = sent[0]
        XCTAssertEqual(first.aps["event"] as? String, "update")
        XCTAssertEqual(first.aps["timestamp"] as? Int, 1_740_477_603)
        XCTAssertEqual(first.state["totalOrders"] as? Int, 15)
        XCTAssertEqual(first.state["lateOrders"] as? Int, 3)
        XCTAssertEqual(first.state["totalItems"] as? Int, 42)
        XCTAssertEqual(first.state["lastUpdated"] as? Int, 1_740_477_603)
        // A store nobody follows: one planned push, not sent.
        XCTAssertEqual(ledger.notSent, ["no_recipients": 1])
        XCTAssertEqual(ledger.planned, sent.count + 1)
        XCTAssertEqual(ledger.applied.map(\.pushes), [0, 0, 0, 2, 1, 1])
    }

    func testReRegistrationReplacesTheTokenForGood() throws {
        let (sent, _, workload) = try replay([
            register(0, "D1", tokenA, [1]),
            change(1, store: 1),
            register(2, "D1", tokenB, [1, 2]),
            change(3, store: 1),
            change(4, store: 2),
            register(5, "D1", tokenB, [2]),
            change(6, store: 1),
        ])
        XCTAssertEqual(sent.map(\.token), [tokenA, tokenB, tokenB])
        XCTAssertEqual(workload.retiredTokens, 1)
    }

    func testTimestampsStrictlyIncreasePerTokenWhenRecordedTimesCollide() throws {
        let (sent, _, _) = try replay([
            register(0, "D1", tokenA, [1]), register(0, "D2", tokenB, [1, 2]),
            change(9, store: 1), change(9, store: 1), change(9, store: 2), change(9, store: 1),
        ])
        var last: [String: Int] = [:]
        for s in sent {
            let ts = try XCTUnwrap(s.aps["timestamp"] as? Int)
            if let previous = last[s.token] { XCTAssertGreaterThan(ts, previous, "token \(s.token.prefix(4))") }
            last[s.token] = ts
        }
        XCTAssertEqual(sent.filter { $0.token == tokenB }.compactMap { $0.aps["timestamp"] as? Int },
                       [1_740_477_609, 1_740_477_610, 1_740_477_611, 1_740_477_612])
    }

    func testActivityEndSendsEndThenForgetsTheToken() throws {
        let (sent, ledger, _) = try replay([
            register(0, "D1", tokenA, [1]),
            change(1, store: 1, orders: 4, late: 0, items: 9),
            #"{"at":"2025-02-25T10:00:02Z","kind":"activity.end","device_id":"D1"}"#,
            change(3, store: 1),
            #"{"at":"2025-02-25T10:00:04Z","kind":"activity.end","device_id":"NOPE"}"#,
            change(5, store: 1, extra: #","event":"end""#),
        ])
        XCTAssertEqual(sent.count, 2)
        XCTAssertEqual(sent[1].aps["event"] as? String, "end")
        XCTAssertEqual(sent[1].state["totalOrders"] as? Int, 4, "the end carries the last counts sent")
        XCTAssertEqual(ledger.notSent, ["no_recipients": 2, "unknown_target": 1])
        XCTAssertEqual(ledger.planned, sent.count + 3)
    }

    func testPerEventPriority() throws {
        let (sent, _, _) = try replay([
            register(0, "D1", tokenA, [1]),
            change(1, store: 1, extra: #","priority":5"#),
            change(2, store: 1, extra: #","priority":10"#),
            change(3, store: 1),
        ])
        XCTAssertEqual(sent.map(\.priority), [.powerAware, .immediate, .immediate])
    }

    func testBadLinesAreNamedByLineAndCause() throws {
        let (sent, ledger, _) = try replay([
            register(0, "D1", tokenA, [1]),
            #"{"at":"2025-02-25T10:00:01Z","kind":"device.register","device_id":"D2","push_token":"\#(tokenB)","store_ids":"1,2"}"#,
            change(2, store: 1, extra: #","priority":7"#),
            change(3, store: 1, extra: #","event":"pause""#),
            #"{"at":"2025-02-25T10:00:04Z","kind":"order.change","store_id":1,"totalOrders":1,"lateOrders":0}"#,
            #"{"at":"2025-02-25T10:00:05Z","kind":"store.opened","store_id":1}"#,
            change(6, store: 1),
        ])
        XCTAssertEqual(sent.map(\.token), [tokenA])
        XCTAssertEqual(ledger.badLines.map(\.line), [2, 3, 4, 5, 6])
        XCTAssertEqual(ledger.badLines.map(\.cause), ["wrong_type", "bad_value", "bad_value", "missing_field", "unknown_kind"])
        XCTAssertEqual(ledger.notSent, ["bad_line": 5])
        XCTAssertEqual(ledger.planned, 1 + 5)
    }

    func testStopPolicyStopsAtTheFirstBadLine() throws {
        let (sent, _, _) = try replay([
            register(0, "D1", tokenA, [1]), "{oops", change(2, store: 1),
        ], policy: .stop)
        XCTAssertTrue(sent.isEmpty)
        XCTAssertEqual(driver.stopError?.line, 2)
    }
}
