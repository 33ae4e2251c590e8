import APNsCore
@testable import APNsSimulator
import Foundation
import NIOCore
import XCTest

/// The channel state in memory: `ChannelTable` (the value), `ChannelStore` (its locked public face),
/// and the pure parts of a request (route, create body, id form).
final class ChannelTableTests: XCTestCase {
    let app = "com.example.app"

    func testTheLimitIsPerBundleAndADeleteFreesASlot() {
        var t = ChannelTable(limitPerBundle: 2)
        XCTAssertEqual(t.create(bundleID: app, policy: .noMessageStored, id: "a"), .created(BroadcastChannel(id: "a", bundleID: app,
            storagePolicy: .noMessageStored)))
        guard case .created = t.create(bundleID: app, policy: .mostRecentMessageStored, id: "b") else { return XCTFail() }
        XCTAssertEqual(t.create(bundleID: app, policy: .noMessageStored, id: "c"), .limitReached)
        guard case .created = t.create(bundleID: "com.example.other", policy: .noMessageStored, id: "c") else { return XCTFail("per bundle") }
        XCTAssertTrue(t.delete(id: "a"))
        XCTAssertFalse(t.delete(id: "a"), "already gone")
        guard case .created = t.create(bundleID: app, policy: .noMessageStored, id: "d") else { return XCTFail("the freed slot") }
        XCTAssertEqual(t.ids(bundleID: app), ["b", "d"], "creation order")
    }

    func testADeletedIDIsNeverHandedOutAgainAndLookupsArePerBundle() {
        var t = ChannelTable(limitPerBundle: 10)
        _ = t.create(bundleID: app, policy: .noMessageStored, id: "x")
        XCTAssertEqual(t.create(bundleID: "com.example.other", policy: .noMessageStored, id: "x"), .idTaken)
        XCTAssertNil(t.channel(id: "x", bundleID: "com.example.other"))
        XCTAssertFalse(t.delete(id: "x", bundleID: "com.example.other"), "another app's channel")
        XCTAssertNotNil(t.channel(id: "x", bundleID: app))
        XCTAssertTrue(t.delete(id: "x", bundleID: app))
        XCTAssertEqual(t.create(bundleID: app, policy: .noMessageStored, id: "x"), .idTaken)
    }

    func testBroadcastsCountOneDeliveryPerSubscriber() {
        var t = ChannelTable(limitPerBundle: 10)
        _ = t.create(bundleID: app, policy: .noMessageStored, id: "live")
        _ = t.create(bundleID: app, policy: .mostRecentMessageStored, id: "stored")
        XCTAssertEqual(t.subscribe(channelID: "live", tokens: ["AA", "bb", "aa"]), 2, "lowercased, once each")
        XCTAssertNil(t.subscribe(channelID: "nope", tokens: ["aa"]))
        XCTAssertEqual(t.broadcast(bundleID: app, channelID: "live", expiration: 0), .delivered(subscribers: 2))
        XCTAssertEqual(t.broadcast(bundleID: app, channelID: "live", expiration: 1), .expirationRefused)
        XCTAssertEqual(t.broadcast(bundleID: app, channelID: "stored", expiration: 1_714_046_400), .delivered(subscribers: 0))
        XCTAssertEqual(t.broadcast(bundleID: "com.example.other", channelID: "live", expiration: 0), .notRegistered)
        XCTAssertEqual(t.unsubscribe(channelID: "live", tokens: ["BB"]), 1)
        XCTAssertEqual(t.broadcast(bundleID: app, channelID: "live", expiration: 0), .delivered(subscribers: 1))
        XCTAssertEqual(t.channel(id: "live")?.broadcasts, 2)
        XCTAssertEqual(t.channel(id: "live")?.deliveries, 3)
        _ = t.delete(id: "live")
        XCTAssertEqual(t.broadcast(bundleID: app, channelID: "live", expiration: 0), .notRegistered)
    }

    func testTheStoreCreatesBase64IDsOf16BytesUpToAppleLimit() throws {
        let store = ChannelStore()
        XCTAssertEqual(store.limitPerBundle, 10_000)
        var ids = Set<String>()
        for _ in 0..<10_000 { ids.insert(try store.create(bundleID: app, policy: .mostRecentMessageStored).id) }
        XCTAssertEqual(ids.count, 10_000, "all different")
        XCTAssertTrue(ids.allSatisfy { $0.utf8.count == 24 && Data(base64Encoded: $0)?.count == 16 && ChannelTable.isWellFormedID($0) })
        XCTAssertThrowsError(try store.create(bundleID: app, policy: .noMessageStored)) { error in
            XCTAssertEqual(error as? ChannelStoreError, .limitReached(bundleID: app, limit: 10_000))
        }
        XCTAssertTrue(store.delete(id: ids.first!))
        XCTAssertNoThrow(try store.create(bundleID: app, policy: .noMessageStored))
        XCTAssertEqual(store.count, 10_000)
        XCTAssertEqual(store.channels(bundleID: app).count, 10_000)
    }

    func testTheStoreIsSafeToUseFromManyThreads() throws {
        let store = ChannelStore()
        let channel = try store.create(bundleID: app, policy: .noMessageStored)
        let app = self.app
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            store.subscribe(channelID: channel.id, tokens: (0..<500).map { "\(i)-\($0)" })
            for _ in 0..<100 { _ = store.broadcast(bundleID: app, channelID: channel.id, expiration: 0) }
        }
        XCTAssertEqual(store.subscriberCount(channelID: channel.id), 4000)
        XCTAssertEqual(store.channel(id: channel.id)?.broadcasts, 800)
    }

    func testChannelIDForm() {
        XCTAssertTrue(ChannelTable.isWellFormedID("dHN0LXNyY2gtY2hubA=="), "Apple's sample")
        XCTAssertTrue(ChannelTable.isWellFormedID("q83vASNFZ4mrze8BI0VniQ=="))
        for bad in ["", "dHN0LXNyY2gtY2hubA", "dHN0LXNyY2gtY2hubA=", "dHN0-XNyY2gtY2hubA==", "a b=", "YWJj=", "YWJjZB==",
                    String(repeating: "QUJD", count: 22)] {
            XCTAssertFalse(ChannelTable.isWellFormedID(bad), bad)
        }
        XCTAssertTrue(ChannelTable.isWellFormedID(String(repeating: "QUJD", count: 21) + "QQ=="), "64 bytes")
    }

    func testRoutes() {
        func route(_ method: String?, _ path: String) -> Checked<ChannelRoute> { ChannelRoute.parse(method: method, path: path) }
        XCTAssertEqual(route("POST", "/1/apps/\(app)/channels"), .valid(.create(bundleID: app)))
        XCTAssertEqual(route("GET", "/1/apps/\(app)/channels"), .valid(.read(bundleID: app)))
        XCTAssertEqual(route("DELETE", "/1/apps/\(app)/channels"), .valid(.delete(bundleID: app)))
        XCTAssertEqual(route("GET", "/1/apps/\(app)/all-channels"), .valid(.list(bundleID: app)))
        XCTAssertEqual(route("POST", "/4/broadcasts/apps/\(app)"), .valid(.broadcast(bundleID: app)))
        XCTAssertEqual(route("PATCH", "/1/apps/\(app)/channels"), .refused(.methodNotAllowed))
        XCTAssertEqual(route(nil, "/1/apps/\(app)/channels"), .refused(.methodNotAllowed))
        XCTAssertEqual(route("DELETE", "/1/apps/\(app)/all-channels"), .refused(.methodNotAllowed))
        XCTAssertEqual(route("GET", "/4/broadcasts/apps/\(app)"), .refused(.methodNotAllowed))
        for path in ["/1/apps/\(app)/channels/", "/1/apps/\(app)", "/1/apps//channels", "/1/app/\(app)/channels", "/4/broadcasts/apps/",
                     "/4/broadcasts/apps/\(app)/x", "/4/broadcast/apps/\(app)", "/1/"] {
            XCTAssertEqual(route("POST", path), .refused(.badPath), path)
        }
        XCTAssertEqual(ChannelRoute.api(ofPath: "/1/apps/x/channels"), .management)
        XCTAssertEqual(ChannelRoute.api(ofPath: "/4/broadcasts/apps/x"), .broadcast)
        for path: String? in [nil, "", "/3/device/ab", "/1", "/41/x", "/nonsense"] { XCTAssertNil(ChannelRoute.api(ofPath: path), path ?? "nil") }
    }

    func testCreateBodies() {
        func parse(_ s: String) -> Checked<MessageStoragePolicy> { ChannelCreateBody.parse(ByteBuffer(string: s)) }
        XCTAssertEqual(parse(#"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#), .valid(.noMessageStored))
        XCTAssertEqual(parse(#"{"push-type":"liveactivity","message-storage-policy":1}"#), .valid(.mostRecentMessageStored))
        XCTAssertEqual(parse(""), .refused(.payloadEmpty))
        XCTAssertEqual(parse("nope"), .refused(.badRequestPayload))
        XCTAssertEqual(parse("1"), .refused(.badRequestPayload))
        XCTAssertEqual(parse(#"{"message-storage-policy":1,"push-type":"LiveActivity","extra":true}"#), .refused(.badRequestParams))
        XCTAssertEqual(parse(#"{"push-type":"LiveActivity"}"#), .refused(ChannelCreateBody.missingMessageStoragePolicy))
        XCTAssertEqual(parse(#"{"message-storage-policy":"0","push-type":"LiveActivity"}"#), .refused(.badRequestParams))
        XCTAssertEqual(parse(#"{"message-storage-policy":3,"push-type":"LiveActivity"}"#), .refused(.badRequestParams))
        XCTAssertEqual(parse(#"{"message-storage-policy":1}"#), .refused(.missingPushType))
        XCTAssertEqual(parse(#"{"message-storage-policy":1,"push-type":"Alert"}"#), .refused(.invalidPushType))
    }

    func testBroadcastReasonsAreInTheTableWithApplesStatuses() {
        for (name, status) in [("FeatureNotEnabled", 400), ("MissingChannelId", 400), ("BadChannelId", 400), ("ChannelNotRegistered", 400),
                               ("BadRequestParams", 400), ("BadRequestPayload", 400), ("MissingPushType", 400),
                               ("CannotCreateChannelConfig", 400), ("TopicMismatch", 403)] {
            XCTAssertEqual(Reason(rawValue: name).status, status, name)
            XCTAssertEqual(Reason.parse(body: Array(#"{"reason":"\#(name)"}"#.utf8))?.status, status, name)
        }
        XCTAssertEqual(Reason.all.count, Set(Reason.all.map(\.rawValue)).count, "no duplicate rows")
        XCTAssertEqual(Reason(rawValue: "MissingMessageStoragePolicy").status, 0, "the simulator's own reason is not in Apple's table")
    }
}
