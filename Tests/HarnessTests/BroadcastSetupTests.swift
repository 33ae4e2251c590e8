import APNsCore
import Foundation
import Replay
import TestSupport
import XCTest
@testable import Harness

/// Broadcast delivery's bracket around a run: the stores found in the stream, a channel created for each
/// through the channel API (here the embedded simulator's), and deleted after.
final class BroadcastSetupTests: XCTestCase {
    /// The shipped order-changes recipe: its `subscribe:` field (`input_push_channel`) names the stores.
    static var orderChanges: Recipe { try! RecipeLoader.load(path: RepoFiles.recipe("order-changes")) }

    func testTheSubscribedStoresAreReadFromTheRawLinesAscendingAndOnce() throws {
        let fixture = try HarnessFixture(self)
        let stream = try fixture.write("s.ndjson", [
            #"{"kind":"device.register","input_push_channel":7}"#,
            #"{"kind":"device.register","input_push_channel" : 3,"x":1}"#,
            #"{"kind":"order.changed","store":99}"#,
            #"{"kind":"device.register","input_push_channel":7}"#,
            #"{"kind":"device.register","input_push_channel":null}"#,
            #"not json, but "input_push_channel": 12 all the same"#,
            "",
            #"{"kind":"device.register","input_push_channel":5}"#,  // no newline after the last line
        ].joined(separator: "\n"))
        XCTAssertEqual(try BroadcastChannels.subscribedStores(stream: stream, recipe: Self.orderChanges), [3, 5, 7, 12])
    }

    func testALineAcrossTheReadsChunksIsStillRead() throws {
        let fixture = try HarnessFixture(self)
        // About 2.5 MB: lines straddle the 1 MiB reads.
        let lines = (0..<40_000).map { #"{"kind":"device.register","pad":"\#(String(repeating: "x", count: $0 % 37))","input_push_channel":\#($0 % 501)}"# }
        let stream = try fixture.write("big.ndjson", lines.joined(separator: "\n") + "\n")
        XCTAssertGreaterThan(try FileManager.default.attributesOfItem(atPath: stream)[.size] as? Int ?? 0, 2 << 20)
        XCTAssertEqual(try BroadcastChannels.subscribedStores(stream: stream, recipe: Self.orderChanges), Array(0..<501))
    }

    func testAnUnreadableStreamIsAnErrorNamingIt() {
        XCTAssertThrowsError(try BroadcastChannels.subscribedStores(stream: "/nonexistent/s.ndjson", recipe: Self.orderChanges)) { error in
            XCTAssertEqual("\(error)", "stream /nonexistent/s.ndjson cannot be read")
        }
    }

    /// The first 400 lines of the shipped order-changes recording whose activities subscribe to their store's channel, against the embedded
    /// simulator (with `simulator` settings); the configuration, the started target and the stores.
    func broadcastRun(_ fixture: HarnessFixture, simulator: String = "") throws -> (config: RunConfig, target: RunTarget, inputs: RunInputs, stores: [Int]) {
        let bytes = try RepoFiles.streamPrefix("order-changes-channels", lines: 400)
        let stream = fixture.path("oc.ndjson")
        try bytes.write(to: URL(fileURLWithPath: stream))
        let profile = try fixture.write("oc.yaml", """
            name: oc
            workload: order-changes
            stream: \(stream)
            recipe: \(RepoFiles.recipe("order-changes"))
            bundle_id: com.example.ordermanager
            delivery: broadcast
            \(simulator)
            """)
        let config = try ReplayRun.configuration(RunRequest(profilePath: profile))
        let inputs = try RunInputs(config, credentials: Credentials())
        let target = try RunTarget(config, inputs: inputs)
        addTeardownBlock { target.stop() }
        // Independently of the scan under test: the stores the stream's lines name.
        let stores = Set(String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["input_push_channel"] as? Int
        })
        XCTAssertGreaterThan(stores.count, 3, "the fixture subscribes activities to several stores")
        return (config, target, inputs, stores.sorted())
    }

    func testCreatesOneChannelPerSubscribedStoreAndDeletesThemAfter() throws {
        let fixture = try HarnessFixture(self)
        let (config, target, inputs, stores) = try broadcastRun(fixture)
        var log: [String] = []
        let setup = try BroadcastSetup(config, recipe: inputs.recipes[0], managementURL: target.baseURL, trustedCertificatePEM: target.trustedCertificatePEM,
                                       tokens: try inputs.makeTokens(config)) { log.append($0) }
        XCTAssertEqual(setup.stores, stores)
        XCTAssertEqual(setup.channels.byStore.keys.sorted(), stores)
        XCTAssertTrue(setup.channels.refused.isEmpty)
        XCTAssertEqual(Set(setup.channels.idsByIndex).count, stores.count, "a distinct channel per store")
        XCTAssertEqual(setup.channels.byStore.values.map(\.index).sorted(), (0..<Int32(stores.count)).map { $0 })
        XCTAssertEqual(target.simulatorCounters?["channels_created"], stores.count)
        XCTAssertEqual(setup.client.calls, ["create 201": stores.count])
        XCTAssertEqual(log.first, "apnsbench: creating \(stores.count) broadcast channel(s) (message-storage-policy 0) at \(target.baseURL) "
            + "for com.example.ordermanager")

        setup.deleteChannels { log.append($0) }
        XCTAssertEqual(setup.deleted, stores.count)
        XCTAssertTrue(setup.deleteFailures.isEmpty, "\(setup.deleteFailures)")
        XCTAssertEqual(target.simulatorCounters?["channels_deleted"], stores.count)
        XCTAssertEqual(log.last, "apnsbench: deleted \(stores.count) of \(stores.count) broadcast channel(s)")
    }

    func testTheChannelLimitStopsCreatingAndTheRestAreRefused() throws {
        let fixture = try HarnessFixture(self)
        let (config, target, inputs, stores) = try broadcastRun(fixture, simulator: "simulator: { broadcast: { channel_limit: 3 } }")
        var log: [String] = []
        let setup = try BroadcastSetup(config, recipe: inputs.recipes[0], managementURL: target.baseURL, trustedCertificatePEM: target.trustedCertificatePEM,
                                       tokens: try inputs.makeTokens(config)) { log.append($0) }
        XCTAssertEqual(setup.channels.byStore.keys.sorted(), Array(stores.prefix(3)), "the first three stores got channels")
        XCTAssertEqual(setup.channels.refused, Set(stores.dropFirst(3)))
        XCTAssertEqual(setup.client.calls["create CannotCreateChannelConfig"], 1, "the first refusal stops creating")
        XCTAssertTrue(log.contains { $0.contains("the app's channel limit; updates of the \(stores.count - 3) store(s) "
            + "left count as not sent (channel_limit)") }, "\(log)")
        setup.deleteChannels { _ in }
        XCTAssertEqual(setup.deleted, 3)
    }

    func testAnyOtherRefusalFailsNamingTheAnswer() throws {
        let fixture = try HarnessFixture(self)
        var (config, target, inputs, _) = try broadcastRun(fixture)
        config.workload.bundleID = "com.example.unregistered"  // a topic the simulator was not given
        XCTAssertThrowsError(try BroadcastSetup(config, recipe: inputs.recipes[0], managementURL: target.baseURL,
            trustedCertificatePEM: target.trustedCertificatePEM,
                                                tokens: try inputs.makeTokens(config)) { _ in }) { error in
            XCTAssertTrue("\(error)".hasPrefix("the channel API at \(target.baseURL) "
                + "refused to create a channel for com.example.unregistered: HTTP "), "\(error)")
        }
        XCTAssertEqual(target.simulatorCounters?["channels_created"] ?? 0, 0)
    }
}
