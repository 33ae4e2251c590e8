import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A value read per recipient (`where:`, a slot, a header) reads the recipient's related entities
/// (`recipient.user.tier`: the user the device keeps the key of), and a header (the priority, collapse_id,
/// the expiration) may differ per recipient.
final class RecipeRecipientRelationTests: RecipeScratchCase {
    private let yaml = """
        recipe: rides
        events:
          user:
            match: {kind: user}
            fields: {user_id: string, name: string, tier: string, urgency: int}
            upsert: user
            key: user_id
            set: [name, tier, urgency]
          device:
            match: {kind: device}
            fields: {device_id: string, user_id: string, token: token}
            upsert: device
            key: device_id
            token: token
            set: [user_id]
            member_of: {riders: user_id}
          ride:
            match: {kind: ride}
            fields: {ride_id: string, riders: "[string]"}
            upsert: ride
            key: ride_id
            set: [riders]
          status:
            match: {kind: status}
            fields: {ride_id: string}
            push:
              to: {group: riders, key: ride.riders, where: "recipient.user.tier != 'muted'"}
              template: t.json
              priority: "recipient.user.urgency"
              slots: {title: "'Hi ' + recipient.user.name"}
        """

    private func user(_ id: String, tier: String = "plain", urgency: Int = 5) -> String {
        #"{"kind":"user","user_id":"\#(id)","name":"N\#(id)","tier":"\#(tier)","urgency":\#(urgency)}"#
    }
    private func device(_ n: Int, _ user: String) -> String { #"{"kind":"device","device_id":"d\#(n)","user_id":"\#(user)","token":"\#(token(n))"}"# }

    private func replay(_ lines: [String], yaml: String? = nil) throws -> WorkloadLedger { try replay(yaml ?? self.yaml, lines: timed(lines)) }

    func testWhereSlotsAndPriorityReadTheRecipientsOwner() throws {
        let ledger = try replay([user("a", urgency: 10), user("b", tier: "muted"), user("c", urgency: 5), device(1, "a"), device(2, "b"),
                                 device(3, "c"), device(4, "z"), #"{"kind":"ride","ride_id":"r1","riders":["a","b","c","z"]}"#,
                                 #"{"kind":"status","ride_id":"r1"}"#])
        // b is muted; z has no user: its tier is null, which is not 'muted', and its name null fails the slot.
        XCTAssertEqual(ledger.sent.map(\.token), [token(1), token(3)])
        XCTAssertEqual(ledger.sent.map { $0.alert["title"] as? String }, ["Hi Na", "Hi Nc"])
        XCTAssertEqual(ledger.sent.map(\.priority), [.immediate, .powerAware], "each recipient's own priority")
        XCTAssertEqual(ledger.notSent, ["bad_line": 1])
        XCTAssertEqual(ledger.events.pushesAtOwnPriority, 2)
    }

    func testAPriorityThatIsNot10Or5Or1FailsThatRecipientsPushAlone() throws {
        let ledger = try replay([user("a", urgency: 7), user("c", urgency: 10), device(1, "a"), device(3, "c"),
                                 #"{"kind":"ride","ride_id":"r1","riders":["a","c"]}"#, #"{"kind":"status","ride_id":"r1"}"#])
        XCTAssertEqual(ledger.sent.map(\.token), [token(3)])
        XCTAssertEqual(ledger.badLines.map(\.detail), ["the push rule of event 'status': one recipient's push not sent: "
            + "'events.status.push.priority' column 1: 7 is not 10, 5 or 1"])
    }

    private var headersYAML: String {
        yaml.replacingOccurrences(of: "      priority: \"recipient.user.urgency\"\n",
                                  with: "      collapse_id: \"ride-{{ride_id}}-{{recipient.user.name}}\"\n"
                                      + "      expiration_seconds: \"recipient.user.urgency * 60\"\n")
    }

    func testCollapseIDAndExpirationAreEachRecipientsOwn() throws {
        let ledger = try replay([user("a", urgency: 10), user("c", urgency: 5), device(1, "a"), device(3, "c"),
                                 #"{"kind":"ride","ride_id":"r1","riders":["a","c"]}"#, #"{"kind":"status","ride_id":"r1"}"#], yaml: headersYAML)
        XCTAssertEqual(ledger.sent.map(\.token), [token(1), token(3)])
        XCTAssertEqual(ledger.sent.map(\.collapseID), ["ride-r1-Na", "ride-r1-Nc"])
        XCTAssertEqual(ledger.sent.map(\.expirationSeconds), [600, 300])
    }

    func testAHeaderValueAPNsRefusesFailsThatRecipientsPushAlone() throws {
        let long = String(repeating: "x", count: 70)
        let ledger = try replay([user("a"), user(long), device(1, "a"), device(2, long),
                                 #"{"kind":"ride","ride_id":"r1","riders":["a","\#(long)"]}"#, #"{"kind":"status","ride_id":"r1"}"#],
                                yaml: headersYAML)
        XCTAssertEqual(ledger.sent.map(\.token), [token(1)])
        XCTAssertEqual(ledger.notSent, ["bad_line": 1])
        XCTAssertEqual(ledger.badLines.map(\.detail), ["the push rule of event 'status': one recipient's push not sent: "
            + "'events.status.push.collapse_id' column 1: 'ride-r1-Nxxxxxxxxxxxxxxx…' is 79 bytes; APNs takes at most 64"])
    }

    func testExpirationAtAndApnsIDAreEachRecipientsOwn() throws {
        // 1735689600 is the events' time, 2025-01-01T00:00:00Z; an urgency of 5 makes an 11-digit last group.
        let other = yaml.replacingOccurrences(of: "      priority: \"recipient.user.urgency\"\n",
                                              with: "      expiration_at: \"1735689600 + recipient.user.urgency * 60\"\n"
                                                  + "      apns_id: \"'123e4567-e89b-12d3-a456-4266141740' + string(recipient.user.urgency)\"\n")
        let ledger = try replay([user("a", urgency: 10), user("c", urgency: 5), user("d", urgency: 20), device(1, "a"), device(3, "c"), device(4, "d"),
                                 #"{"kind":"ride","ride_id":"r1","riders":["a","c","d"]}"#, #"{"kind":"status","ride_id":"r1"}"#], yaml: other)
        XCTAssertEqual(ledger.sent.map(\.token), [token(1), token(4)])
        XCTAssertEqual(ledger.sent.map(\.expirationSeconds), [600, 1200])
        XCTAssertEqual(ledger.sent.map { String(decoding: $0.headers[APNsHeaders.apnsID].text, as: UTF8.self) },
                       ["123e4567-e89b-12d3-a456-426614174010", "123e4567-e89b-12d3-a456-426614174020"])
        let why = "the push rule of event 'status': one recipient's push not sent: 'events.status.push.apns_id' column 1: "
            + "'123e4567-e89b-12d3-a456-42661417405' is not a UUID (8-4-4-4-12 hex digits, like 123e4567-e89b-12d3-a456-426614174000)"
        // A bad line's sample keeps the first characters of its detail.
        XCTAssertEqual(ledger.badLines.map(\.detail), [Redaction.sanitize(why, limit: EventTally.badLineDetailLimit)])
    }

    func testARecipientThatKeepsNoKeyOfTheEntityIsRefusedWithTheFix() {
        let bad = yaml.replacingOccurrences(of: "    set: [user_id]\n", with: "")
        XCTAssertThrowsError(try RecipeLoader.load(yaml: bad, file: file)) {
            XCTAssertEqual("\($0)", "\(self.file):26: 'events.status.push.to.where' column 1: reads 'recipient.user.tier', but a device keeps no field "
                + "naming a user (its key: user_id): keep it on the device, set: [user_id], in \"recipient.user.tier != 'muted'\"")
        }
    }

    func testViaFromAFieldTheRecipientKeepsUnderAnotherName() throws {
        let other = yaml.replacingOccurrences(of: "    set: [user_id]\n", with: "    set: {owner: user_id}\n")
            .replacingOccurrences(of: ", where: \"recipient.user.tier != 'muted'\"", with: "")
            .replacingOccurrences(of: "      priority: \"recipient.user.urgency\"\n", with: "")
            .replacingOccurrences(of: "{title: \"'Hi ' + recipient.user.name\"}", with: "{title: {via: [recipient.owner, user.name], default: nobody}}")
        let ledger = try replay([user("a"), device(1, "a"), device(2, "z"), #"{"kind":"ride","ride_id":"r1","riders":["a","z"]}"#,
                                 #"{"kind":"status","ride_id":"r1"}"#], yaml: other)
        XCTAssertEqual(ledger.sent.map { $0.alert["title"] as? String }, ["Na", "nobody"])
    }
}
