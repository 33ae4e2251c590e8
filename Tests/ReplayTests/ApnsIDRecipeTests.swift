import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// `apns_id:` in a push rule: a UUID read from an event's field, or made for each push (`per_push`) from the push's
/// origin, so each push of a fan-out has its own and the same recording plans the same ids; a field's value that is
/// not a UUID makes the event a bad line, and a constant is refused when the recipe loads.
final class ApnsIDRecipeTests: RecipeScratchCase {
    override var templates: [String: String] { ["alert.json": #"{"aps":{"alert":"{{status}}"}}"#] }

    private func recipe(_ apnsID: String) -> String {
        """
        recipe: phones
        events:
          phone:
            match: {kind: phone}
            fields: {phone_id: string, user_id: int, token: token}
            upsert: phone
            key: phone_id
            token: token
            member_of: {users: user_id}
          status:
            match: {kind: status}
            fields: {user_id: int, status: string, request_id: string?}
            push:
              to: {group: users, key: user_id}
              template: alert.json
              push_type: alert
              apns_id: \(apnsID)
        """
    }

    private func replay(_ apnsID: String, statuses: [String]) throws -> WorkloadLedger {
        var lines = (1 ... 3).map { #"{"at":"2025-01-01T00:00:0\#($0)Z","kind":"phone","phone_id":"p\#($0)","user_id":7,"token":"\#(token($0))"}"# }
        for (i, rest) in statuses.enumerated() {
            lines.append(#"{"at":"2025-01-01T00:01:0\#(i)Z","kind":"status","user_id":7,\#(rest)}"#)
        }
        return try replay(recipe(apnsID), lines: lines)
    }

    private func ids(_ ledger: WorkloadLedger) -> [String] {
        ledger.sent.map { String(decoding: $0.headers[APNsHeaders.apnsID].text, as: UTF8.self) }
    }

    func testPerPushGivesEachPushOfAFanOutItsOwnUUIDTheSameOnEveryReplay() throws {
        let statuses = [#""status":"moving""#, #""status":"near""#]
        let first = try replay("per_push", statuses: statuses)
        let made = ids(first)
        XCTAssertEqual(made.count, 6)
        XCTAssertEqual(Set(made).count, 6, "one per push: \(made)")
        for id in made { XCTAssertNil(APNsHeaders.apnsID.value.refusal(text: Array(id.utf8)), id) }
        XCTAssertEqual(ids(try replay("per_push", statuses: statuses)), made, "the same recording plans the same ids")
    }

    func testAFieldsUUIDIsSentAndOneThatIsNotIsABadLineNamingTheField() throws {
        let ledger = try replay("{from: request_id}", statuses: [
            #""status":"moving","request_id":"123e4567-e89b-12d3-a456-426614174000""#,
            #""status":"near","request_id":"not-a-uuid""#,
            #""status":"ok""#,
        ])
        XCTAssertEqual(ids(ledger), Array(repeating: "123e4567-e89b-12d3-a456-426614174000", count: 3) + ["", "", ""],
                       "an absent field sends no apns-id")
        XCTAssertEqual(ledger.events.invalidTotal, 1)
        XCTAssertEqual(ledger.events.badLineSamples.map(\.detail), [
            "line 5: bad value in field 'apns_id': 'not-a-uuid' is not a UUID (8-4-4-4-12 hex digits, like 123e4567-e89b-12d3-a456-426614174000)",
        ])
    }

    func testAConstantIsRefusedWhenTheRecipeLoads() {
        XCTAssertThrowsError(try RecipeLoader.load(yaml: recipe("123e4567-e89b-12d3-a456-426614174000"), file: file)) { error in
            XCTAssertEqual((error as? ProfileError)?.message,
                           #"'events.status.push.apns_id' column 15: '12d' is not a number, in "123e4567-e89b-12d3-a456-426614174000"; "#
                            + #"'apns_id' takes per_push, a field's name, an expression, {from: FIELD} or a format like "{{FIELD}}""#)
        }
    }

    func testAConstantIsRefusedInEveryForm() {
        let uuid = "123e4567-e89b-12d3-a456-426614174000"
        let refused = [
            ("{const: '\(uuid)'}", "\(file):17: 'events.status.push.apns_id.const' is not a known key (known: from, map, default, expr)"),
            ("{expr: \"'\(uuid)'\"}", "\(file):17: 'events.status.push.apns_id.expr' is a constant: every push would share one apns-id; "
                + "use per_push, {from: FIELD} or an expression that reads the event"),
            ("{expr: \"'123e4567-e89b-12d3-' + 'a456-426614174000'\"}", "\(file):17: 'events.status.push.apns_id.expr' is a constant: "
                + "every push would share one apns-id; use per_push, {from: FIELD} or an expression that reads the event"),
            ("{from: request_id, default: '\(uuid)'}", "\(file):17: 'events.status.push.apns_id.default' would give every push whose "
                + "field is absent one apns-id: leave it out (an absent value sends none, and APNs makes one)"),
        ]
        for (form, message) in refused {
            XCTAssertThrowsError(try RecipeLoader.load(yaml: recipe(form), file: file), form) { XCTAssertEqual("\($0)", message, form) }
        }
    }
}
