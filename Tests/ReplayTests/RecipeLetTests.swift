import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// Named expressions (`let:`): read like fields in conditions, values, headers, `where:` and keys; typed by
/// what they compute; evaluated once per event (per recipient for one that reads the recipient); and every
/// mistake in one refused at load, naming its key and line.
final class RecipeLetTests: RecipeScratchCase {
    private let ios1 = String(repeating: "a1", count: 32)
    private let android = String(repeating: "b2", count: 32)
    private let ios2 = String(repeating: "d4", count: 32)
    private let activity = String(repeating: "c3", count: 32)

    override var templates: [String: String] {
        [
            "activity.json": #"{"aps":{"event":"update","timestamp":"{{#stamp}}","content-state":{"left":"{{#left}}","again":"{{#again}}"}}}"#,
            "alert.json": #"{"aps":{"alert":{"title":"{{title}}","body":"{{courier}}"}}}"#,
        ]
    }

    /// Phones per user; a delivery for a user, its activity token given later; a status that updates the
    /// activity and, once delivered, alerts the user's iOS phones: every condition, value, header, key and
    /// filter of the status event is a let.
    private func recipe(statusLets: String = "", recipeLets: String = "") -> String {
        """
        recipe: deliveries
        let:
          greeting: "'Delivered to '"
        \(recipeLets)events:
          phone:
            match: {kind: phone}
            fields: {phone_id: string, user_id: int, token: token, platform: string}
            upsert: phone
            key: phone_id
            token: token
            set: [platform]
            member_of: {users: user_id}
          created:
            match: {kind: created}
            fields: {delivery_id: string, user_id: int, courier: string}
            create: delivery
            key: delivery_id
            set: [user_id, courier]
          tracked:
            match: {kind: tracked}
            fields: {delivery_id: string, token: token}
            update: delivery
            key: delivery_id
            token: token
          status:
            match: {kind: status}
            fields:
              delivery_id: string
              status: {type: string, one_of: [moving, near, delivered]}
              stops: int?
            let:
              left: "stops != null ? stops * 2 : 0"
              done: "status == 'delivered'"
              owner: delivery.user_id
              stamp: activity_timestamp
              title: "greeting + recipient.key"
              ios: "recipient.platform == 'ios'"
        \(statusLets)    push:
              - name: activity
                when: "has(delivery.token)"
                to: {entity: delivery, key: delivery_id}
                template: activity.json
                priority: "done ? 10 : 5"
                collapse_id: {expr: "'delivery-' + string(left)"}
                slots: {stamp: stamp, left: left, again: stamp}
              - name: alert
                when: done
                to: {group: users, key: owner, where: ios}
                template: alert.json
                push_type: alert
                slots: {courier: delivery.courier, title: title}
        """
    }

    private func lines(_ statuses: [String]) -> [String] {
        [
            #"{"at":"2025-01-01T00:00:00Z","kind":"phone","phone_id":"p1","user_id":7,"token":"\#(ios1)","platform":"ios"}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"phone","phone_id":"p2","user_id":7,"token":"\#(android)","platform":"android"}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"phone","phone_id":"p3","user_id":7,"token":"\#(ios2)","platform":"ios"}"#,
            #"{"at":"2025-01-01T00:00:02Z","kind":"created","delivery_id":"d1","user_id":7,"courier":"Sam"}"#,
            #"{"at":"2025-01-01T00:00:03Z","kind":"tracked","delivery_id":"d1","token":"\#(activity)"}"#,
        ] + statuses.enumerated().map { i, rest in #"{"at":"2025-01-01T00:01:0\#(i)Z","kind":"status","delivery_id":"d1",\#(rest)}"# }
    }

    private func replay(_ yaml: String, _ statuses: [String]) throws -> WorkloadLedger { try replay(yaml, lines: lines(statuses)) }

    func testLetsAreReadInConditionsValuesHeadersKeysAndFilters() throws {
        let ledger = try replay(recipe(), [#""status":"moving","stops":3"#, #""status":"delivered""#])
        XCTAssertEqual(ledger.sent.map(\.rule), ["activity", "activity", "alert", "alert"])
        XCTAssertEqual(ledger.sent.map(\.token), [activity, activity, ios1, ios2], "where: ios keeps the two iOS phones of owner 7")
        XCTAssertEqual(ledger.sent.map(\.priority), [.powerAware, .immediate, .immediate, .immediate])
        XCTAssertEqual(ledger.sent.map(\.collapseID), ["delivery-6", "delivery-0", "", ""])
        XCTAssertEqual(ledger.sent.map { $0.alert["title"] as? String }, [nil, nil, "Delivered to p1", "Delivered to p3"])
        XCTAssertEqual(ledger.sent[0].body, #"{"aps":{"event":"update","timestamp":1735689660,"content-state":{"left":6,"again":1735689660}}}"#)
        ledger.assertBalanced(linesRead: 7)
    }

    /// `activity_timestamp` counts up each time it is read for a token within a second: a let read twice for
    /// one push gives one value, so it was evaluated once.
    func testALetIsEvaluatedOncePerEventAndRecipient() throws {
        let ledger = try replay(recipe(), [#""status":"moving""#, #""status":"near""#])
        XCTAssertEqual(ledger.sent.map(\.body), [
            #"{"aps":{"event":"update","timestamp":1735689660,"content-state":{"left":0,"again":1735689660}}}"#,
            #"{"aps":{"event":"update","timestamp":1735689661,"content-state":{"left":0,"again":1735689661}}}"#,
        ])
    }

    func testALetThatIsOneNameIsAMissingLinkAsThatNameIsWhenItIsAKey() throws {
        // Delivery d9 was never created: its owner, `key: owner`, is a missing link, as `key: delivery.user_id` is.
        let d9 = #"{"at":"2025-01-01T00:02:00Z","kind":"status","delivery_id":"d9","status":"delivered"}"#
        let ledger = try WorkloadLedger.replay(RecipeLoader.load(yaml: recipe(), file: file), lines: lines([]) + [d9], for: self)
        XCTAssertEqual(ledger.notSent, ["unknown_target": 1])
        ledger.assertBalanced(linesRead: 6)
    }

    func testALetThatFailsMakesTheEventABadLineNamingTheLet() throws {
        let yaml = recipe().replacingOccurrences(of: "left: \"stops != null ? stops * 2 : 0\"", with: "left: \"100 / (stops - 2)\"")
        let ledger = try replay(yaml, [#""status":"moving","stops":2"#, #""status":"moving","stops":3"#])
        XCTAssertEqual(ledger.badLines, [EventTally.BadLine(line: 6, cause: "bad_value",
                                                            detail: "line 6: bad value in field 'events.status.let.left': column 5: division by zero")])
        XCTAssertEqual(ledger.sent.map(\.collapseID), ["delivery-100"])
        ledger.assertBalanced(linesRead: 7)
    }

    func testALetHasTheTypeOfWhatItComputes() {
        assertRefused(recipe(statusLets: "      late: \"stops > 2\"\n").replacingOccurrences(of: "when: done", with: "when: \"late == 'yes'\""),
                      line: 48, "'events.status.push[1].when' column 6: '==' compares bool with string: they can never be equal, in \"late == 'yes'\"")
        assertRefused(recipe().replacingOccurrences(of: "priority: \"done ? 10 : 5\"", with: "priority: done"),
                      line: 43, "'events.status.push[0].priority' 'done' must be an int (10, 5 or 1)")
    }

    func testALetReadsTheLetsAboveIt() {
        assertRefused(recipe(statusLets: "      a: \"b + 1\"\n      b: \"2\"\n"), line: 38,
                      "'events.status.let.a' reads 'b', which is declared below it (line 39): a let reads the lets above it")
    }

    func testLetsThatReadEachOtherAreACycle() {
        assertRefused(recipe(statusLets: "      a: \"b + 1\"\n      b: \"a * 2\"\n"), line: 39,
                      "'events.status.let.b' reads 'a': lets form a cycle (a → b → a)")
        assertRefused(recipe(statusLets: "      a: \"a + 1\"\n"), line: 38, "'events.status.let.a' reads 'a': lets form a cycle (a → a)")
    }

    func testAMistakeInALetIsRefusedAtItsLineEvenWhenNothingReadsIt() {
        assertRefused(recipe(statusLets: "      unused: \"stauts == 'x'\"\n"), line: 38,
                      "'events.status.let.unused' column 1: names 'stauts', which is not a field of event 'status' (fields: delivery_id, status, stops), "
                        + "in \"stauts == 'x'\"")
        assertRefused(recipe(recipeLets: "  nowhere: \"parcel_id + 1\"\n"), line: 4,
                      "'let.nowhere' column 1: names 'parcel_id', which is not a field of event 'phone' (fields: phone_id, user_id, token, platform), "
                        + "in \"parcel_id + 1\"")
    }

    func testARecipeLetIsCompiledForEachEventThatReadsIt() throws {
        let yaml = recipe(recipeLets: "  arrived: \"status == 'near' || status == 'delivered'\"\n")
            .replacingOccurrences(of: "when: done", with: "when: arrived")
        let ledger = try replay(yaml, [#""status":"moving""#, #""status":"near""#])
        XCTAssertEqual(ledger.sent.map(\.rule), ["activity", "activity", "alert", "alert"])
    }

    func testALetNameShadowsNothing() {
        assertRefused(recipe(statusLets: "      stops: \"1\"\n"), line: 38,
                      "'events.status.let.stops' cannot be a let's name: 'stops' is a field of event 'status'")
        assertRefused(recipe(statusLets: "      delivery: \"1\"\n"), line: 38, "'events.status.let.delivery' cannot be a let's name: 'delivery' is an entity")
        assertRefused(recipe(statusLets: "      time: \"1\"\n"), line: 38, "'events.status.let.time' cannot be a let's name: 'time' is built into expressions "
            + "(\(RecipeLets.builtIn.joined(separator: ", ")))")
        assertRefused(recipe(statusLets: "      greeting: \"'Hi '\"\n"), line: 38,
                      "'events.status.let.greeting' cannot be a let's name: 'greeting' is the recipe's let (line 3)")
        assertRefused(recipe(recipeLets: "  status: \"1\"\n"), line: 4, "'let.status' cannot be a let's name: 'status' is a field of event 'status'")
        assertRefused(recipe(statusLets: "      order.total: \"1\"\n"), line: 38,
                      "'events.status.let.order.total' is not a name: a let's name is letters, digits and '_', starting with a letter or '_'")
    }

    func testARecipeLetReadsNoEventLet() {
        assertRefused(recipe(recipeLets: "  twice: \"left * 2\"\n").replacingOccurrences(of: "again: stamp", with: "again: twice"), line: 4,
                      "'let.twice' reads 'left', a let of event 'status': a recipe's let reads only the recipe's lets")
    }

    func testALetThatReadsTheRecipientIsNoCondition() {
        assertRefused(recipe().replacingOccurrences(of: "when: done", with: "when: ios"), line: 37,
                      "'events.status.let.ios' column 1: 'recipient.platform' is the recipient's, but let 'ios' is read by "
                        + "'events.status.push[1].when' (line 47), which has no recipient, in \"recipient.platform == 'ios'\"")
    }

    private func assertRefused(_ yaml: String, line: Int, _ message: String, file f: StaticString = #filePath, line l: UInt = #line) {
        do {
            _ = try RecipeLoader.load(yaml: yaml, file: file)
            XCTFail("loaded", file: f, line: l)
        } catch let e as ProfileError {
            XCTAssertEqual(e.line, line, "\(e)", file: f, line: l)
            XCTAssertEqual(e.message, message, file: f, line: l)
        } catch {
            XCTFail("not a ProfileError: \(error)", file: f, line: l)
        }
    }
}
