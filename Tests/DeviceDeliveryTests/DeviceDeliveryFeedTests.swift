import APNsCore
import DeviceDelivery
import XCTest

/// What the device model learns of a delivered push: its kind's headers or its own, its expiration on the
/// recording's clock, and a Live Activity payload's event and dates.
final class DeviceDeliveryFeedTests: XCTestCase {
    private func push(kind: Int32 = 0, body: String = "{}", collapse: String = "", expiration: Int = -1,
                      intendedAfterStartMillis: UInt64 = 0) -> OutgoingPush {
        var p = OutgoingPush()
        p.deviceToken = "ab12"
        p.kind = kind
        p.body = Array(body.utf8)
        p.headers.update(APNsHeaders.collapseID) { $0.text = Array(collapse.utf8) }
        p.headers.update(APNsHeaders.expiration) { $0.seconds = expiration }
        p.recordedMillis = 1_745_000_000_000
        p.intendedNanos = 1_000_000_000 + intendedAfterStartMillis * 1_000_000
        p.priority = .powerAware
        return p
    }

    func testAKindsHeadersOrThePushsOwn() {
        let feed = DeviceDeliveryFeed(kinds: [.init(pushType: .alert, collapseID: "kind", expirationSeconds: 0),
                                      .init(pushType: .background)], startNanos: 1_000_000_000)
        feed.observe(push())
        feed.observe(push(kind: 1, collapse: "own", expiration: 600, intendedAfterStartMillis: 100_000))
        feed.observe(push(kind: 1))
        let got = feed.pushes
        XCTAssertEqual(got[0], DeviceDeliveryPush(token: "ab12", atMillis: 1_745_000_000_000, priority: .powerAware, pushType: .alert,
                                          collapseID: "kind", expiration: .immediately))
        XCTAssertEqual(got[1].collapseID, "own")
        XCTAssertEqual(got[1].expiration, .at(1_745_000_000_000 + 500_000), "600 s after the start, sent 100 s in: 500 s to live")
        XCTAssertEqual(got[2].pushType, .background)
        XCTAssertEqual(got[2].expiration, .storagePolicy)
    }

    func testALiveActivityPayloadsEventAndDates() {
        let feed = DeviceDeliveryFeed(kinds: [.init(pushType: .liveactivity)], startNanos: 0)
        feed.observe(push(body: #"{"aps":{"timestamp":1,"content-state":{"event":"x"},"event":"end","stale-date":1745000100,"#
            + #""dismissal-date":1745000200}}"#))
        feed.observe(push(body: #"{"aps":{"event":"update"}}"#))
        feed.observe(push(body: "not json"))
        XCTAssertEqual(feed.pushes[0].activityEvent, .end, "aps.event, not content-state's")
        XCTAssertEqual(feed.pushes[0].staleAtMillis, 1_745_000_100_000)
        XCTAssertEqual(feed.pushes[0].dismissAtMillis, 1_745_000_200_000)
        XCTAssertEqual(feed.pushes[1].activityEvent, .update)
        XCTAssertNil(feed.pushes[1].staleAtMillis)
        XCTAssertNil(feed.pushes[2].activityEvent, "a payload that does not scan says nothing")
    }

    func testMergedFeedsAreInRecordedOrder() {
        let a = DeviceDeliveryFeed(kinds: [.init(pushType: .alert)], startNanos: 0), b = DeviceDeliveryFeed(kinds: [.init(pushType: .alert)], startNanos: 0)
        for (feed, at, token) in [(a, 30, "x"), (a, 10, "x"), (b, 20, "y"), (b, 10, "y")] as [(DeviceDeliveryFeed, Int64, String)] {
            var p = push()
            p.recordedMillis = at
            p.deviceToken = token
            feed.observe(p)
        }
        let order = DeviceDeliveryFeed.merged([a, b]).map { "\($0.token)\($0.atMillis)" }
        XCTAssertEqual(order, ["x10", "y10", "y20", "x30"], "by recorded time; a tie keeps the order the pushes were accepted in")
    }
}
