import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// The shipped carpool recipe (profiles/recipes/carpool.yaml): a ride keeps the list of its riders, and every
/// push about it fans out over that list to each rider's devices, once each, with the fare split and formatted.
final class CarpoolRecipeTests: XCTestCase {
    func make(_ lines: [String], ledger: WorkloadLedger) throws -> WorkloadDriver {
        let path = StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: self)
        return try ledger.driver(try ShippedRecipes.rules("carpool"), path: path, badLines: .skip)
    }

    var second = 0
    func line(_ kind: String, _ fields: String) -> String {
        second += 1
        return #"{"at":"2026-03-09T06:\#(String(format: "%02d:%02d", second / 60, second % 60)).000Z","kind":"\#(kind)",\#(fields)}"#
    }

    func device(_ id: String, rider: Int, _ token: String, platform: String = "ios") -> String {
        line("rider.device", #""device_id":"\#(id)","rider_id":\#(rider),"push_token":"\#(token)","platform":"\#(platform)""#)
    }

    func requested(_ ride: Int, _ riders: [Int]) -> String {
        line("ride.requested", #""ride_id":\#(ride),"rider_ids":\#(riders),"pickup":"Britomart""#)
    }

    let t = (1...9).map { AlertTestSupport.token($0) }

    func testARideReachesEveryDeviceOfEveryRiderOnceInTheListsOrder() throws {
        let ledger = WorkloadLedger()
        let lines = [
            device("A", rider: 1, t[1]), device("B", rider: 2, t[2]), device("C", rider: 1, t[3]),
            requested(7, [2, 1]),
            line("ride.rider_added", #""ride_id":7,"rider_id":1"#),   // already on the ride: the list is unchanged
            line("ride.rider_added", #""ride_id":7,"rider_id":3"#),   // rider 3 has no device
            requested(8, [2, 1, 2]),                                  // rider 2 listed twice: each device once
        ]
        ledger.drain(try make(lines, ledger: ledger))
        XCTAssertEqual(ledger.sent.map(\.token), [t[2], t[1], t[3], t[2], t[1], t[3], t[2], t[1], t[3], t[2], t[1], t[3]])
        XCTAssertEqual(ledger.sent[0].alert["body"] as? String, "Pickup at Britomart, shared by 2 riders")
        XCTAssertEqual(ledger.sent[3].alert["body"] as? String, "2 riders now share the ride from Britomart",
                       "the kept list holds each rider once")
        XCTAssertEqual(ledger.sent[6].alert["body"] as? String, "3 riders now share the ride from Britomart")
        XCTAssertEqual(ledger.applied.map(\.pushes), [0, 0, 0, 3, 3, 3, 3])
        ledger.assertBalanced(linesRead: lines.count)
    }

    func testRidersAddedAndRemovedChangeWhoIsReachedAndABadLineChangesNothing() throws {
        let ledger = WorkloadLedger()
        let lines = [
            device("A", rider: 1, t[1]), device("B", rider: 2, t[2]), device("C", rider: 3, t[3]),
            requested(7, [1]),
            line("ride.rider_added", #""ride_id":7,"rider_id":2"#),
            line("ride.rider_removed", #""ride_id":7,"rider_id":1"#),
            line("ride.rider_added", #""ride_id":"7","rider_id":3"#),          // ride_id a string: a bad line
            line("ride.driver_assigned", #""ride_id":7,"driver_name":"Sam","car":"white Corolla","plate":"KZP 481","eta_seconds":61"#),
        ]
        ledger.drain(try make(lines, ledger: ledger))
        XCTAssertEqual(ledger.badLines.map(\.line), [7])
        XCTAssertEqual(ledger.badLines.map(\.cause), ["wrong_type"])
        XCTAssertEqual(ledger.sent.filter { $0.rule == "driver_assigned" }.map(\.token), [t[2]], "rider 1 left; the bad line added nobody")
        let assigned = try XCTUnwrap(ledger.sent.last)
        XCTAssertEqual(assigned.alert["title"] as? String, "Sam is on the way")
        XCTAssertEqual(assigned.alert["body"] as? String, "white Corolla · KZP 481 · 2 minutes away")
        XCTAssertEqual(assigned.priority, .immediate)
        ledger.assertBalanced(linesRead: lines.count)
    }

    func testTheFareIsSplitBetweenTheRidersAndFormatted() throws {
        let ledger = WorkloadLedger()
        let lines = [
            device("A", rider: 1, t[1]), device("B", rider: 2, t[2]), device("C", rider: 3, t[3]),
            requested(7, [1, 2, 3]), line("ride.completed", #""ride_id":7,"fare_cents":2350,"currency":"AUD""#),
            requested(8, [2]), line("ride.completed", #""ride_id":8,"fare_cents":905,"currency":"NZD""#),
        ]
        ledger.drain(try make(lines, ledger: ledger))
        let fares = ledger.sent.filter { $0.rule == "fare" }
        XCTAssertEqual(fares.map(\.token), [t[1], t[2], t[3], t[2]])
        XCTAssertEqual(fares[0].alert["title"] as? String, "Ride complete: A$23.50")
        XCTAssertEqual(fares[0].alert["body"] as? String, "Your share: A$7.83 of A$23.50, split 3 ways")
        XCTAssertEqual(fares[3].alert["body"] as? String, "You paid NZ$9.05")
        XCTAssertEqual(fares[3].json["link"] as? String, "/rides/8/receipt")
        XCTAssertEqual(fares.map(\.priority), [.powerAware, .powerAware, .powerAware, .powerAware])
    }

    func testArrivalGoesAtOnceToPhonesAndAt5ToIPadsAndARideNeverRequestedIsUnknownTarget() throws {
        let ledger = WorkloadLedger()
        let lines = [
            device("A", rider: 1, t[1]), device("B", rider: 1, t[2], platform: "ipados"),
            requested(7, [1]),
            line("ride.driver_assigned", #""ride_id":7,"driver_name":"Uma","car":"blue Ioniq","plate":"LQR 907","eta_seconds":300"#),
            line("ride.arriving", #""ride_id":7,"eta_seconds":30"#),
            line("ride.arriving", #""ride_id":99,"eta_seconds":30"#),
        ]
        ledger.drain(try make(lines, ledger: ledger))
        let arriving = ledger.sent.filter { $0.rule == "arriving" }
        XCTAssertEqual(arriving.map(\.token), [t[1], t[2]])
        XCTAssertEqual(arriving.map(\.priority), [.immediate, .powerAware], "the priority is read per recipient")
        XCTAssertEqual(arriving[0].alert["body"] as? String, "Look for the blue Ioniq, LQR 907, in 30 seconds")
        XCTAssertEqual(ledger.count(.notSent(.unknownTarget)), 1)
        ledger.assertBalanced(linesRead: lines.count)
    }

    /// The shipped recording, line by line, against what the app means, computed here without the recipe:
    /// each ride's riders as a list (joins at the end, once; leaves taken out), each rider's devices in
    /// registration order, and every push's token, rule, priority, title and body in the order they come.
    func testTheShippedRecordingPlansWhatTheAppMeansLineByLine() throws {
        let ledger = WorkloadLedger()
        ledger.drain(try ledger.driver(try ShippedRecipes.rules("carpool"), path: RepoFiles.stream("carpool")))
        let text = try String(contentsOfFile: RepoFiles.stream("carpool"), encoding: .utf8)
        var oracle = CarpoolOracle()
        for raw in text.split(separator: "\n") {
            let fields = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
            oracle.apply(fields)
        }
        XCTAssertEqual(ledger.badLines, [])
        ledger.assertBalanced(linesRead: text.split(separator: "\n").count)
        XCTAssertEqual(ledger.sent.count, oracle.pushes.count)
        for (i, (got, want)) in zip(ledger.sent, oracle.pushes).enumerated() {
            let shown = "push \(i + 1): \(want)"
            XCTAssertEqual(got.token, want.token, shown)
            XCTAssertEqual(got.rule, want.rule, shown)
            XCTAssertEqual(got.priority.rawValue, want.priority, shown)
            XCTAssertEqual(got.alert["title"] as? String, want.title, shown)
            XCTAssertEqual(got.alert["body"] as? String, want.body, shown)
            if got.token != want.token { break }
        }
        XCTAssertEqual(ledger.count(.notSent(.noRecipients)), oracle.noRecipients)
        XCTAssertEqual(ledger.count(.notSent(.unknownTarget)), oracle.unknownTarget)
        // The recording reaches every path: shared rides, riders joining and leaving, a new token, no device,
        // a ride from before the recording, and both platforms.
        XCTAssertGreaterThan(oracle.pushes.filter { $0.rule == "fare" && $0.body.contains("ways") }.count, 50)
        XCTAssertGreaterThan(oracle.noRecipients, 0)
        XCTAssertGreaterThan(oracle.unknownTarget, 0)
        XCTAssertGreaterThan(oracle.newTokens, 0)
        XCTAssertEqual(Set(oracle.pushes.filter { $0.rule == "arriving" }.map(\.priority)), [5, 10])
    }
}

/// The carpool app's meaning, written out without the recipe language (the line-by-line test's oracle).
struct CarpoolOracle {
    struct Push: CustomStringConvertible {
        var token: String, rule: String, priority: Int, title: String, body: String
        var description: String { "\(rule) p\(priority) \(token.prefix(8)) \(title) / \(body)" }
    }
    struct Ride { var riders: [Int], pickup: String, driver = "", car = "", plate = "" }
    var devicesOfRider: [Int: [String]] = [:]
    var device: [String: (token: String, platform: String, rider: Int)] = [:]
    var rides: [Int: Ride] = [:]
    var pushes: [Push] = []
    var noRecipients = 0, unknownTarget = 0, newTokens = 0

    func reached(_ riders: [Int]) -> [String] {
        var seen = Set<String>()
        return riders.flatMap { devicesOfRider[$0] ?? [] }.filter { seen.insert($0).inserted }
    }

    mutating func push(_ ride: Ride, _ rule: String, title: String, body: String, priority: (String) -> Int) {
        let devices = reached(ride.riders)
        if devices.isEmpty { noRecipients += 1 }
        pushes += devices.map { d in
            Push(token: device[d]!.token, rule: rule, priority: priority(device[d]!.platform), title: title, body: body)
        }
    }

    mutating func apply(_ f: [String: Any]) {
        let ride = f["ride_id"] as? Int ?? -1
        switch f["kind"] as? String {
        case "rider.device":
            let id = f["device_id"] as! String, rider = f["rider_id"] as! Int
            if device[id] != nil { newTokens += 1 } else { devicesOfRider[rider, default: []].append(id) }
            device[id] = (f["push_token"] as! String, f["platform"] as! String, rider)
        case "ride.requested":
            var riders: [Int] = []
            for r in f["rider_ids"] as! [Int] where !riders.contains(r) { riders.append(r) }
            let listed = (f["rider_ids"] as! [Int]).count
            rides[ride] = Ride(riders: riders, pickup: f["pickup"] as! String)
            let shared = listed > 1 ? ", shared by \(listed) riders" : ""
            push(rides[ride]!, "requested", title: "Ride requested", body: "Pickup at \(rides[ride]!.pickup)\(shared)") { _ in 5 }
        case "ride.rider_added":
            if !rides[ride]!.riders.contains(f["rider_id"] as! Int) { rides[ride]!.riders.append(f["rider_id"] as! Int) }
            let r = rides[ride]!
            push(r, "rider_added", title: "A rider joined", body: "\(r.riders.count) riders now share the ride from \(r.pickup)") { _ in 5 }
        case "ride.rider_removed":
            rides[ride]!.riders.removeAll { $0 == f["rider_id"] as! Int }
        case "ride.driver_assigned":
            rides[ride]!.driver = f["driver_name"] as! String
            rides[ride]!.car = f["car"] as! String
            rides[ride]!.plate = f["plate"] as! String
            let minutes = ((f["eta_seconds"] as! Int) + 59) / 60, r = rides[ride]!
            push(r, "driver_assigned", title: "\(r.driver) is on the way",
                 body: "\(r.car) · \(r.plate) · \(minutes) \(minutes == 1 ? "minute" : "minutes") away") { _ in 10 }
        case "ride.arriving":
            guard let r = rides[ride] else { unknownTarget += 1; return }
            push(r, "arriving", title: "\(r.driver) is arriving",
                 body: "Look for the \(r.car), \(r.plate), in \(f["eta_seconds"] as! Int) seconds") { $0 == "ios" ? 10 : 5 }
        case "ride.completed":
            guard let r = rides[ride] else { unknownTarget += 1; return }
            let symbol = f["currency"] as! String == "NZD" ? "NZ$" : "A$", cents = Double(f["fare_cents"] as! Int)
            let fare = symbol + String(format: "%.2f", cents / 100), n = r.riders.count
            let share = symbol + String(format: "%.2f", cents / 100 / Double(n))
            push(r, "fare", title: "Ride complete: \(fare)",
                 body: n == 1 ? "You paid \(fare)" : "Your share: \(share) of \(fare), split \(n) ways") { _ in 5 }
        default:
            break
        }
    }
}
