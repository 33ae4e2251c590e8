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
        config.kinds.append(.init(pushType: .alert, topic: "com.example.b"))
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
}
