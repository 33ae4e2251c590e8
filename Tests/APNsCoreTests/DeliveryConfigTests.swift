import APNsCore
import XCTest

final class DeliveryConfigTests: XCTestCase {
    private func config(workload: String = "order-changes", pushType: PushType = .liveactivity) -> RunConfig {
        var w = RunConfig.Workload(name: workload, stream: "s", recipe: "r.yaml", bundleID: "com.example.app")
        w.pushType = pushType
        return RunConfig(name: "x", profilePath: "p.yaml", workload: w)
    }

    func testBroadcastIsForOneRecordingsLiveActivitiesAndNotSharded() throws {
        var o = RunConfigOverrides()
        o.delivery = .broadcast
        XCTAssertNoThrow(try config().overlaying(o).validate(setBy: o))
        XCTAssertEqual(config().overlaying(o).deliveryMode, .broadcast)
        XCTAssertEqual(config().deliveryMode, .device)
        // Whether a recording's recipe can broadcast is the recipe's to say (Replay's `Workloads.recipes(for:)`);
        // the configuration refuses a mix, which is more than one recording.
        var mix = config()
        mix.workload = RunConfig.Workload(name: RunConfig.Workload.mixName, stream: "", recipe: "", bundleID: "")
        mix.workload.mix = [config().workload, config().workload]
        XCTAssertThrowsError(try mix.overlaying(o).validate(setBy: o)) { e in
            XCTAssertEqual(e as? RunConfigFlagError,
                           RunConfigFlagError(RunConfigError(.delivery, "broadcast replays one recording whose recipe names a broadcast group; x is a mix")))
        }
        XCTAssertThrowsError(try config(pushType: .alert).overlaying(o).validate(setBy: o)) { e in
            XCTAssertTrue(String(describing: e).contains("Live Activity updates only"), String(describing: e))
        }
        o.shard = .init(index: 0, count: 2)
        XCTAssertThrowsError(try config().overlaying(o).validate(setBy: o)) { e in
            XCTAssertTrue(String(describing: e).contains("not sharded yet"), String(describing: e))
        }
    }

    func testKeepChannelsGoesWithBroadcast() {
        var o = RunConfigOverrides()
        o.keepChannels = true
        XCTAssertThrowsError(try config().overlaying(o).validate(setBy: o)) { e in
            XCTAssertEqual(e as? RunConfigFlagError,
                           RunConfigFlagError(RunConfigError(.keepChannels, "applies to broadcast delivery only (delivery: broadcast)")))
        }
    }

    func testTheManagementAPIIsOnApplesOwnHosts() {
        XCTAssertEqual(Target.sandbox.channelManagementURL, "https://api-manage-broadcast.sandbox.push.apple.com:2195")
        XCTAssertEqual(Target.production.channelManagementURL, "https://api-manage-broadcast.push.apple.com:2196")
        XCTAssertEqual(Target.url("https://sim:2197").channelManagementURL, "https://sim:2197")
    }
}
