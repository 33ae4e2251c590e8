import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// The shipped order-changes recipe with broadcast delivery, in memory: one push per store's channel reaching its subscribers, the causes of an
/// order change that cannot be broadcast, and `activity.end` still a push to one device.
final class OrderChangesBroadcastTests: XCTestCase {
    let tokenA = String(repeating: "a1", count: 80), tokenB = String(repeating: "b2", count: 80)
    let tokenC = String(repeating: "c3", count: 80), tokenD = String(repeating: "d4", count: 32), tokenE = String(repeating: "e5", count: 32)

    func register(_ at: Int, _ device: String, _ token: String, _ stores: [Int], channel: Int? = nil) -> String {
        let sub = channel.map { #","input_push_channel":\#($0)"# } ?? ""
        return #"{"at":"2025-02-25T10:00:\#(String(format: "%02d", at))Z","kind":"device.register","device_id":"\#(device)","push_token":"\#(token)","#
            + #""store_ids":\#(stores)\#(sub)}"#
    }
    func change(_ at: Int, store: Int) -> String {
        #"{"at":"2025-02-25T10:00:\#(String(format: "%02d", at))Z","kind":"order.change","store_id":\#(store),"totalOrders":3,"lateOrders":1,"totalItems":9}"#
    }
    func end(_ at: Int, _ device: String) -> String {
        #"{"at":"2025-02-25T10:00:\#(String(format: "%02d", at))Z","kind":"activity.end","device_id":"\#(device)"}"#
    }

    func testOneBroadcastPerStoreChannelReachesItsSubscribers() throws {
        let lines = [
            register(0, "D1", tokenA, [5, 8], channel: 5), register(1, "D2", tokenB, [5], channel: 5),
            register(2, "D3", tokenC, [6]), register(3, "D4", tokenD, [5]), register(4, "D5", tokenE, [7], channel: 7),
            change(10, store: 5), change(11, store: 6), change(12, store: 7),
            end(13, "D1"), change(14, store: 5), change(15, store: 5),
        ]
        let path = StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: self)
        let ledger = WorkloadLedger()
        let rules = try ShippedRecipes.rules("order-changes", channels: BroadcastChannels(
            byStore: [5: .init(index: 0, id: "Y2hhbm5lbC01"), 6: .init(index: 1, id: "Y2hhbm5lbC02")], refused: [7]))
        let driver = try ledger.driver(rules, path: path)
        ledger.drain(driver)

        XCTAssertEqual(ledger.sent.map(\.token), ["Y2hhbm5lbC01", tokenA, "Y2hhbm5lbC01", "Y2hhbm5lbC01"])
        XCTAssertEqual(ledger.sent.map(\.channel), [0, -1, 0, 0], "activity.end is a push to the one device")
        XCTAssertEqual(ledger.sent.map(\.reach), [2, 1, 1, 1], "D1's activity ended: the store's channel reaches D2 alone")
        // Store 6 has a follower but no subscriber; store 7's channel was refused for the limit.
        XCTAssertEqual(ledger.notSent, ["no_recipients": 1, "channel_limit": 1])
        XCTAssertEqual(ledger.applied.map(\.pushes), [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], "one planned push per order change")
        // D4 follows store 5 without a subscription, three times; D3 follows store 6 once.
        XCTAssertEqual(rules.followersNotSubscribed, 4)
        XCTAssertEqual((driver as ReplaySource).followersNotSubscribed, 4, "the workload's count, through its source")
        XCTAssertNil((driver as ReplaySource).recordingPasses, "not looped")
        let stamps = ledger.sent.filter { $0.channel == 0 }.compactMap { $0.aps["timestamp"] as? Int }
        XCTAssertEqual(stamps, stamps.sorted())
        XCTAssertEqual(Set(stamps).count, stamps.count, "aps.timestamp strictly increases per channel")
    }

    func testDeviceDeliveryIgnoresSubscriptions() throws {
        let lines = [register(0, "D1", tokenA, [5], channel: 5), register(1, "D2", tokenB, [5]), change(2, store: 5)]
        let path = StreamTestFiles.write(lines.joined(separator: "\n") + "\n", for: self)
        let ledger = WorkloadLedger()
        let rules = try ShippedRecipes.rules("order-changes")
        ledger.drain(try ledger.driver(rules, path: path))
        XCTAssertEqual(ledger.sent.map(\.token), [tokenA, tokenB])
        XCTAssertEqual(ledger.sent.map(\.channel), [-1, -1])
    }

    /// Broadcast delivery needs a recipe that names its broadcast group: order-changes does, leave-requests
    /// does not and is refused before anything is sent, naming the recipe and what to add.
    func testBroadcastNeedsARecipeWithABroadcastGroup() throws {
        func config(_ name: String) -> RunConfig {
            var c = RunConfig(name: name, profilePath: "p.yaml",
                              workload: .init(name: name, stream: "s.ndjson", recipe: RepoFiles.recipe(name), bundleID: "com.example.app"))
            c.delivery = .broadcast
            return c
        }
        XCTAssertEqual(try Workloads.recipes(for: config("order-changes")).map(\.broadcasts), [true])
        XCTAssertThrowsError(try Workloads.recipes(for: config("leave-requests"))) { error in
            XCTAssertEqual("\(error)", "\(RepoFiles.recipe("leave-requests")): delivery is broadcast, but the recipe names no broadcast group: "
                + "add 'broadcast: {group: G}' (a group whose members' activities subscribe to its key's channel with 'subscribe:'), or deliver to devices")
        }
    }

    /// order-changes-channels.ndjson is order-changes.ndjson with each registration subscribed to its first store.
    func testTheChannelsRecordingSubscribesEachActivityToItsFirstStoreAndChangesNothingElse() throws {
        let a = try String(contentsOfFile: RepoFiles.stream("order-changes"), encoding: .utf8).split(separator: "\n")
        let b = try String(contentsOfFile: RepoFiles.stream("order-changes-channels"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(a.count, b.count)
        var registrations = 0
        for (x, y) in zip(a, b) {
            guard x.contains("device.register") else {
                XCTAssertEqual(x, y)
                continue
            }
            registrations += 1
            let plain = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(x.utf8)) as? NSDictionary)
            let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(y.utf8)) as? [String: Any])
            XCTAssertEqual(obj["input_push_channel"] as? Int, (obj["store_ids"] as? [Int])?.first)
            XCTAssertEqual(plain, (obj.filter { $0.key != "input_push_channel" }) as NSDictionary)
        }
        XCTAssertGreaterThan(registrations, 0)
    }
}

/// Over the first half of the shipped order-changes-channels.ndjson: every follower push device delivery plans for an order change is
/// either a subscriber a broadcast reaches or a follower the broadcast does not cover, so "devices reached"
/// differs between the modes exactly by the subscriptions.
final class BroadcastReachIdentityTests: XCTestCase {
    func testFollowerPushesAreSubscribersReachedPlusFollowersNotCovered() throws {
        let bytes = [UInt8](try RepoFiles.streamPrefix("order-changes-channels", lines: 3_000))
        let path = StreamTestFiles.write(bytes, for: self)
        let stores = Set(String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line -> Int? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return o["input_push_channel"] as? Int
        })

        func replay(broadcast: Bool) throws -> (WorkloadLedger, RecipeRules) {
            let ledger = WorkloadLedger()
            let channels = broadcast ? BroadcastChannels(byStore: Dictionary(uniqueKeysWithValues: stores.sorted().enumerated().map {
                ($0.element, BroadcastChannels.Channel(index: Int32($0.offset), id: "ch\($0.offset)"))
            })) : nil
            let rules = try ShippedRecipes.rules("order-changes", channels: channels)
            ledger.drain(try ledger.driver(rules, path: path))
            return (ledger, rules)
        }
        let (device, _) = try replay(broadcast: false)
        let (broadcast, rules) = try replay(broadcast: true)
        let endPushes = device.sent.filter { ($0.aps["event"] as? String) == "end" && $0.channel < 0 }.count
        let followerPushes = device.sent.count - endPushes
        let broadcasts = broadcast.sent.filter { $0.channel >= 0 }
        let reach = broadcasts.reduce(0) { $0 + Int($1.reach) }
        XCTAssertGreaterThan(broadcasts.count, 0)
        XCTAssertLessThan(broadcasts.count * 3, followerPushes, "a broadcast stands for several device pushes")
        XCTAssertEqual(followerPushes, reach + rules.followersNotSubscribed,
                       "device pushes for order changes = subscribers the broadcasts reach + followers not subscribed")
        XCTAssertEqual(broadcast.sent.filter { $0.channel < 0 }.count, endPushes, "activity.end goes to the device in both modes")
    }
}
