import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// Keys that read the same way wherever they are written: `require:` on any event, a kept field cleared by
/// `null`, and every header key reading a scalar as its constant, a format, a name or an expression.
final class RecipeConsistentKeysTests: RecipeScratchCase {
    private let token = String(repeating: "ab", count: 32)

    override var templates: [String: String] { ["t.json": #"{"aps":{"alert":"ride"},"driver":"{{driver}}","lat":"{{#lat}}"}"#] }

    /// Rides: created with a driver or none, assigned (a null driver clears it), located (state only, its ride
    /// required), and pinged (a push showing the ride's kept driver and latitude).
    private func rides(assigned: String = "{driver: {from: driver, absent: null}}") throws -> Recipe {
        let yaml = """
            recipe: rides
            events:
              ride.created:
                match: {kind: ride.created}
                fields: {ride_id: string, token: token, driver: string?}
                upsert: ride
                key: ride_id
                token: token
                set: [driver]
              ride.assigned:
                match: {kind: ride.assigned}
                fields: {ride_id: string, driver: {type: string, nullable: true}}
                update: ride
                key: ride_id
                set: \(assigned)
              ride.located:
                match: {kind: ride.located}
                fields: {ride_id: string, lat: int}
                upsert: ride
                key: ride_id
                set: [lat]
                require: ride
              ride.ping:
                match: {kind: ride.ping}
                fields: {ride_id: string}
                push:
                  name: ping
                  to: {entity: ride, key: ride_id}
                  template: t.json
                  slots: {driver: ride.driver, lat: ride.lat}
            """
        return try RecipeLoader.load(yaml: yaml, file: file)
    }

    private func line(_ kind: String, _ fields: String) -> String { #"{"at":"2025-05-01T10:00:00Z","kind":"\#(kind)",\#(fields)}"# }

    func testRequireOnAStateOnlyEventCountsAMissingEntityAsUnknownTargetAndAKnownOneAsStateOnly() throws {
        let ledger = try WorkloadLedger.replay(try rides(), lines: [
            line("ride.located", #""ride_id":"r9","lat":50"#),
            line("ride.created", #""ride_id":"r1","token":"\#(token)""#),
            line("ride.located", #""ride_id":"r1","lat":51"#),
            line("ride.ping", #""ride_id":"r9""#),
            line("ride.ping", #""ride_id":"r1""#),
        ], for: self)
        XCTAssertEqual(ledger.applied.map(\.pushes), [1, 0, 0, 1, 1])
        XCTAssertEqual(ledger.outcomes.map(\.outcome), [.notSent(.unknownTarget), .notSent(.unknownTarget), .delivered])
        let events = ledger.driver!.events
        XCTAssertEqual(events.stateOnly, 2, "the ride created, and located once it exists")
        XCTAssertEqual(events.noPushCondition, 0)
        XCTAssertEqual(events.invalidTotal, 0, "an unknown ride is not a bad line")
        XCTAssertEqual(events.pushesByRule, ["ride.located": ["require": 1], "ride.ping": ["ping": 2]])
        XCTAssertEqual(events.ruleOutcomes, ["ride.located": ["require": .init(notSent: ["unknown_target": 1])],
                                             "ride.ping": ["ping": .init(toSend: 1, notSent: ["unknown_target": 1])]])
        XCTAssertEqual(events.toSendByKind, [0: [10: 1]])
        XCTAssertEqual(ledger.sent.map(\.rule), ["ping"])
        XCTAssertEqual(ledger.sent.map(\.body), [#"{"aps":{"alert":"ride"},"driver":null,"lat":51}"#],
                       "the unknown ride r9 was not created by its located event")
    }

    func testANullClearsAKeptFieldAndAnAbsentValueLeavesIt() throws {
        let ping = line("ride.ping", #""ride_id":"r1""#)
        let ledger = try WorkloadLedger.replay(try rides(), lines: [
            line("ride.created", #""ride_id":"r1","token":"\#(token)","driver":"ann""#), ping,
            line("ride.created", #""ride_id":"r1","token":"\#(token)""#), ping,
            line("ride.assigned", #""ride_id":"r1","driver":null"#), ping,
            line("ride.assigned", #""ride_id":"r1","driver":"bob""#), ping,
        ], for: self)
        XCTAssertEqual(ledger.sent.map { $0.json["driver"] as? String }, ["ann", "ann", nil, "bob"])
        XCTAssertEqual(ledger.sent[2].body, #"{"aps":{"alert":"ride"},"driver":null,"lat":null}"#)
    }

    func testANullConstantClearsAKeptFieldWhateverTheEventSays() throws {
        let ping = line("ride.ping", #""ride_id":"r1""#)
        let ledger = try WorkloadLedger.replay(try rides(assigned: "{driver: null}"), lines: [
            line("ride.created", #""ride_id":"r1","token":"\#(token)","driver":"ann""#), ping,
            line("ride.assigned", #""ride_id":"r1","driver":"bob""#), ping,
        ], for: self)
        XCTAssertEqual(ledger.sent.map { $0.json["driver"] as? String }, ["ann", nil])
    }

    func testAbsentOmitOnAKeptFieldIsRefused() {
        XCTAssertThrowsError(try rides(assigned: "{driver: {from: driver, absent: omit}}")) { error in
            XCTAssertEqual((error as? ProfileError)?.message, "'events.ride.assigned.set.driver' is kept on the entity, so 'absent: omit' "
                + "(which leaves a slot out of the payload) means nothing here: an absent value leaves the kept field as it was, and "
                + "'absent: null' clears it")
        }
    }
}

/// Every header key reads a scalar the same way: its constant, a text header's format, a plain name as a value
/// source, anything else as an expression; where plain text was a constant collapse id, the new reading is refused.
extension RecipeLoaderErrorTests {
    private func headers(_ extra: String) -> String {
        recipe(fields: "      request_id: int\n      status: string\n      title: string\n      ttl: int\n",
               push: "    push:\n      to: {entity: request, key: request_id}\n      template: t.json\n" + extra)
    }

    private func planned(_ extra: String) throws -> (Recipe, WorkloadLedger) {
        let r = try RecipeLoader.load(yaml: headers(extra), file: file)
        let token = String(repeating: "cd", count: 32)
        let ledger = try WorkloadLedger.replay(r, lines: [
            #"{"at":"2025-05-01T10:00:00Z","kind":"created","request_id":7,"token":"\#(token)"}"#,
            #"{"at":"2025-05-01T10:00:01Z","kind":"status","request_id":7,"status":"ok","title":"t","ttl":30}"#,
        ], for: self)
        return (r, ledger)
    }

    func testAnExpirationWrittenAsAnExpressionIsComputedPerEvent() throws {
        let (_, ledger) = try planned("      expiration_seconds: \"ttl * 60\"\n")
        XCTAssertEqual(ledger.sent.map(\.expirationSeconds), [1800])
    }

    func testAnExpirationAtATimeIsRefusedWithTheKeyThatTakesIt() {
        assertRefused(headers("      expiration_seconds: \"time + 86400\"\n"), line: 21,
                      "'events.status.push.expiration_seconds' reads a time, but 'expiration_seconds' is seconds after the run's start: "
                        + "an expiration at a time is 'expiration_at' (expiration_at: \"time + 86400\")")
    }

    func testACollapseIDExpressionIsReadPerEventAndAQuotedOneIsTheRulesConstant() throws {
        let (_, perEvent) = try planned("      collapse_id: \"'request-' + string(request_id)\"\n")
        XCTAssertEqual(perEvent.sent.map(\.collapseID), ["request-7"])
        let (recipe, constant) = try planned("      collapse_id: \"'requests'\"\n")
        XCTAssertEqual(recipe.pushKinds, [HeaderConstants(), HeaderConstants([APNsHeaders.collapseID: "requests"])])
        XCTAssertEqual(constant.sent.map(\.kind), [1])
    }

    func testAPlainNameThatWasAConstantCollapseIDIsRefusedWithBothForms() {
        assertRefused(headers("      collapse_id: status\n"), line: 21,
                      "'events.status.push.collapse_id' is 'status', a name, which a header value reads as a field now, not as the constant "
                        + "text it was: write {from: status} for the field's value, or \"'status'\" for the constant text")
        assertRefused(headers("      collapse_id: requests\n"), line: 21,
                      "'events.status.push.collapse_id' is 'requests', a name, but no field of event 'status' has it "
                        + "(fields: request_id, status, title, ttl): constant text is quoted, \"'requests'\"")
    }

    func testTextThatIsNoExpressionSaysHowTheKeyIsWritten() {
        assertRefused(headers("      collapse_id: order-updates\n"), line: 21,
                      "'events.status.push.collapse_id' column 1: names 'order', which is not a field of event 'status' "
                        + "(fields: request_id, status, title, ttl), in \"order-updates\"; constant text is quoted, \"'order-updates'\"")
    }

    func testAConstantApnsIDExpressionIsRefused() {
        assertRefused(headers("      apns_id: \"'123e4567-e89b-12d3-a456-426614174000'\"\n"), line: 21,
                      "'events.status.push.apns_id' reads nothing of the event, so every push would carry "
                        + "'123e4567-e89b-12d3-a456-426614174000': write per_push for each push's own, or read it from each event ({from: FIELD})")
    }
}
