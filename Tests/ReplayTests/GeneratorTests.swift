import APNsCore
import Foundation
@testable import Replay
import XCTest

/// The leave-request and order-change generators: deterministic, ordered, and what is shipped.
final class GeneratorTests: XCTestCase {
    static let streams = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("profiles/streams")

    func orderChanges(_ g: OrderChangesGenerator) throws -> (lines: [UInt8], dead: [String]) {
        var lines: [UInt8] = [], dead: [String] = []
        g.write({ lines += $0 }, deadToken: { dead.append($0) })
        return (lines, dead)
    }

    func testSameSeedSameBytesOtherSeedOtherBytes() throws {
        let a = try orderChanges(OrderChangesGenerator(events: 3000, devices: 100, stores: 10, seed: 3))
        let b = try orderChanges(OrderChangesGenerator(events: 3000, devices: 100, stores: 10, seed: 3))
        let c = try orderChanges(OrderChangesGenerator(events: 3000, devices: 100, stores: 10, seed: 4))
        XCTAssertEqual(a.lines, b.lines)
        XCTAssertEqual(a.dead, b.dead)
        XCTAssertNotEqual(a.lines, c.lines)
        var l1: [UInt8] = [], l2: [UInt8] = []
        LeaveRequestGenerator(requests: 50, seed: 1).write { l1 += $0 }
        LeaveRequestGenerator(requests: 50, seed: 1).write { l2 += $0 }
        XCTAssertEqual(l1, l2)
    }

    /// Every line parses, times never go backwards, the kinds and counts are as asked.
    func testOrderChangeStreamIsOrderedAndShapedAsAsked() throws {
        let (bytes, dead) = try orderChanges(OrderChangesGenerator(events: 4000, devices: 200, stores: 20, seed: 9))
        let path = StreamTestFiles.write(bytes, for: self)
        let reader = try EventStreamReader(path: path)
        var kinds: [String: Int] = [:]
        var tokens = Set<String>()
        while let event = try reader.next() {
            guard case let .record(_, _, kind, fields) = event else { return XCTFail("bad line: \(event)") }
            kinds[kind, default: 0] += 1
            if kind == "device.register" { tokens.insert(try fields.string("push_token")) }
        }
        XCTAssertEqual(reader.linesRead, 4000)
        XCTAssertEqual(kinds["device.register"], 240, "every device once, 20% again with a new token")
        XCTAssertEqual(kinds["activity.end"], 240, "every activity ends")
        XCTAssertEqual(kinds["order.change"], 4000 - 480)
        XCTAssertEqual(tokens.count, 240, "a restarted activity has a new token")
        XCTAssertTrue(dead.allSatisfy { tokens.contains($0) }, "dead tokens are tokens the stream registers")
    }

    /// Fewer stores than a device may follow (one store here) must not stall the generator.
    func testFewerStoresThanFollowsStillCompletes() throws {
        let (bytes, _) = try orderChanges(OrderChangesGenerator(events: 300, devices: 20, stores: 1, seed: 2))
        XCTAssertEqual(bytes.filter { $0 == UInt8(ascii: "\n") }.count, 300)
    }

    func testShippedStreamsAreWhatTheGeneratorsWrite() throws {
        // The parameters in profiles/order-changes.yaml and profiles/leave-requests.yaml.
        let oc = try orderChanges(OrderChangesGenerator(events: 6000, devices: 300, stores: 40, seed: 7))
        XCTAssertEqual([UInt8](try Data(contentsOf: Self.streams.appendingPathComponent("order-changes.ndjson"))), oc.lines,
                       "regenerate with the command in profiles/order-changes.yaml")
        let dead = try String(contentsOf: Self.streams.appendingPathComponent("order-changes.dead-tokens"), encoding: .utf8)
        XCTAssertEqual(dead.split(separator: "\n").map(String.init), oc.dead)
        var subscribed = OrderChangesGenerator(events: 6000, devices: 300, stores: 40, seed: 7)
        subscribed.channels = true
        XCTAssertEqual([UInt8](try Data(contentsOf: Self.streams.appendingPathComponent("order-changes-channels.ndjson"))), try orderChanges(subscribed).lines,
                       "regenerate with the command in profiles/order-changes-broadcast.yaml")
        var leave: [UInt8] = []
        LeaveRequestGenerator(requests: 360, seed: 7).write { leave += $0 }
        XCTAssertEqual([UInt8](try Data(contentsOf: Self.streams.appendingPathComponent("leave-requests.ndjson"))), leave)
        var api = LeaveRequestGenerator(requests: 360, seed: 7)
        api.form = .api
        var calls: [UInt8] = []
        api.write { calls += $0 }
        XCTAssertEqual([UInt8](try Data(contentsOf: Self.streams.appendingPathComponent("leave-requests-api.ndjson"))), calls,
                       "regenerate: apnsbench generate leave-requests --requests 360 --seed 7 --form api")
    }
}
