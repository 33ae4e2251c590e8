import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// Several push rules per event, each with its own recipient and template and an optional `when:`, replayed
/// through the workload driver: the pushes come out in rule order, each names its rule, and an event none of
/// whose conditions held is counted as "no push (condition)", not as a bad line.
final class RecipePushRuleTests: RecipeScratchCase {
    private let phone1 = String(repeating: "a1", count: 32)
    private let phone2 = String(repeating: "b2", count: 32)
    private let activity = String(repeating: "c3", count: 32)

    override var templates: [String: String] {
        [
            "activity.json": #"{"aps":{"event":"update","content-state":{"status":"{{status}}"}}}"#,
            "alert.json": #"{"aps":{"alert":{"title":"{{status}}","body":"{{courier}}"}}}"#,
        ]
    }

    /// Phones registered per user; a delivery created for a user with its courier and its activity token; a
    /// status that updates the activity and, when `when` holds, alerts the user's phones through the delivery.
    private func recipe(when: String = "{status: delivered}", alertTo: String = "{group: users, key: delivery.user_id}") -> String {
        """
        recipe: deliveries
        events:
          phone:
            match: {kind: phone}
            fields: {phone_id: string, user_id: int, token: token}
            upsert: phone
            key: phone_id
            token: token
            member_of: {users: user_id}
          created:
            match: {kind: created}
            fields: {delivery_id: string, user_id: int, courier: string, token: token}
            create: delivery
            key: delivery_id
            token: token
            set: [user_id, courier]
          status:
            match: {kind: status}
            fields:
              delivery_id: string
              status: {type: string, one_of: [moving, near, delivered]}
              stops: int?
            push:
              - name: activity
                to: {entity: delivery, key: delivery_id}
                template: activity.json
              - name: alert
                when: \(when)
                to: \(alertTo)
                template: alert.json
                push_type: alert
                slots: {courier: delivery.courier}
        """
    }

    private func lines(statuses: [(String, String)]) -> [String] {
        var out = [
            #"{"at":"2025-01-01T00:00:00Z","kind":"phone","phone_id":"p1","user_id":7,"token":"\#(phone1)"}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"phone","phone_id":"p2","user_id":7,"token":"\#(phone2)"}"#,
            #"{"at":"2025-01-01T00:00:02Z","kind":"created","delivery_id":"d1","user_id":7,"courier":"Sam","token":"\#(activity)"}"#,
        ]
        for (i, (delivery, rest)) in statuses.enumerated() {
            out.append(#"{"at":"2025-01-01T00:01:0\#(i)Z","kind":"status","delivery_id":"\#(delivery)",\#(rest)}"#)
        }
        return out
    }

    private func replay(_ yaml: String, _ lines: [String]) throws -> WorkloadLedger { try replay(yaml, lines: lines) }

    func testEachRuleThatHoldsPlansItsPushesInRuleOrderAndNamesItself() throws {
        let ledger = try replay(recipe(), lines(statuses: [("d1", #""status":"moving""#), ("d1", #""status":"delivered""#)]))
        XCTAssertEqual(ledger.sent.map(\.token), [activity, activity, phone1, phone2])
        XCTAssertEqual(ledger.sent.map(\.rule), ["activity", "activity", "alert", "alert"])
        XCTAssertEqual(ledger.applied.map(\.pushes), [0, 0, 0, 1, 3])
        // The alert's slot read the courier kept on the delivery the status names.
        XCTAssertEqual(ledger.sent[2].alert["body"] as? String, "Sam")
        XCTAssertEqual(ledger.sent[2].alert["title"] as? String, "delivered")
        XCTAssertEqual(ledger.events.pushesByRule, ["status": ["activity": 2, "alert": 2]], "events without push rules have no entry")
    }

    func testAnEventNoRuleHeldForIsNoPushConditionNotABadLine() throws {
        var yaml = recipe()
        // Only the alert rule, so a status other than delivered plans nothing.
        yaml = yaml.replacingOccurrences(of: "      - name: activity\n        to: {entity: delivery, key: delivery_id}\n        template: activity.json\n",
            with: "")
            .replacingOccurrences(of: "      - name: alert\n        when:", with: "      - when:")
        let ledger = try replay(yaml, lines(statuses: [("d1", #""status":"moving""#), ("d1", #""status":"delivered""#)]))
        XCTAssertEqual(ledger.events.noPushCondition, 1)
        XCTAssertEqual(ledger.events.noPushConditionByKind, ["status": 1])
        XCTAssertEqual(ledger.events.invalidTotal, 0)
        XCTAssertEqual(ledger.events.stateOnly, 3)
        XCTAssertEqual(ledger.events.producedPushes, 1)
        XCTAssertTrue(ledger.events.balanced)
        XCTAssertEqual(ledger.sent.map(\.rule), ["1", "1"], "a rule in a list without a name is named by its place")
        XCTAssertEqual(ledger.events.pushesByRule, ["status": ["1": 2]])
    }

    /// Each kind of test, with the statuses it lets through (of moving with 5 stops, near with 1, delivered without).
    func testEveryKindOfConditionHoldsForTheValuesItNames() throws {
        let cases: [(String, [String])] = [
            ("{status: near}", ["near"]),
            ("{status: {equals: near}}", ["near"]),
            ("{status: {one_of: [moving, delivered]}}", ["moving", "delivered"]),
            ("{status: {not: delivered}}", ["moving", "near"]),
            ("{status: {not: [moving, near]}}", ["delivered"]),
            ("{stops: {present: true}}", ["moving", "near"]),
            ("{stops: {absent: true}}", ["delivered"]),
            ("{stops: {gt: 1}}", ["moving"]),
            ("{stops: {ge: 1}}", ["moving", "near"]),
            ("{stops: {lt: 5}}", ["near"]),
            ("{stops: {le: 5, ge: 2}}", ["moving"]),
            ("{any: [{status: delivered}, {stops: {le: 1}}]}", ["near", "delivered"]),
            ("{all: [{status: {not: delivered}}, {stops: {lt: 3}}]}", ["near"]),
            ("{delivery.courier: Sam, status: moving}", ["moving"]),
        ]
        let statuses = [("d1", #""status":"moving","stops":5"#), ("d1", #""status":"near","stops":1"#), ("d1", #""status":"delivered""#)]
        for (when, expected) in cases {
            let ledger = try replay(recipe(when: when), lines(statuses: statuses))
            let alerted = ledger.sent.filter { $0.rule == "alert" }.map { $0.alert["title"] as? String ?? "?" }
            // Two phones: each status whose condition held is alerted twice.
            XCTAssertEqual(alerted, expected.flatMap { [$0, $0] }, when)
        }
    }

    func testARecipientReadThroughAMissingEntityIsNotSentUnknownTarget() throws {
        let ledger = try replay(recipe(), lines(statuses: [("d9", #""status":"delivered""#)]))
        // The activity's entity and the alert's link are both the delivery the recording never created.
        XCTAssertEqual(ledger.notSent, ["unknown_target": 2])
        XCTAssertEqual(ledger.sent.count, 0)
    }

    func testATwoHopChainReachesTheDevicesOfTheLastEntity() throws {
        try #"{"aps":{"alert":"{{#order_id}}"}}"#.write(to: dir.appendingPathComponent("o.json"), atomically: true, encoding: .utf8)
        let yaml = """
            recipe: orders
            events:
              staff:
                match: {kind: staff}
                fields: {device_id: string, store_id: int, token: token}
                upsert: device
                key: device_id
                token: token
                member_of: {store_staff: store_id}
              store:
                match: {kind: store}
                fields: {store_code: string, store_id: int}
                upsert: store
                key: store_code
                set: [store_id]
              order:
                match: {kind: order}
                fields: {order_id: int, store_code: string}
                create: order
                key: order_id
                set: [store_code]
              ready:
                match: {kind: ready}
                fields: {order_id: int}
                push:
                  to: {group: store_staff, key: {via: [order_id, order.store_code, store.store_id]}}
                  template: o.json
            """
        let ledger = try replay(yaml, [
            #"{"at":"2025-01-01T00:00:00Z","kind":"staff","device_id":"s1","store_id":40,"token":"\#(phone1)"}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"store","store_code":"LDN","store_id":40}"#,
            #"{"at":"2025-01-01T00:00:02Z","kind":"order","order_id":5,"store_code":"LDN"}"#,
            #"{"at":"2025-01-01T00:00:03Z","kind":"order","order_id":6,"store_code":"MAN"}"#,
            #"{"at":"2025-01-01T00:00:04Z","kind":"ready","order_id":5}"#,
            #"{"at":"2025-01-01T00:00:05Z","kind":"ready","order_id":6}"#,
            #"{"at":"2025-01-01T00:00:06Z","kind":"ready","order_id":7}"#,
        ])
        XCTAssertEqual(ledger.sent.map(\.token), [phone1])
        XCTAssertEqual(ledger.sent.first?.aps["alert"] as? Int, 5)
        // Order 6's store MAN was never kept (a missing link); order 7 was never created.
        XCTAssertEqual(ledger.notSent, ["unknown_target": 2])
    }

    func testANullableFieldMustBePresentAndMayBeNull() throws {
        try #"{"aps":{"alert":"{{body}}"}}"#.write(to: dir.appendingPathComponent("n.json"), atomically: true, encoding: .utf8)
        let yaml = """
            recipe: notify
            events:
              notify:
                match: {kind: notify}
                fields:
                  token: {type: token, nullable: true}
                  body: string
                push:
                  to: {token: token}
                  template: n.json
            """
        let ledger = try replay(yaml, [
            #"{"at":"2025-01-01T00:00:00Z","kind":"notify","token":"\#(phone1)","body":"a"}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"notify","token":null,"body":"b"}"#,
            #"{"at":"2025-01-01T00:00:02Z","kind":"notify","body":"c"}"#,
        ])
        XCTAssertEqual(ledger.sent.map(\.token), [phone1])
        XCTAssertEqual(ledger.badLines.map(\.line), [3])
        XCTAssertEqual(ledger.badLines.map(\.cause), ["missing_field"])
        XCTAssertEqual(ledger.notSent, ["no_token": 1, "bad_line": 1])
    }

    func testARecipeIsSendable() throws {
        let recipe: any Sendable = try RecipeLoader.load(yaml: recipe(), file: file)
        XCTAssertNotNil(recipe as? Recipe)
    }
}
