import APNsCore
import Foundation
@testable import Replay
import XCTest

/// `apnsbench recipe init`: a recording's lines grouped into events, their fields typed, and the skeleton loads
/// and reads every line of the recording it came from.
final class RecipeScaffoldTests: XCTestCase {
    private let token = String(repeating: "ab", count: 32)

    /// Writes the skeleton of `lines`, loads it, and replays the lines through it.
    private func scaffold(_ lines: [String]) throws -> (yaml: String, recipe: Recipe, ledger: WorkloadLedger) {
        let path = StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: self)
        let yaml = try RecipeScaffold.scaffold(recording: path, name: "app")
        let recipe = try RecipeLoader.load(yaml: yaml, file: path + ".recipe.yaml")
        let ledger = WorkloadLedger()
        ledger.drain(try ledger.driver(RecipeRules(recipe, priority: .immediate), path: path, shape: recipe.recordShape))
        ledger.assertBalanced(linesRead: lines.count)
        return (yaml, recipe, ledger)
    }

    func testAPICallsAreGroupedByMethodAndPathPatternWithIDsAsCaptures() throws {
        let uuid = "3f2b8c1e-9d4a-4e7b-a1c2-0d9e8f7a6b5c"
        let (yaml, recipe, ledger) = try scaffold([
            #"{"at":"2025-01-01T00:00:00.000Z","method":"POST","path":"/devices","body":{"installation_id":"inst-1","device_token":"\#(token)"},"#
                + #""response":{"status":201,"body":{}}}"#,
            #"{"at":"2025-01-01T00:00:01.000Z","method":"PUT","path":"/parcels/P048100/status","body":{"status":"picked_up","stops":null},"#
                + #""response":{"status":200}}"#,
            #"{"at":"2025-01-01T00:00:02.000Z","method":"PUT","path":"/parcels/P048101/status","body":{"status":"delivered","stops":3,"#
                + #""eta":"2025-01-01T01:00:00Z"},"response":{"status":200}}"#,
            #"{"at":"2025-01-01T00:00:03.000Z","method":"DELETE","path":"/devices/\#(uuid)","body":{}}"#,
            #"{"at":"2025-01-01T00:00:04.000Z","method":"PUT","path":"/parcels/export/status","body":{"status":"x","stops":1}}"#,
        ])
        XCTAssertEqual(ledger.events.invalidTotal, 0, "every line matched:\n\(yaml)")
        XCTAssertEqual(ledger.events.read, 5)
        XCTAssertEqual(ledger.outcomes.count, 0, "the skeleton plans no push")
        // A literal segment is matched before a capture in its place.
        XCTAssertEqual(recipe.events.map(\.name), ["devices.post", "parcels.export.status.put", "parcels.status.put", "devices.delete"])
        let status = try XCTUnwrap(recipe.events.first { $0.name == "parcels.status.put" })
        XCTAssertEqual(status.fields.map(\.name), ["parcel_id", "status", "stops", "eta"])
        XCTAssertEqual(status.fields.map(\.type), [.string, .string, .int, .string])
        // `stops` is on every line, once null: present but nullable; `eta` is on one line: optional.
        XCTAssertEqual(status.fields.map(\.nullable), [false, false, true, false])
        XCTAssertEqual(status.fields.map(\.optional), [false, false, false, true])
        XCTAssertEqual(recipe.events[0].fields.map(\.type), [.string, .token])
        XCTAssertTrue(yaml.contains(#"device_token: {type: token, from: body.device_token}"#), yaml)
        XCTAssertTrue(yaml.contains("# device token"), yaml)
        XCTAssertTrue(yaml.contains("# a time (ISO 8601)"), yaml)
        XCTAssertTrue(yaml.contains(#"parcel_id: {type: string, from: path.parcelId}"#), yaml)
        XCTAssertTrue(yaml.contains("    # push:"), yaml)
    }

    func testASegmentTakingManyValuesIsACaptureSlugsIncluded() throws {
        let staff = ["sakura-sushi", "pasta-place", "noodle-bar"].enumerated().map { i, slug in
            #"{"at":"2025-01-01T00:00:0\#(i)Z","method":"POST","path":"/v1/restaurants/\#(slug)/staff","body":{"name":"n\#(i)"}}"#
        }
        let (yaml, recipe, ledger) = try scaffold(staff + [
            #"{"at":"2025-01-01T00:00:05Z","method":"POST","path":"/v1/orders","body":{"n":1}}"#,
            #"{"at":"2025-01-01T00:00:06Z","method":"POST","path":"/v1/devices","body":{"n":2}}"#,
            #"{"at":"2025-01-01T00:00:07Z","method":"POST","path":"/v1/tablets","body":{"n":3}}"#,
        ])
        XCTAssertEqual(ledger.events.invalidTotal, 0, yaml)
        // One event for every restaurant; the collections after the version stay events of their own.
        XCTAssertEqual(recipe.events.map(\.name), ["orders.post", "devices.post", "tablets.post", "restaurants.staff.post"])
        XCTAssertTrue(yaml.contains(#"match: "POST /v1/restaurants/:restaurantId/staff""#), yaml)
        XCTAssertTrue(yaml.contains(#"restaurant_id: {type: string, from: path.restaurantId}"#), yaml)
    }

    func testAnObjectThatIsSometimesNullIsReadByItsMembersEachOptional() throws {
        let (yaml, recipe, ledger) = try scaffold([
            #"{"at":"2025-01-01T00:00:00Z","kind":"a","courier":{"name":"Sam","phone":"1"}}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"a","courier":null}"#,
            #"{"at":"2025-01-01T00:00:02Z","kind":"a","courier":{"name":"Al","phone":"2"}}"#,
        ])
        XCTAssertEqual(ledger.events.invalidTotal, 0, yaml)
        // Not a `string?` "always null": the object's members, absent on the line where it is null.
        XCTAssertEqual(recipe.events[0].fields.map(\.shownAs), ["courier.name", "courier.phone"])
        XCTAssertEqual(recipe.events[0].fields.map(\.optional), [true, true])
        XCTAssertFalse(yaml.contains("always null"), yaml)
    }

    func testEventsWithAKindFieldAreGroupedByItsValue() throws {
        let (yaml, recipe, ledger) = try scaffold([
            #"{"at":1735689600,"kind":"device.register","device_id":"d1","push_token":"\#(token)","store_ids":[1,2]}"#,
            #"{"at":1735689601,"kind":"order.change","store_id":1,"late":0.5}"#,
            #"{"at":1735689602,"kind":"order.change","store_id":2,"late":2}"#,
        ])
        XCTAssertEqual(ledger.events.invalidTotal, 0, yaml)
        XCTAssertEqual(recipe.timeFormat, .unixSeconds)
        XCTAssertEqual(recipe.events.map(\.name), ["device.register", "order.change"])
        XCTAssertEqual(recipe.events[0].fields.map(\.type), [.string, .token, .ints])
        // An integer on one line and a fraction on another is a number.
        XCTAssertEqual(recipe.events[1].fields.map(\.type), [.int, .number])
        XCTAssertTrue(yaml.contains(#"match: {kind: "order.change"}"#), yaml)
    }

    func testAFieldWhoseLinesDisagreeOnItsTypeIsLeftOut() throws {
        let (_, recipe, ledger) = try scaffold([
            #"{"at":"2025-01-01T00:00:00Z","kind":"a","x":1,"y":"s"}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"a","x":"one","y":"t"}"#,
        ])
        XCTAssertEqual(ledger.events.invalidTotal, 0)
        XCTAssertEqual(recipe.events[0].fields.map(\.name), ["y"])
    }

    func testARecordingWithoutATimeFieldIsAnErrorNamingIt() throws {
        let path = StreamTestFiles.write(#"{"kind":"a","x":1}"# + "\n", for: self)
        XCTAssertThrowsError(try RecipeScaffold.scaffold(recording: path)) { error in
            XCTAssertEqual("\(error)", "\(path):1: no time field (at, timestamp, time, ts, created_at, occurred_at) with an ISO 8601 text or a number")
        }
    }

    func testNestedNamesKeepTheirPrefixADeleteHasNoBodyPushesGoWhereATokenIsKnownAndValueSetsAreOneOf() throws {
        let status = ["accepted", "arrived", "accepted", "arrived"].enumerated().map { i, s in
            #"{"at":"2025-01-01T00:00:0\#(i + 2)Z","method":"PUT","path":"/v1/rides/r\#(i % 2)/status","body":{"status":"\#(s)"}}"#
        }
        let (yaml, recipe, ledger) = try scaffold([
            #"{"at":"2025-01-01T00:00:00Z","method":"POST","path":"/v1/devices","body":{"rider_id":"u1","device_token":"\#(token)"}}"#,
            #"{"at":"2025-01-01T00:00:01Z","method":"POST","path":"/v1/rides","body":{"rider_id":"u1","pickup":{"label":"Home"},"dropoff":{"label":"Work"}}}"#,
        ] + status + [
            #"{"at":"2025-01-01T00:00:07Z","method":"DELETE","path":"/v1/rides/r2","body":null}"#,
        ])
        XCTAssertEqual(ledger.events.invalidTotal, 0, yaml)
        XCTAssertEqual(recipe.events.map(\.name), ["devices.post", "rides.post", "rides.status.put", "rides.delete"])
        let events = yaml.components(separatedBy: "events:\n")[1]
        XCTAssertEqual(events, """
              devices.post:                         # 1 line, the first line 1
                match: "POST /v1/devices"
                fields:
                  rider_id: {type: string, from: body.rider_id}                     # id
                  device_token: {type: token, from: body.device_token}              # device token
                # push:                       # what this event sends, if anything: fill in and uncomment
                #   to: {token: device_token}
                #   template: templates/devices.post.json
                #   when: {FIELD: VALUE}        # optional: only when it holds
              rides.post:                           # 1 line, the first line 2
                match: "POST /v1/rides"
                fields:
                  rider_id: {type: string, from: body.rider_id}                     # id
                  pickup_label: {type: string, from: body.pickup.label}
                  dropoff_label: {type: string, from: body.dropoff.label}
                # push:                       # what this event sends, if anything: fill in and uncomment
                #   to: {entity: rider, key: rider_id}    # its token: upsert: rider, key: rider_id, token: … on devices.post
                #   template: templates/rides.post.json
                #   when: {FIELD: VALUE}        # optional: only when it holds
              rides.status.put:                     # 4 lines, the first line 3
                match: "PUT /v1/rides/:rideId/status"
                fields:
                  ride_id: {type: string, from: path.rideId}                        # id
                  status: {type: string, from: body.status, one_of: [accepted, arrived]} # the values the recording has
                # no push suggested: no field of this event is a device token, and no event with one names it by an id field
              rides.delete:                         # 1 line, the first line 7
                match: "DELETE /v1/rides/:rideId"
                fields:
                  ride_id: {type: string, from: path.rideId}                        # id
                # no push suggested: no field of this event is a device token, and no event with one names it by an id field

            """)
    }
}
