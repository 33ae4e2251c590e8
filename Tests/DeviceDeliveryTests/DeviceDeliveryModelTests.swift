import APNsCore
import DeviceDelivery
import XCTest

/// The device model as values: pushes in, in recorded time, one outcome out per push.
final class DeviceDeliveryModelTests: XCTestCase {
    private let t0: Int64 = 1_745_000_000_000
    private let minute: Int64 = 60_000

    /// Runs `pushes` through a model (ids are their indexes) and returns every push's one outcome.
    private func outcomes(_ pushes: [DeviceDeliveryPush], _ parameters: DeviceDeliveryParameters = DeviceDeliveryParameters(),
                          file: StaticString = #filePath, line: UInt = #line) -> [DeviceDeliveryOutcome] {
        var model = DeviceDeliveryModel(parameters: parameters)
        var found = [DeviceDeliveryOutcome?](repeating: nil, count: pushes.count)
        let sink: (Int, DeviceDeliveryOutcome) -> Void = { id, outcome in
            XCTAssertNil(found[id], "push \(id) got a second outcome, \(outcome)", file: file, line: line)
            found[id] = outcome
        }
        for (i, push) in pushes.enumerated() { model.receive(push, id: i, sink) }
        model.finish(sink)
        XCTAssertEqual(model.received, pushes.count, file: file, line: line)
        XCTAssertEqual(model.decided, pushes.count, file: file, line: line)
        return found.enumerated().map { i, o in
            guard let o else { XCTFail("push \(i) got no outcome", file: file, line: line); return .throttled }
            return o
        }
    }

    private func update(_ at: Int64, priority: Priority = .immediate, token: String = "act",
                        event: DeviceDeliveryPush.ActivityEvent = .update) -> DeviceDeliveryPush {
        DeviceDeliveryPush(token: token, atMillis: at, priority: priority, pushType: .liveactivity, activityEvent: event)
    }

    // MARK: Priority 10 and 5

    func testPriority10IsShownAtOnce() {
        XCTAssertEqual(outcomes([DeviceDeliveryPush(token: "a", atMillis: t0)]), [.displayed(afterMillis: 0, stale: false)])
    }

    /// Time to device counts from the event: a push the client held (coalescing) is shown that much later than
    /// its event, and a hold past the on-time bound makes it late.
    func testAHeldPushCountsItsHold() {
        var held = DeviceDeliveryPush(token: "a", atMillis: t0)
        held.heldMillis = 30_000
        XCTAssertEqual(outcomes([held]), [.displayed(afterMillis: 30_000, stale: false)])
        XCTAssertEqual(DeviceDeliveryOutcomeClass(.displayed(afterMillis: 30_000, stale: false), onTimeMillis: 1_000), .late)
    }

    func testPriority5WaitsForTheNextWakeAndSharesIt() {
        let got = outcomes([DeviceDeliveryPush(token: "a", atMillis: t0, priority: .powerAware),
                            DeviceDeliveryPush(token: "a", atMillis: t0 + 1_000, priority: .powerAware)])
        guard case let .displayed(first, _) = got[0], case let .displayed(second, _) = got[1] else {
            return XCTFail("both shown: \(got)")
        }
        XCTAssertGreaterThan(first, 1_000, "shown at a wake, not at once")
        XCTAssertEqual(first - second, 1_000, "one wake shows both")
    }

    func testPriority10DeliveryWakesTheDeviceForWhatWaits() {
        var p = DeviceDeliveryParameters()
        p.wakeIntervalSeconds = 1_000_000 // no opportunistic wake within the test
        let got = outcomes([DeviceDeliveryPush(token: "a", atMillis: t0, priority: .powerAware),
                            DeviceDeliveryPush(token: "a", atMillis: t0 + 5_000, priority: .powerFirst),
                            DeviceDeliveryPush(token: "a", atMillis: t0 + 9_000)], p)
        XCTAssertEqual(got, [.displayed(afterMillis: 9_000, stale: false), .displayed(afterMillis: 4_000, stale: false),
                             .displayed(afterMillis: 0, stale: false)])
    }

    func testPriority1WaitsLongerThanPriority5() {
        var p = DeviceDeliveryParameters()
        p.powerFirstDeferralSeconds = 3_600
        let got = outcomes([DeviceDeliveryPush(token: "a", atMillis: t0, priority: .powerFirst)], p)
        guard case let .displayed(after, _) = got[0] else { return XCTFail("\(got)") }
        XCTAssertGreaterThan(after, 3_600_000)
    }

    // MARK: Collapse

    func testALaterPushWithTheSameCollapseIdReplacesOneNotYetShown() {
        let got = outcomes([DeviceDeliveryPush(token: "a", atMillis: t0, priority: .powerAware, collapseID: "score"),
                            DeviceDeliveryPush(token: "a", atMillis: t0 + 100, priority: .powerAware, collapseID: "other"),
                            DeviceDeliveryPush(token: "a", atMillis: t0 + 200, priority: .powerAware, collapseID: "score")])
        XCTAssertEqual(got[0], .replaced(.collapse))
        guard case .displayed = got[1], case .displayed = got[2] else { return XCTFail("\(got)") }
    }

    func testAShownPushIsNotReplacedByALaterOne() {
        let got = outcomes([DeviceDeliveryPush(token: "a", atMillis: t0, collapseID: "k"),
                            DeviceDeliveryPush(token: "a", atMillis: t0 + minute, collapseID: "k")])
        XCTAssertEqual(got, [.displayed(afterMillis: 0, stale: false), .displayed(afterMillis: 0, stale: false)])
    }

    // MARK: Offline storage

    /// Every device offline from its first push for a long time (mean 10^6 s; the draw is seeded).
    private var offline: DeviceDeliveryParameters {
        var p = DeviceDeliveryParameters()
        p.offlineShare = 1
        p.onlineSeconds = 0.001
        p.offlineSeconds = 1_000_000
        return p
    }

    func testAnOfflineDeviceGetsOnlyTheLastPushAtReconnect() {
        let got = outcomes([DeviceDeliveryPush(token: "a", atMillis: t0), DeviceDeliveryPush(token: "a", atMillis: t0 + 1_000),
                            DeviceDeliveryPush(token: "a", atMillis: t0 + 2_000)], offline)
        XCTAssertEqual(Array(got[0...1]), [.replaced(.newerStored), .replaced(.newerStored)])
        guard case let .displayed(after, _) = got[2] else { return XCTFail("\(got)") }
        XCTAssertGreaterThan(after, 10_000, "shown at reconnect, not at once")
    }

    func testExpirationZeroIsNeverStoredAndAPastExpirationDrops() {
        let got = outcomes([DeviceDeliveryPush(token: "a", atMillis: t0, expiration: .immediately),
                            DeviceDeliveryPush(token: "b", atMillis: t0, expiration: .at(t0 + 10_000))], offline)
        XCTAssertEqual(got, [.dropped(.notStored), .dropped(.expired)])
    }

    func testAStoredPushOutlivingStorageExpires() {
        var p = offline
        p.storageSeconds = 1
        XCTAssertEqual(outcomes([DeviceDeliveryPush(token: "a", atMillis: t0)], p), [.dropped(.expired)])
    }

    func testExpirationZeroWhileOnlineIsShown() {
        XCTAssertEqual(outcomes([DeviceDeliveryPush(token: "a", atMillis: t0, expiration: .immediately)]),
                       [.displayed(afterMillis: 0, stale: false)])
    }

    // MARK: Live Activities

    func testTheBudgetAllowsItsBurstThenRefillsEvenly() {
        // 10 an hour, 10 at once: 12 updates in a minute show 10; one place comes back every 6 minutes.
        var pushes = (0..<12).map { update(t0 + Int64($0) * 1_000) }
        pushes.append(update(t0 + 7 * minute))
        pushes.append(update(t0 + 7 * minute + 1_000))
        let got = outcomes(pushes)
        XCTAssertEqual(got.filter { $0 == .throttled }.count, 3)
        XCTAssertEqual(Array(got[10...13]), [.throttled, .throttled, .displayed(afterMillis: 0, stale: false), .throttled])
    }

    func testFrequentUpdatesRaiseTheBudget() {
        var p = DeviceDeliveryParameters()
        p.frequentUpdates = true
        let got = outcomes((0..<31).map { update(t0 + Int64($0) * 1_000) }, p)
        XCTAssertEqual(got.filter { $0 == .throttled }.count, 1, "30 at once with frequent updates")
    }

    func testDelayModeShowsAnUpdatePastTheBudgetWhenAPlaceComesBack() {
        var p = DeviceDeliveryParameters()
        p.throttle = .delay
        let got = outcomes((0..<11).map { update(t0 + Int64($0)) }, p)
        XCTAssertEqual(got[10], .displayed(afterMillis: 6 * minute - 10, stale: false))
    }

    func testPriority5UpdatesDoNotDrawOnTheBudget() {
        var p = DeviceDeliveryParameters()
        p.activityBudgetBurst = 1
        let pushes = [update(t0), update(t0 + 1), update(t0 + 2, priority: .powerAware), update(t0 + 3, priority: .powerAware)]
        let got = outcomes(pushes, p)
        XCTAssertEqual(got[1], .throttled)
        guard case .displayed = got[2], case .displayed = got[3] else { return XCTFail("\(got)") }
    }

    func testAnEndClosesTheActivity() {
        let got = outcomes([update(t0), update(t0 + 1_000, event: .end), update(t0 + 2_000),
                            update(t0 + 3_000, priority: .powerAware)])
        XCTAssertEqual(got, [.displayed(afterMillis: 0, stale: false), .displayed(afterMillis: 0, stale: false),
                             .dropped(.activityEnded), .dropped(.activityEnded)])
    }

    func testAnUpdateShownAfterItsStaleDateIsStale() {
        var push = update(t0, priority: .powerAware)
        push.staleAtMillis = t0 + 1
        guard case let .displayed(after, stale) = outcomes([push])[0] else { return XCTFail() }
        XCTAssertTrue(after > 1 && stale)
    }

    func testPushToStartHasItsOwnBudget() {
        var p = DeviceDeliveryParameters()
        p.activityBudgetBurst = 1
        let starts = (0..<11).map { update(t0 + Int64($0), token: "pts", event: .start) }
        let got = outcomes(starts + [update(t0 + 20, token: "act"), update(t0 + 21, token: "act")], p)
        XCTAssertEqual(got.filter { $0 == .throttled }.count, 2, "the 11th start, and the second update")
        XCTAssertEqual(got[10], .throttled)
        XCTAssertEqual(got[12], .throttled)
    }

    // MARK: Whole streams

    /// A mixed stream of every kind over many tokens, offline devices among them.
    private func mixedStream(count: Int, seed: UInt64) -> [DeviceDeliveryPush] {
        var rng = SplitMix64(seed: seed)
        var at = t0
        return (0..<count).map { _ in
            at += Int64(rng.next() % 30_000)
            let token = "t\(rng.next() % 40)"
            let priority: Priority = [.immediate, .powerAware, .powerFirst][Int(rng.next() % 3)]
            if rng.next() % 2 == 0 {
                let event: DeviceDeliveryPush.ActivityEvent = rng.next() % 20 == 0 ? .end : .update
                return DeviceDeliveryPush(token: token, atMillis: at, priority: priority, pushType: .liveactivity,
                                  collapseID: rng.next() % 4 == 0 ? "c" : nil, activityEvent: event)
            }
            let expiration: DeviceDeliveryPush.Expiration = [.storagePolicy, .immediately, .at(at + 600_000)][Int(rng.next() % 3)]
            return DeviceDeliveryPush(token: token, atMillis: at, priority: priority, collapseID: rng.next() % 3 == 0 ? "k" : nil,
                              expiration: expiration)
        }
    }

    func testEveryPushEndsInExactlyOneOutcomeAndEveryClassOccurs() {
        var p = DeviceDeliveryParameters()
        p.offlineShare = 0.3
        p.activityBudgetPerHour = 2
        p.activityBudgetBurst = 2
        let got = outcomes(mixedStream(count: 4_000, seed: 7), p)
        let classes = Set(got.map { DeviceDeliveryOutcomeClass($0, onTimeMillis: p.onTimeMillis) })
        XCTAssertEqual(Set(DeviceDeliveryOutcomeClass.allCases).subtracting(classes), [])
    }

    func testOutcomesDependOnTheRecordingAloneNotOnHowTokensInterleave() {
        var p = DeviceDeliveryParameters()
        p.offlineShare = 0.3
        p.throttle = .delay
        let pushes = mixedStream(count: 3_000, seed: 11)
        let inOrder = outcomes(pushes, p)
        // Answers come back out of order across devices: here device by device, in a scrambled order of
        // tokens, each token's pushes in their own order.
        let key = { (i: Int) in FNV1a.hash(pushes[i].token.utf8) }
        let order = pushes.indices.sorted { a, b in key(a) == key(b) ? a < b : key(a) < key(b) }
        var model = DeviceDeliveryModel(parameters: p)
        var shuffled = [DeviceDeliveryOutcome?](repeating: nil, count: pushes.count)
        for i in order { model.receive(pushes[i], id: i) { shuffled[$0] = $1 } }
        model.finish { shuffled[$0] = $1 }
        let differing = pushes.indices.filter { shuffled[$0] != inOrder[$0] }
        XCTAssertEqual(differing.count, 0, "first differing pushes: \(differing.prefix(3))")
    }

    func testParametersOutOfRangeAreNamed() {
        var p = DeviceDeliveryParameters()
        p.offlineShare = 1.5
        XCTAssertEqual(p.problem(), "offline_share: must be between 0 and 1, found 1.5")
        p = DeviceDeliveryParameters()
        p.wakeIntervalSeconds = 0
        XCTAssertEqual(p.problem(), "wake_interval_seconds: must be above 0, found 0.0")
        XCTAssertNil(DeviceDeliveryParameters().problem())
    }
}
