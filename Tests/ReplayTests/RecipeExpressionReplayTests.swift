import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// Expressions in a recipe, replayed through the workload driver: conditions, computed slots and headers, a
/// recipient filter, what kept fields and entities the event names, and a failure on an event counted as a
/// bad line that names the key.
final class RecipeExpressionReplayTests: RecipeScratchCase {
    private let ios1 = String(repeating: "a1", count: 32)
    private let android = String(repeating: "b2", count: 32)
    private let ios2 = String(repeating: "d4", count: 32)
    private let activity = String(repeating: "c3", count: 32)

    override var templates: [String: String] {
        [
            "activity.json": #"{"aps":{"event":"update","dismissal-date":"{{#dismissal|unix}}","content-state":{"status":"{{status}}","left":"{{#left}}"}}}"#,
            "alert.json": #"{"aps":{"alert":{"title":"{{title}}","body":"{{courier}}"}}}"#,
        ]
    }

    /// Phones registered per user with their platform; a delivery created for a user, its activity token
    /// given later; a status that updates the activity (when it has a token) and, when `when` holds, alerts
    /// the user's phones that `where` keeps.
    private func recipe(when: String = "\"status == 'delivered'\"", filter: String = "\"recipient.platform == 'ios'\"",
                        activitySlots: String = "{dismissal: \"time + 900\", left: \"stops != null ? stops * 2 : 0\"}") -> String {
        """
        recipe: deliveries
        events:
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
            set: {user_id: user_id, courier: "courier + ' (' + string(user_id) + ')'"}
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
            push:
              - name: activity
                when: "has(delivery.token)"
                to: {entity: delivery, key: delivery_id}
                template: activity.json
                priority: "status == 'moving' ? 5 : 10"
                collapse_id: {expr: "'delivery-' + delivery_id"}
                expiration_at: "status == 'delivered' ? time - 60 : time + 600"
                slots: \(activitySlots)
              - name: alert
                when: \(when)
                to: {group: users, key: delivery.user_id, where: \(filter)}
                template: alert.json
                push_type: alert
                slots: {courier: delivery.courier, title: "'Delivered to ' + recipient.key"}
        """
    }

    private func lines(tracked: Bool = true, statuses: [(String, String)]) -> [String] {
        var out = [
            #"{"at":"2025-01-01T00:00:00Z","kind":"phone","phone_id":"p1","user_id":7,"token":"\#(ios1)","platform":"ios"}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"phone","phone_id":"p2","user_id":7,"token":"\#(android)","platform":"android"}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"phone","phone_id":"p3","user_id":7,"token":"\#(ios2)","platform":"ios"}"#,
            #"{"at":"2025-01-01T00:00:02Z","kind":"created","delivery_id":"d1","user_id":7,"courier":"Sam"}"#,
        ]
        if tracked { out.append(#"{"at":"2025-01-01T00:00:03Z","kind":"tracked","delivery_id":"d1","token":"\#(activity)"}"#) }
        for (i, (delivery, rest)) in statuses.enumerated() {
            out.append(#"{"at":"2025-01-01T00:01:0\#(i)Z","kind":"status","delivery_id":"\#(delivery)",\#(rest)}"#)
        }
        return out
    }

    private func replay(_ yaml: String, _ lines: [String]) throws -> WorkloadLedger { try replay(yaml, lines: lines) }

    func testComputedSlotsHeadersAndAFilteredFanOut() throws {
        let ledger = try replay(recipe(), lines(statuses: [("d1", #""status":"moving","stops":3"#), ("d1", #""status":"delivered""#)]))
        XCTAssertEqual(ledger.sent.map(\.rule), ["activity", "activity", "alert", "alert"])
        // The filter kept the two iOS phones, in the group's order; the Android phone got nothing.
        XCTAssertEqual(ledger.sent.map(\.token), [activity, activity, ios1, ios2])
        XCTAssertEqual(ledger.sent.map(\.priority), [.powerAware, .immediate, .immediate, .immediate])
        XCTAssertEqual(ledger.sent[0].collapseID, "delivery-d1")
        // expiration_at: 600 s after the event, sent as 600 s after the push's send; a time before the event: 0.
        XCTAssertEqual(ledger.sent[0].expirationSeconds, 600)
        XCTAssertEqual(ledger.sent[1].expirationSeconds, 0)
        // 2025-01-01T00:01:00Z is 1735689660 s; plus 900.
        XCTAssertEqual(ledger.sent[0].body, #"{"aps":{"event":"update","dismissal-date":1735690560,"content-state":{"status":"moving","left":6}}}"#)
        XCTAssertEqual(ledger.sent[1].body, #"{"aps":{"event":"update","dismissal-date":1735690561,"content-state":{"status":"delivered","left":0}}}"#)
        XCTAssertEqual(ledger.sent[2].alert["title"] as? String, "Delivered to 'p1'".replacingOccurrences(of: "'", with: ""))
        XCTAssertEqual(ledger.sent[3].alert["title"] as? String, "Delivered to p3")
        XCTAssertEqual(ledger.sent[2].alert["body"] as? String, "Sam (7)", "a kept field set by an expression")
        ledger.assertBalanced(linesRead: 7)
    }

    /// List forms and a format in a recipe: a slice, the macros in `when:`, `where:` and a slot, and a title
    /// formatted per recipient.
    func testListsAndAFormatInARecipe() throws {
        let yaml = recipe(when: "\"[status, 'x'][:1].all(s, s == 'delivered')\"",
                          filter: "\"['web', 'ios'][1:].exists(p, p == recipient.platform)\"",
                          activitySlots: "{dismissal: \"time + 900\", left: \"stops != null ? size([stops, 1, 5].filter(s, s > 2)) : 0\"}")
            .replacingOccurrences(of: "title: \"'Delivered to ' + recipient.key\"",
                                  with: "title: \"'%s: %.2f EUR'.format([recipient.key, double(size(delivery.courier)) / 4.0])\"")
        let ledger = try replay(yaml, lines(statuses: [("d1", #""status":"moving","stops":3"#), ("d1", #""status":"delivered""#)]))
        XCTAssertEqual(ledger.sent.map(\.rule), ["activity", "activity", "alert", "alert"])
        XCTAssertEqual(ledger.sent.map(\.token), [activity, activity, ios1, ios2])
        XCTAssertEqual(ledger.sent[0].body, #"{"aps":{"event":"update","dismissal-date":1735690560,"content-state":{"status":"moving","left":2}}}"#)
        XCTAssertEqual(ledger.sent[1].body, #"{"aps":{"event":"update","dismissal-date":1735690561,"content-state":{"status":"delivered","left":0}}}"#)
        XCTAssertEqual(ledger.sent[2].alert["title"] as? String, "p1: 1.75 EUR", "'Sam (7)' has 7 characters")
        XCTAssertEqual(ledger.sent[3].alert["title"] as? String, "p3: 1.75 EUR")
        ledger.assertBalanced(linesRead: 7)
    }

    func testAConditionOnATokenNotThereYetPlansNothingForThatRule() throws {
        let ledger = try replay(recipe(), lines(tracked: false, statuses: [("d1", #""status":"moving""#)]))
        XCTAssertEqual(ledger.sent.count, 0)
        XCTAssertEqual(ledger.events.noPushCondition, 1)
    }

    func testAFilterNobodyPassesIsOneNoRecipientsPush() throws {
        let ledger = try replay(recipe(filter: "\"recipient.platform == 'web'\""), lines(statuses: [("d1", #""status":"delivered""#)]))
        XCTAssertEqual(ledger.sent.map(\.rule), ["activity"])
        XCTAssertEqual(ledger.notSent, ["no_recipients": 1])
    }

    /// Each condition form and the expression it is sugar for let the same statuses through.
    func testEachConditionFormAndItsExpressionAgree() throws {
        let cases: [(String, String)] = [
            ("{status: near}", "\"status == 'near'\""),
            ("{status: {one_of: [moving, delivered]}}", "\"status in ['moving', 'delivered']\""),
            ("{status: {not: delivered}}", "\"status != 'delivered'\""),
            ("{stops: {present: true}}", "\"stops != null\""),
            ("{stops: {absent: true}}", "\"stops == null\""),
            ("{stops: {gt: 1}}", "\"stops != null && stops > 1\""),
            ("{stops: {le: 5, ge: 2}}", "\"stops != null && stops <= 5 && stops >= 2\""),
            ("{any: [{status: delivered}, {stops: {le: 1}}]}", "\"status == 'delivered' || (stops != null && stops <= 1)\""),
            ("{delivery.courier: 'Sam (7)', status: moving}", "\"delivery.courier == 'Sam (7)' && status == 'moving'\""),
        ]
        let statuses = [("d1", #""status":"moving","stops":5"#), ("d1", #""status":"near","stops":1"#), ("d1", #""status":"delivered""#)]
        for (form, expression) in cases {
            let alerted = { (when: String) throws -> [String] in
                try self.replay(self.recipe(when: when, filter: "\"true\""), self.lines(statuses: statuses)).sent.filter { $0.rule == "alert" }.map(\.token)
            }
            let a = try alerted(form), b = try alerted(expression)
            XCTAssertEqual(a, b, form)
            XCTAssertFalse(a.isEmpty, form)
        }
    }

    func testAnEventWhoseRequiredEntityIsMissingCountsOneUnknownTargetAndRunsNoRule() throws {
        let yaml = recipe().replacingOccurrences(of: "    match: {kind: status}\n", with: "    match: {kind: status}\n    require: delivery\n")
        let ledger = try replay(yaml, lines(statuses: [("d9", #""status":"delivered""#), ("d1", #""status":"delivered""#)]))
        // d9 was never created: one push not sent for the event, though two rules (and two phones) would have pushed.
        XCTAssertEqual(ledger.notSent, ["unknown_target": 1])
        XCTAssertEqual(ledger.applied.map(\.pushes), [0, 0, 0, 0, 0, 1, 3])
        XCTAssertEqual(ledger.sent.map(\.token), [activity, ios1, ios2])
        ledger.assertBalanced(linesRead: 7)
    }

    func testRequireNamesAnEntityTheEventNames() {
        let yaml = recipe().replacingOccurrences(of: "    match: {kind: phone}\n", with: "    match: {kind: phone}\n    require: delivery\n")
        XCTAssertThrowsError(try RecipeLoader.load(yaml: yaml, file: file)) { error in
            XCTAssertEqual("\(error)", "\(self.file):5: 'events.phone.require' requires a delivery, but event 'phone' has no field naming one (its key: "
                + "delivery_id)")
        }
    }

    func testAFailureOnAnEventIsABadLineNamingTheKeyAndTheCountsBalance() throws {
        let yaml = recipe(activitySlots: "{dismissal: \"time + 900\", left: \"100 / (stops - 2)\"}")
        let ledger = try replay(yaml, lines(statuses: [("d1", #""status":"moving","stops":2"#), ("d1", #""status":"near","stops":3"#)]))
        XCTAssertEqual(ledger.badLines, [EventTally.BadLine(line: 6, cause: "bad_value",
                                                            detail: "line 6: bad value in field 'events.status.push[0].slots.left': column 5: "
                                                                + "division by zero")])
        XCTAssertEqual(ledger.sent.map(\.rule), ["activity"], "the next event plans as usual")
        ledger.assertBalanced(linesRead: 7)
    }

    func testARuleThatFailsAfterAnEarlierRulePlannedHandsOutNothingOfTheEvent() throws {
        // The activity rule plans, then the alert rule's priority is refused: the whole event is one bad line.
        let yaml = recipe(when: "\"status == 'near'\"").replacingOccurrences(
            of: "push_type: alert\n", with: "push_type: alert\n        priority: \"stops == 3 ? 7 : 10\"\n")
        let ledger = try replay(yaml, lines(statuses: [("d1", #""status":"near","stops":3"#), ("d1", #""status":"near","stops":4"#)]))
        XCTAssertEqual(ledger.badLines.map(\.line), [6])
        XCTAssertEqual(ledger.sent.map(\.rule), ["activity", "alert", "alert"], "only the next event's pushes")
        ledger.assertBalanced(linesRead: 7)
    }

    func testAnExpressionFailureOnABadLineDoesNotFailTheNextEvent() throws {
        // Line 6: the priority expression fails (kept), then expiration_at is refused before it is reported.
        let yaml = recipe().replacingOccurrences(of: "priority: \"status == 'moving' ? 5 : 10\"", with: "priority: \"10 / (stops - 2)\"")
            .replacingOccurrences(of: "expiration_at: \"status == 'delivered' ? time - 60 : time + 600\"",
                                  with: "expiration_at: \"stops == 2 ? time + 99999999 : time + 600\"")
        let ledger = try replay(yaml, lines(statuses: [("d1", #""status":"moving","stops":2"#), ("d1", #""status":"moving","stops":3"#)]))
        XCTAssertEqual(ledger.badLines.map(\.line), [6])
        XCTAssertEqual(ledger.badLines.first?.detail.contains("expiration_at"), true, "\(ledger.badLines)")
        XCTAssertEqual(ledger.sent.map(\.rule), ["activity"], "the next event plans as usual")
        ledger.assertBalanced(linesRead: 7)
    }
}
