import APNsCore
import CCurl
@testable import APNsEngine
import XCTest

/// The prebuilt header lists: one per push kind and priority, each with its kind's push type and topic.
final class HeaderSetTests: XCTestCase {
    func lines(_ list: UnsafeMutablePointer<curl_slist>?) -> [String] {
        var out: [String] = [], node = list
        while let n = node {
            out.append(String(cString: n.pointee.data))
            node = n.pointee.next
        }
        return out
    }

    func testEachKindHasItsOwnPushTypeAndTopicAtEveryPriority() throws {
        var config = EngineConfiguration(baseURL: "https://127.0.0.1:1", topic: "com.example.a.push-type.liveactivity", pushType: .liveactivity, expiration: 99)
        config.kinds.append(HeaderConstants([APNsHeaders.pushType: "alert", APNsHeaders.topic: "com.example.b", APNsHeaders.expiration: 99]))
        let set = try HeaderSet(configuration: config, bearer: "bearer x.y.z", issuedAt: 1)
        for priority in Priority.allCases {
            let a = lines(set.list(kind: 0, priority: priority)), b = lines(set.list(kind: 1, priority: priority))
            XCTAssertTrue(a.contains("apns-push-type: liveactivity") && a.contains("apns-topic: com.example.a.push-type.liveactivity"), "\(a)")
            XCTAssertTrue(b.contains("apns-push-type: alert") && b.contains("apns-topic: com.example.b"), "\(b)")
            for l in [a, b] {
                XCTAssertTrue(l.contains("apns-priority: \(priority.rawValue)"))
                XCTAssertTrue(l.contains("apns-expiration: 99"))
                XCTAssertTrue(l.contains("authorization: bearer x.y.z"))
                XCTAssertEqual(l.filter { $0.hasPrefix("apns-topic:") }.count, 1)
            }
        }
        XCTAssertEqual(config.topic, "com.example.a.push-type.liveactivity", "kind 0 is the configuration's topic")
    }

    func testAPushsOwnHeadersAreLinkedInFrontOfItsKindsListWhichCarriesNeither() throws {
        var config = EngineConfiguration(baseURL: "https://127.0.0.1:1", topic: "com.example.a", pushType: .alert, expiration: 99)
        config.kinds[0][APNsHeaders.collapseID] = "run-wide"
        config.startedAtEpochSeconds = 1_800_000_000
        config.kinds.append(HeaderConstants([APNsHeaders.pushType: "alert", APNsHeaders.topic: "com.example.a"],
                                            perPush: HeaderSlots([APNsHeaders.collapseID, APNsHeaders.expiration])))
        let set = try HeaderSet(configuration: config, bearer: "bearer x.y.z", issuedAt: 1)
        let shared = lines(set.list(kind: 1, priority: .immediate))
        XCTAssertFalse(shared.contains { $0.hasPrefix("apns-collapse-id") || $0.hasPrefix("apns-expiration") }, "\(shared)")
        XCTAssertTrue(lines(set.list(kind: 0, priority: .immediate)).contains("apns-collapse-id: run-wide"))

        let node = PushHeaderLines()
        var push = OutgoingPush()
        push.kind = 1
        push.headers.update(APNsHeaders.collapseID) { $0 = PushHeaderValue(text: "order-7") }
        push.headers.update(APNsHeaders.expiration) { $0 = PushHeaderValue(seconds: 3600) }
        let linked = node.link(push, set.perPushHeaders(kind: 1), expirationBase: set.expirationBase, before: set.list(kind: 1, priority: .immediate))
        XCTAssertEqual(lines(linked), ["apns-expiration: 1800003600", "apns-collapse-id: order-7"] + shared)
        // 0 is sent as 0 (now or never); an absent value (-1, empty) leaves the line out.
        push.headers.update(APNsHeaders.expiration) { $0 = PushHeaderValue(seconds: 0) }
        push.headers.update(APNsHeaders.collapseID) { $0 = PushHeaderValue() }
        XCTAssertEqual(lines(node.link(push, set.perPushHeaders(kind: 1), expirationBase: set.expirationBase, before: set.list(kind: 1, priority: .immediate))),
                       ["apns-expiration: 0"] + shared)
        push.headers.update(APNsHeaders.expiration) { $0 = PushHeaderValue() }
        push.headers.update(APNsHeaders.collapseID) { $0 = PushHeaderValue(text: String(repeating: "c", count: 100)) }
        XCTAssertEqual(lines(node.link(push, set.perPushHeaders(kind: 1), expirationBase: set.expirationBase, before: set.list(kind: 1, priority: .immediate))),
                       ["apns-collapse-id: " + String(repeating: "c", count: 100)] + shared, "a longer value grows the buffer")
        XCTAssertEqual(set.perPushHeaders(kind: 0), HeaderSlots())
        // An expiration that counts from the push's send (expiration_at) is added to the clock at the send.
        push.headers.update(APNsHeaders.expiration) { $0 = PushHeaderValue(seconds: 600, fromSend: true) }
        push.headers.update(APNsHeaders.collapseID) { $0 = PushHeaderValue() }
        XCTAssertEqual(lines(node.link(push, set.perPushHeaders(kind: 1), expirationBase: set.expirationBase, before: set.list(kind: 1, priority: .immediate),
                                       now: { 1_900_000_000 })), ["apns-expiration: 1900000600"] + shared)
    }
}
