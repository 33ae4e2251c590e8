import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A mix of recordings (`workload: mix`) as one push source: every part's pushes come out once, with the
/// part's kind, interleaved in recorded time from each recording's start, and the counts add up.
final class MixedWorkloadTests: XCTestCase {
    struct Pulled: Hashable {
        var token: String
        var body: String
        var priority: Int
    }

    /// The shipped recording of `name` as a part of a mix (its profile's push type and app).
    func part(_ name: String, stream: String? = nil, pushType: PushType = .alert) -> RunConfig.Workload {
        var w = RunConfig.Workload(name: name, stream: stream ?? RepoFiles.stream(name), recipe: RepoFiles.recipe(name), bundleID: "com.example.\(name)")
        w.pushType = pushType
        return w
    }

    func recipes(_ parts: [RunConfig.Workload]) throws -> [Recipe] {
        try parts.map { try RecipeLoader.load(path: $0.recipe!) }
    }

    func mix(_ parts: [RunConfig.Workload]) -> RunConfig.Workload {
        var w = RunConfig.Workload(name: RunConfig.Workload.mixName, stream: "", recipe: "", bundleID: "")
        w.mix = parts
        return w
    }

    /// Drains `source`: the pushes by kind, the not-sent causes, and the recorded times in the order sent.
    func drain(_ source: PushSource) -> (byKind: [Int32: [Pulled]], notSent: [String: Int], times: [Int64]) {
        var push = OutgoingPush(bodyCapacity: 64)
        var byKind: [Int32: [Pulled]] = [:], notSent: [String: Int] = [:], times: [Int64] = []
        while true {
            switch source.next(into: &push) {
            case .push:
                byKind[push.kind, default: []].append(Pulled(token: push.deviceToken, body: String(decoding: push.body, as: UTF8.self),
                    priority: push.priority.rawValue))
                times.append(push.recordedMillis)
            case .notSent(let cause): notSent[cause.rawValue, default: 0] += 1
            case .idle: continue
            case .end: return (byKind, notSent, times)
            }
        }
    }

    func testEveryPartsPushesComeOutOnceWithThePartsKindAndTheCountsAddUp() throws {
        let parts = [part("leave-requests", pushType: .liveactivity), part("cdbl-leave"), part("everday-approvals")]
        let rs = try recipes(parts)
        let source = try Workloads.source(mix(parts), priority: .immediate, recipes: rs)
        let mixed = drain(source)

        var events = EventTally()
        var notSent: [String: Int] = [:]
        for (i, p) in parts.enumerated() {
            let alone = try Workloads.source(p, priority: .immediate, recipes: [rs[i]])
            let got = drain(alone)
            XCTAssertEqual(Set(got.byKind.keys), [0], "a workload alone is kind 0")
            // Part i's pushes, and only they, carry kind i: the same pushes in the same order as the recording alone.
            XCTAssertEqual(mixed.byKind[Int32(i)], got.byKind[0], "part \(i) (\(p.name))")
            XCTAssertGreaterThan(got.byKind[0]?.count ?? 0, 100)
            // Alone, its pushes are kind 0; in the mix, kind i.
            var aloneEvents = alone.events
            aloneEvents.toSendByKind = [Int32(i): aloneEvents.toSendByKind[0] ?? [:]]
            events = events + aloneEvents
            notSent.merge(got.notSent, uniquingKeysWith: +)
        }
        XCTAssertEqual(Set(mixed.byKind.keys), [0, 1, 2])
        XCTAssertEqual(mixed.notSent, notSent)
        XCTAssertEqual(source.events, events, "the mix's events are the parts' summed")
        XCTAssertTrue(source.events.balanced)
        XCTAssertEqual(mixed.byKind.values.reduce(0) { $0 + $1.count } + mixed.notSent.values.reduce(0, +), source.events.expectedPushes)
    }

    func testPartsInterleaveInRecordedTimeFromTheirOwnStarts() throws {
        // Two recordings from different days: aligned at their first events, they run side by side.
        let day1 = (0..<50).map { "{\"at\":\"2025-02-02T04:00:\(String(format: "%02d", $0))Z\",\"kind\":\"notify\","
            + "\"token\":\"\(String(repeating: "a1", count: 32))\",\"type\":\"LEAVE_APPROVED\",\"title\":\"t\",\"body\":\"b\",\"category\":\"LEAVE_STATUS\"}" }
        let day2 = (0..<50).map { "{\"at\":\"2024-06-01T10:00:\(String(format: "%02d", $0))Z\",\"kind\":\"notify\","
            + "\"token\":\"\(String(repeating: "b2", count: 32))\",\"type\":\"LEAVE_APPROVED\",\"title\":\"t\",\"body\":\"b\",\"category\":\"LEAVE_STATUS\"}" }
        let a = StreamTestFiles.write(day1.joined(separator: "\n") + "\n", for: self)
        let b = StreamTestFiles.write(day2.joined(separator: "\n") + "\n", for: self)
        let parts = [part("cdbl-leave", stream: a), part("cdbl-leave", stream: b)]
        let source = try Workloads.source(mix(parts), priority: .immediate, recipes: try recipes(parts))
        var push = OutgoingPush(bodyCapacity: 64)
        var kinds: [Int32] = [], times: [Int64] = []
        while source.next(into: &push) == .push {
            kinds.append(push.kind)
            times.append(push.recordedMillis)
        }
        XCTAssertEqual(kinds.count, 100)
        XCTAssertEqual(times, times.sorted(), "recorded times never go back")
        XCTAssertEqual(times.first, try XCTUnwrap(Timestamp.parse("2025-02-02T04:00:00Z")), "on the first part's clock")
        // Second by second, one push of each: the 2024 recording is not sent after (or before) all of the 2025 one.
        XCTAssertEqual(Array(kinds.prefix(6)), [0, 1, 0, 1, 0, 1])
    }

    func testABadLineUnderStopEndsTheWholeMixAndEveryPlannedPushIsCounted() throws {
        let good = (0..<30).map { "{\"at\":\"2025-02-02T04:00:\(String(format: "%02d", $0))Z\",\"kind\":\"notify\","
            + "\"token\":\"\(String(repeating: "c3", count: 32))\",\"type\":\"LEAVE_APPROVED\",\"title\":\"t\",\"body\":\"b\",\"category\":\"LEAVE_STATUS\"}" }
        var broken = good
        broken[10] = "{not json"
        let parts = [part("cdbl-leave", stream: StreamTestFiles.write(good.joined(separator: "\n") + "\n", for: self)),
                     part("cdbl-leave", stream: StreamTestFiles.write(broken.joined(separator: "\n") + "\n", for: self))]
        var w = mix(parts)
        w.mix = w.mix!.map { var p = $0; p.badLines = .stop; return p }
        let rs = try recipes(parts)
        let source = MixedWorkload(parts: try w.mix!.enumerated().map { i, p in
            let d = try Workloads.driver(p, priority: .immediate, recipe: rs[i])
            d.kind = Int32(i)
            return d
        })
        let got = drain(source)
        XCTAssertEqual(source.stopError?.line, 11)
        XCTAssertEqual(got.notSent["bad_line"], 1)
        XCTAssertLessThan(source.events.read, 60, "the other part stopped too")
        XCTAssertEqual(got.byKind.values.reduce(0) { $0 + $1.count } + got.notSent.values.reduce(0, +), source.events.expectedPushes,
                       "every push planned ends once, sent or not sent: \(got.notSent)")
    }
}
