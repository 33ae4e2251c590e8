import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A list kept on an entity is edited item by item (`set: {riders: {add: rider_id}}`, `{remove: …}`), inside
/// the event's transaction: a bad line edits nothing.
final class RecipeListEditTests: RecipeScratchCase {
    private let yaml = """
        recipe: rides
        events:
          device:
            match: {kind: device}
            fields: {device_id: string, rider_id: string, token: token}
            upsert: device
            key: device_id
            token: token
            member_of: {riders: rider_id}
          request:
            match: {kind: request}
            fields: {ride_id: string}
            create: ride
            key: ride_id
          board:
            match: {kind: board}
            fields: {ride_id: string, rider_id: string, seats: int}
            update: ride
            key: ride_id
            set: {riders: {add: rider_id}, share: "100 / seats"}
          drop:
            match: {kind: drop}
            fields: {ride_id: string, rider_id: string?, seats: int}
            update: ride
            key: ride_id
            set: {riders: {remove: rider_id}, share: "100 / seats"}
          status:
            match: {kind: status}
            fields: {ride_id: string}
            push:
              to: {group: riders, key: ride.riders}
              template: t.json
              slots: {title: recipient.key}
        """

    private func run(_ lines: [String]) throws -> RecipeRules {
        let rules = try rules(yaml)
        for (i, line) in lines.enumerated() { _ = try apply(rules, line, line: i + 1) }
        return rules
    }

    private func apply(_ rules: RecipeRules, _ json: String, line: Int) throws -> Int { try apply(rules, json, line: line, at: 0) }

    private func riders(_ rules: RecipeRules) -> RecipeValue {
        let ride = rules.recipe.entities.firstIndex { $0.name == "ride" }!
        let field = rules.recipe.entities[ride].fields.firstIndex(of: "riders")!
        return rules.state.field(rules.state.place(ride, .string("r1"))!, field)
    }

    private func board(_ rider: String, seats: Int = 4) -> String { #"{"kind":"board","ride_id":"r1","rider_id":"\#(rider)","seats":\#(seats)}"# }
    private func drop(_ rider: String?, seats: Int = 4) -> String {
        #"{"kind":"drop","ride_id":"r1",\#(rider.map { #""rider_id":"\#($0)","# } ?? "")"seats":\#(seats)}"#
    }
    private let request = #"{"kind":"request","ride_id":"r1"}"#

    private let cancel = "  cancel:\n    match: {kind: cancel}\n    fields: {ride_id: string}\n    update: ride\n    key: ride_id\n"
        + "    set: {riders: \"[]\"}\n"

    func testAnEmptyListClearsAKeptListTakingItsType() throws {
        let rules = RecipeRules(try RecipeLoader.load(yaml: yaml.replacingOccurrences(of: "  status:\n", with: cancel + "  status:\n"), file: file),
                                priority: .immediate)
        for (i, line) in [request, board("a"), board("b"), #"{"kind":"cancel","ride_id":"r1"}"#].enumerated() {
            _ = try apply(rules, line, line: i + 1)
        }
        XCTAssertEqual(riders(rules), .strings([]))
        _ = try apply(rules, board("c"), line: 5)
        XCTAssertEqual(riders(rules), .strings(["c"]), "the cleared list is a list of strings still")
    }

    func testAnEmptyListForAFieldNoEarlierEventKeepsAsAListIsRefused() {
        let bad = yaml.replacingOccurrences(of: "  board:\n", with: cancel + "  board:\n")
        XCTAssertThrowsError(try RecipeLoader.load(yaml: bad, file: file)) {
            XCTAssertEqual("\($0)", "\(self.file):20: 'events.cancel.set.riders' column 1: '[]' is a list of no known type here: it takes its type "
                + "from the list it meets, as in 'c ? [] : tags' or 'tags + []', in \"[]\"")
        }
    }

    func testItemsAreAddedOnceInOrderAndRemoved() throws {
        XCTAssertEqual(riders(try run([request, board("a"), board("b"), board("a"), board("c")])), .strings(["a", "b", "c"]))
        XCTAssertEqual(riders(try run([request, board("a"), board("b"), board("c"), drop("b"), drop("z")])), .strings(["a", "c"]))
        XCTAssertEqual(riders(try run([request, board("a"), drop(nil)])), .strings(["a"]), "an absent item changes nothing")
        XCTAssertEqual(riders(try run([request, drop("a")])), .absent, "removing from no list keeps none")
    }

    func testABadLineAddsOrRemovesNothing() throws {
        let rules = try run([request, board("a"), board("b")])
        let before = rules.state.canonical
        XCTAssertThrowsError(try apply(rules, board("c", seats: 0), line: 9)) {
            XCTAssertEqual("\($0)", "line 9: bad value in field 'events.board.set.share': column 5: division by zero")
        }
        XCTAssertThrowsError(try apply(rules, drop("a", seats: 0), line: 10)) {
            XCTAssertEqual("\($0)", "line 10: bad value in field 'events.drop.set.share': column 5: division by zero")
        }
        XCTAssertEqual(rules.state.canonical, before)
        XCTAssertEqual(riders(rules), .strings(["a", "b"]))
    }

    func testThePushesFollowTheEditedList() throws {
        let device = { (n: Int, rider: String) in #"{"kind":"device","device_id":"d\#(n)","rider_id":"\#(rider)","token":"\#(self.token(n))"}"# }
        let lines = [device(1, "a"), device(2, "b"), request, board("a"), board("b"), #"{"kind":"status","ride_id":"r1"}"#, drop("a"),
                     board("c", seats: 0), #"{"kind":"status","ride_id":"r1"}"#]
        let ledger = try WorkloadLedger.replay(RecipeLoader.load(yaml: yaml, file: file),
                                               lines: lines.map { #"{"at":"2025-01-01T00:00:00Z","# + $0.dropFirst() }, for: self)
        XCTAssertEqual(ledger.sent.map(\.token), [token(1), token(2), token(2)])
        XCTAssertEqual(ledger.badLines.map(\.line), [8])
    }

    func testAnItemThatIsNotAnIntOrAStringIsRefused() {
        let bad = yaml.replacingOccurrences(of: "set: {riders: {add: rider_id}, share: \"100 / seats\"}", with: "set: {riders: {add: \"seats > 1\"}}")
        XCTAssertThrowsError(try RecipeLoader.load(yaml: bad, file: file)) {
            XCTAssertEqual("\($0)", "\(self.file):20: 'events.board.set.riders.add' adds a value of type bool: a kept list holds ints or strings, "
                + "one item at a time")
        }
    }

    func testAListEditTakesOneOfAddOrRemove() {
        let bad = yaml.replacingOccurrences(of: "{riders: {add: rider_id}, share", with: "{riders: {add: rider_id, remove: rider_id}, share")
        XCTAssertThrowsError(try RecipeLoader.load(yaml: bad, file: file)) {
            XCTAssertEqual("\($0)", "\(self.file):20: 'events.board.set.riders.remove' does not go with 'add': a list edit is {add: VALUE} or {remove: VALUE}")
        }
    }
}
