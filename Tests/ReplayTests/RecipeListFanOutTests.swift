import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A recipient key that is a list fans out over every key of it, and `to: {groups: […]}` over several group
/// keys: every recipient reached once (where it was first reached), at a cost in proportion to the recipients.
final class RecipeListFanOutTests: RecipeScratchCase {
    private let yaml = """
        recipe: rides
        events:
          device:
            match: {kind: device}
            fields: {device_id: string, rider_id: string, city: string, token: token}
            upsert: device
            key: device_id
            token: token
            member_of: {riders: rider_id, cities: city}
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
              to: {group: riders, key: ride.riders}
              template: t.json
              slots: {title: recipient.key}
          alert:
            match: {kind: alert}
            fields: {ride_id: string, city: string}
            push:
              to: {groups: [{group: riders, key: ride.riders}, {group: cities, key: city}], where: "recipient.key != 'd9'"}
              template: t.json
              slots: {title: recipient.key}
        """

    private func device(_ n: Int, rider: String, city: String = "paris") -> String {
        #"{"kind":"device","device_id":"d\#(n)","rider_id":"\#(rider)","city":"\#(city)","token":"\#(token(n))"}"#
    }

    private func ride(_ id: String, _ riders: [String]) -> String {
        #"{"kind":"ride","ride_id":"\#(id)","riders":[\#(riders.map { "\"\($0)\"" }.joined(separator: ","))]}"#
    }

    private func replay(_ lines: [String]) throws -> WorkloadLedger { try replay(yaml, lines: timed(lines)) }

    func testAListKeyFansOutToTheMembersOfEveryKeyInListOrder() throws {
        // Rider a has d1 and d3, rider b d2; c has none; the ride lists b, then a, then c.
        let ledger = try replay([device(1, rider: "a"), device(2, rider: "b"), device(3, rider: "a"), ride("r1", ["b", "a", "c"]),
                                 #"{"kind":"status","ride_id":"r1"}"#])
        XCTAssertEqual(ledger.sent.map(\.token), [token(2), token(1), token(3)])
        XCTAssertEqual(ledger.sent.map { $0.alert["title"] as? String }, ["d2", "d1", "d3"])
        XCTAssertEqual(ledger.applied.last?.pushes, 3)
    }

    func testARecipientReachedByTwoKeysOrTwoGroupsGetsOnePushAtItsFirstPlace() throws {
        // d1 is rider a's device twice over (the ride lists a twice) and in paris; d2 is b's and in paris;
        // d4 only in paris; d5 in lyon.
        let ledger = try replay([device(1, rider: "a"), device(2, rider: "b"), device(4, rider: "z"), device(5, rider: "y", city: "lyon"),
                                 ride("r1", ["a", "b", "a"]), #"{"kind":"alert","ride_id":"r1","city":"paris"}"#])
        XCTAssertEqual(ledger.sent.map(\.token), [token(1), token(2), token(4)])
        XCTAssertEqual(ledger.notSent, [:])
    }

    func testAWhereFiltersTheGatheredRecipients() throws {
        let ledger = try replay([device(1, rider: "a"), device(9, rider: "a"), device(2, rider: "b"), ride("r1", ["a"]),
                                 #"{"kind":"alert","ride_id":"r1","city":"paris"}"#])
        XCTAssertEqual(ledger.sent.map(\.token), [token(1), token(2)], "d9 fails the where:, reached by both groups")
    }

    func testAnEmptyListOrAnUnknownRideReachesNobodyAndSaysWhy() throws {
        let ledger = try replay([device(1, rider: "a"), ride("r1", []), #"{"kind":"status","ride_id":"r1"}"#,
                                 #"{"kind":"status","ride_id":"r2"}"#])
        XCTAssertEqual(ledger.sent.count, 0)
        XCTAssertEqual(ledger.notSent, ["no_recipients": 1, "unknown_target": 1])
    }

    /// The cost: one step per key looked up and one per member visited, the same with 1 or 301 other devices.
    func testTheCostIsInProportionToTheRecipientsNotToAllDevices() throws {
        func steps(others: Int) throws -> Int {
            let rules = RecipeRules(try RecipeLoader.load(yaml: yaml, file: file), priority: .immediate)
            var lines = [device(1, rider: "a"), device(2, rider: "b"), device(3, rider: "a")]
            lines += (0 ..< others).map { device(100 + $0, rider: "other\($0 % 7)", city: "c\($0 % 5)") }
            lines += [ride("r1", ["a", "b", "c"]), #"{"kind":"status","ride_id":"r1"}"#]
            var planned = 0
            for (i, line) in lines.enumerated() {
                let fields = try FlatJSON.parse(line, line: i + 1)
                planned = try rules.apply(StreamRecord(line: i + 1, at: 0, kind: try fields.optionalString("kind") ?? "", fields: fields))
            }
            XCTAssertEqual(planned, 3)
            return rules.fanOutSteps
        }
        // Three keys looked up (a, b, c) and three members visited (d1, d3, d2).
        XCTAssertEqual(try steps(others: 1), 6)
        XCTAssertEqual(try steps(others: 301), 6)
    }

    func testAListKeyOfAnEntityRecipientIsRefusedNamingTheGroupForm() {
        let bad = yaml.replacingOccurrences(of: "to: {group: riders, key: ride.riders}", with: "to: {entity: device, key: ride.riders}")
        XCTAssertThrowsError(try RecipeLoader.load(yaml: bad, file: file)) {
            XCTAssertEqual("\($0)", "\(self.file):20: 'events.status.push.to.key' reads 'ride.riders', a list of string: an entity recipient's key "
                + "is one value; a list of keys fans out over a group (to: {group: G, key: LIST}), whose members each get one push")
        }
    }

    func testGroupTargetsOfTwoEntityTypesAreRefused() {
        let bad = yaml.replacingOccurrences(of: "{group: cities, key: city}]", with: "{group: cities, key: city}, {group: owners, key: city}]")
            + "\n  car:\n    match: {kind: car}\n    fields: {car_id: string, owner: string}\n    upsert: car\n    key: car_id\n"
            + "    member_of: {owners: owner}\n"
        XCTAssertThrowsError(try RecipeLoader.load(yaml: bad, file: file)) {
            XCTAssertEqual("\($0)", "\(self.file):27: 'events.alert.push.to.groups[2]' reaches car, but the items before it reach device: "
                + "one push rule's recipients are one entity type")
        }
    }

    func testAFanOutOverTheBroadcastGroupIsRefused() {
        let bad = yaml.replacingOccurrences(of: "fields: {device_id: string, rider_id: string, city: string, token: token}",
                                            with: "fields: {device_id: string, rider_id: string, city: string, token: token, channel: string?}")
            .replacingOccurrences(of: "member_of: {riders: rider_id, cities: city}",
                                  with: "member_of: {riders: rider_id, cities: city}\n    subscribe: channel")
            + "\nbroadcast: {group: riders}\n"
        XCTAssertThrowsError(try RecipeLoader.load(yaml: bad, file: file)) {
            XCTAssertEqual("\($0)", "\(self.file):31: 'broadcast' makes group 'riders' a broadcast, one push to one key's channel, but push rule '1' "
                + "of event 'status' fans out over several of its keys")
        }
    }
}
