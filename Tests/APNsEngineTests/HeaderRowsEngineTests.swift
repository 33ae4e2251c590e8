import APNsCore
@testable import APNsEngine
import CCurl
import XCTest

/// Each header row as the engine sends it: a line of a push kind's prebuilt list, or for a header a push carries
/// itself, a line written from the push and linked in front of its kind's list, which then carries none.
final class HeaderRowsEngineTests: XCTestCase {
    private func lines(_ list: UnsafeMutablePointer<curl_slist>?) -> [String] {
        var out: [String] = []
        var node = list
        while let n = node {
            out.append(String(cString: n.pointee.data))
            node = n.pointee.next
        }
        return out
    }

    func testAKindsListCarriesEveryRowsConstantAroundTheRequestsOwnHeaders() {
        let kind = HeaderConstants([APNsHeaders.pushType: "alert", APNsHeaders.topic: "com.example.a",
                                    APNsHeaders.expiration: 1_800_000_060, APNsHeaders.collapseID: "c-1"])
        XCTAssertEqual(HeaderSet.lines(kind, priority: .powerAware, bearer: "bearer t"), [
            "apns-push-type: alert", "apns-topic: com.example.a", "apns-priority: 5",
            "authorization: bearer t", "content-type: application/json", "Accept:", "Expect:",
            "apns-expiration: 1800000060", "apns-collapse-id: c-1",
        ])
    }

    /// By header name: a push's own value and the line the engine sends for it (the run started at 1800000000).
    private let ownLines: [String: (PushHeaderValue, String)] = [
        "apns-expiration": (PushHeaderValue(seconds: 60), "apns-expiration: 1800000060"),
        "apns-collapse-id": (PushHeaderValue(text: "order-7"), "apns-collapse-id: order-7"),
        "apns-id": (PushHeaderValue(text: "123e4567-e89b-12d3-a456-426614174000"), "apns-id: 123e4567-e89b-12d3-a456-426614174000"),
    ]

    func testEachHeaderAPushCarriesIsLinkedInFrontInSlotOrder() {
        XCTAssertEqual(Set(ownLines.keys), Set(APNsHeaders.perPush.map(\.name)), "every per-push row has its line here")
        let node = PushHeaderLines()
        var push = OutgoingPush()
        var all = HeaderSlots()
        for row in APNsHeaders.perPush {
            let (value, line) = ownLines[row.name]!
            push.headers.update(row) { $0 = value }
            var kind = HeaderConstants([APNsHeaders.pushType: "alert", APNsHeaders.topic: "t", APNsHeaders.expiration: 5, APNsHeaders.collapseID: "k"])
            kind.perPush.insert(row)
            XCTAssertFalse(HeaderSet.lines(kind, priority: .immediate, bearer: "b").contains { $0.hasPrefix(row.name + ":") }, row.name)
            var one = HeaderSlots()
            one.insert(row)
            XCTAssertEqual(lines(node.link(push, one, expirationBase: 1_800_000_000, before: nil)), [line])
            all.insert(row)
        }
        XCTAssertEqual(lines(node.link(push, all, expirationBase: 1_800_000_000, before: nil)), APNsHeaders.perPush.map { ownLines[$0.name]!.1 })
        // A push without a value sends no line; a kind that takes nothing from the push links nothing.
        push.headers.clear()
        XCTAssertEqual(lines(node.link(push, all, expirationBase: 1_800_000_000, before: nil)), [])
    }
}
