import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// An event is a transaction: its changes to the state (an entity made, its token, fields and groups, a
/// removal) stay only when every field, value and rule of the event succeeded; a bad line leaves the state
/// exactly as it was, a group's order included. A value read for one recipient that fails (`where:`) drops
/// that recipient's push alone, as `bad_line` with its message kept; the event's other pushes go on.
final class RecipeTransactionTests: RecipeScratchCase {
    private let yaml = """
        recipe: shop
        events:
          device:
            match: {kind: device}
            fields: {device_id: string, user_id: int, token: token, weight: int}
            upsert: device
            key: device_id
            token: token
            set: {weight: weight, share: "100 / weight"}
            member_of: {users: user_id}
          gone:
            match: {kind: gone}
            fields: {device_id: string, n: int}
            remove: device
            key: device_id
            push:
              to: {group: users, key: n}
              template: t.json
              priority: "10 / n"
              slots: {title: "'gone'"}
          notify:
            match: {kind: notify}
            fields: {user_id: int}
            push:
              to: {group: users, key: user_id, where: "10 / (recipient.weight - 5) > 0"}
              template: t.json
              slots: {title: "recipient.key"}
          ping:
            match: {kind: ping}
            fields: {user_id: int}
            push:
              to: {group: users, key: user_id}
              template: t.json
              slots: {title: "recipient.key"}
              remember: {last: "100 / (recipient.weight - 1)"}
        """

    private func device(_ id: Int, user: Int = 7, token t: Int? = nil, weight: Int) -> String {
        #"{"kind":"device","device_id":"d\#(id)","user_id":\#(user),"token":"\#(token(t ?? id))","weight":\#(weight)}"#
    }

    /// d1…d4 of user 7, weights 10, 5, 1 and 6.
    private var devices: [String] { [device(1, weight: 10), device(2, weight: 5), device(3, weight: 1), device(4, weight: 6)] }

    private func apply(_ rules: RecipeRules, _ json: String, line: Int) throws -> Int { try apply(rules, json, line: line, at: Int64(line) * 1000) }

    private func rulesAfterDevices() throws -> RecipeRules {
        let rules = try rules(yaml)
        for (i, line) in devices.enumerated() { XCTAssertEqual(try apply(rules, line, line: i + 1), 0) }
        return rules
    }

    /// Throws as a bad line with `detail`, and leaves the state as it found it.
    private func assertBadLineChangesNothing(_ rules: RecipeRules, _ json: String, _ detail: String,
                                             file f: StaticString = #filePath, line l: UInt = #line) {
        let before = rules.state.canonical
        XCTAssertThrowsError(try apply(rules, json, line: 9), file: f, line: l) { XCTAssertEqual("\($0)", detail, file: f, line: l) }
        XCTAssertEqual(rules.state.canonical, before, file: f, line: l)
    }

    func testANewEntityWhoseSetFailsIsNotMade() throws {
        let rules = try rulesAfterDevices()
        assertBadLineChangesNothing(rules, device(5, weight: 0),
                                    "line 9: bad value in field 'events.device.set.share': column 5: division by zero")
        XCTAssertNil(rules.state.place(0, .string("d5")))
    }

    func testAnUpdateWhoseSetFailsKeepsTheOldTokenFieldsAndGroupOrder() throws {
        let rules = try rulesAfterDevices()
        assertBadLineChangesNothing(rules, device(1, user: 8, token: 9, weight: 0),
                                    "line 9: bad value in field 'events.device.set.share': column 5: division by zero")
        let d1 = try XCTUnwrap(rules.state.place(0, .string("d1")))
        XCTAssertEqual(rules.state.token(d1), token(1))
        XCTAssertEqual(rules.state.members(of: GroupKey(group: 0, key: .int(7))).compactMap { rules.state.key($0) },
                       [.string("d1"), .string("d2"), .string("d3"), .string("d4")])
        XCTAssertEqual(rules.retiredTokens, 0)
    }

    func testARemovalUndoneWhenARuleAfterItFails() throws {
        let rules = try rulesAfterDevices()
        assertBadLineChangesNothing(rules, #"{"kind":"gone","device_id":"d2","n":0}"#,
                                    "line 9: bad value in field 'events.gone.push.priority': column 4: division by zero")
        XCTAssertNotNil(rules.state.place(0, .string("d2")))
        // The same removal on a good line stays, and the freed place is reused by the next device.
        XCTAssertEqual(try apply(rules, #"{"kind":"gone","device_id":"d2","n":1}"#, line: 10), 1)
        XCTAssertNil(rules.state.place(0, .string("d2")))
    }

    func testABadLineThenLaterPushesNeverReachWhatItWouldHaveMade() throws {
        let lines = devices + [device(5, weight: 0), device(1, user: 8, token: 9, weight: 0), #"{"kind":"notify","user_id":7}"#,
                               #"{"kind":"notify","user_id":8}"#]
        let ledger = try WorkloadLedger.replay(RecipeLoader.load(yaml: yaml, file: file), lines: timed(lines), for: self)
        XCTAssertEqual(ledger.badLines.map(\.line), [5, 6, 7])
        XCTAssertEqual(ledger.badLines.map(\.cause), ["bad_value", "bad_value", "bad_line"])
        XCTAssertEqual(ledger.sent.map(\.token), [token(1), token(4)], "d5 was never made; d1 kept its token and user")
        XCTAssertEqual(ledger.notSent, ["bad_line": 3, "no_recipients": 1])
    }

    func testAFilterThatFailsForOneRecipientDropsThatPushAloneWithItsMessage() throws {
        let ledger = try WorkloadLedger.replay(RecipeLoader.load(yaml: yaml, file: file), lines: timed(devices + [#"{"kind":"notify","user_id":7}"#]),
                                               for: self)
        // d2 (weight 5) divides by zero; d3 (weight 1) is filtered out; d1 and d4 get their pushes.
        XCTAssertEqual(ledger.sent.map(\.token), [token(1), token(4)])
        XCTAssertEqual(ledger.notSent, ["bad_line": 1])
        XCTAssertEqual(ledger.events.producedPushes, 1)
        XCTAssertEqual(ledger.events.invalidTotal, 0)
        XCTAssertEqual(ledger.badLines, [EventTally.BadLine(line: 5, cause: "bad_line", detail: "the push rule of event 'notify': one recipient's "
            + "push not sent: 'events.notify.push.to.where' column 4: division by zero")])
    }
}

extension RecipeTransactionTests {
    func testAPushWhoseKeptValueFailsIsNotSentAndWritesNothing() throws {
        let rules = try rulesAfterDevices()
        XCTAssertEqual(try apply(rules, #"{"kind":"ping","user_id":7}"#, line: 5), 4)
        var push = OutgoingPush(bodyCapacity: 64)
        var results: [PullResult] = []
        while let r = rules.nextPlanned(into: &push) { results.append(r) }
        // d3 (weight 1) divides by zero: its push alone is not sent, and keeps nothing.
        XCTAssertEqual(results, [.push, .push, .notSent(.badLine), .push])
        XCTAssertEqual(rules.lastPushFailure, "the push rule of event 'ping': one recipient's push not sent: "
            + "'events.ping.push.remember.last' column 5: division by zero")
        let last = try XCTUnwrap(rules.recipe.entities[0].fields.firstIndex(of: "last"))
        let kept = (1 ... 4).map { rules.state.field(rules.state.place(0, .string("d\($0)"))!, last) }
        XCTAssertEqual(kept, [.int(11), .int(25), .absent, .int(20)])
    }
}

extension EntityStore {
    /// Everything the state holds, in an order that does not depend on how it was built.
    var canonical: String {
        let live = entities.enumerated().map { "\($0.offset): \($0.element.key.map { "\($0)" } ?? "free") \($0.element.token ?? "-") "
            + "\($0.element.fields) \($0.element.groups) \($0.element.subscription.map { "\($0)" } ?? "-")" }
        let groups = members.filter { !$0.value.isEmpty }.map { "\($0.key): \($0.value)" }.sorted()
        let subs = subscribers.filter { !$0.value.isEmpty }.map { "\($0.key): \($0.value.sorted())" }.sorted()
        let keys = index.map { $0.map { "\($0.key)=\($0.value)" }.sorted() }
        return "\(live)\n\(groups)\n\(subs)\n\(keys)\nfree \(freePlaces) retired \(retiredTokens)"
    }
}
