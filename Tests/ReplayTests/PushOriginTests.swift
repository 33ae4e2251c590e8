import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// ``ReplaySource/origin``: the stream line, kind and path of the event behind each push a source hands out.
final class PushOriginTests: XCTestCase {
    func workload(_ name: String, pushType: PushType, stream: String? = nil) -> RunConfig.Workload {
        var w = RunConfig.Workload(name: name, stream: stream ?? RepoFiles.stream(name), recipe: RepoFiles.recipe(name), bundleID: "com.example.\(name)")
        w.pushType = pushType
        return w
    }

    /// Every result but `.end`, with the origin read right after it.
    func drain(_ source: ReplaySource, limit: Int = .max) -> [(result: PullResult, kind: Int32, origin: PushOrigin?)] {
        var push = OutgoingPush(bodyCapacity: 64)
        var out: [(PullResult, Int32, PushOrigin?)] = []
        while out.count < limit {
            let r = source.next(into: &push)
            if r == .end { break }
            out.append((r, push.kind, source.origin))
        }
        return out
    }

    func testEachPushNamesTheStreamLineThatPlannedIt() throws {
        let w = workload("leave-requests", pushType: .liveactivity)
        let source = try Workloads.source(w, priority: .immediate, recipes: try Workloads.recipes(w))
        XCTAssertNil(source.origin, "nothing handed out yet")
        let lines = try String(contentsOfFile: w.stream, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let pulled = drain(source)
        XCTAssertFalse(pulled.isEmpty)
        for p in pulled {
            let origin = try XCTUnwrap(p.origin)
            XCTAssertEqual(origin.stream, w.stream)
            let line = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines[origin.line - 1].utf8)) as? [String: Any])
            XCTAssertEqual(line["kind"] as? String, origin.kind, "line \(origin.line)")
            XCTAssertEqual(origin.kind, "leave.status", "only status changes plan pushes")
        }
        XCTAssertNil(source.origin, "the source ended")
    }

    func testABadLineIsItsOwnOrigin() throws {
        let dir = try ScratchFolder.make("origin")
        defer { ScratchFolder.remove(dir) }
        let stream = dir.appendingPathComponent("s.ndjson").path
        try #"{"at":"2025-04-16T07:00:00Z","kind":"leave.exploded"}"# .appending("\nnot json\n").write(toFile: stream, atomically: true, encoding: .utf8)
        let w = workload("leave-requests", pushType: .liveactivity, stream: stream)
        let pulled = drain(try Workloads.source(w, priority: .immediate, recipes: try Workloads.recipes(w)))
        XCTAssertEqual(pulled.map(\.result), [.notSent(.badLine), .notSent(.badLine)])
        XCTAssertEqual(pulled.map(\.origin), [PushOrigin(line: 1, kind: "leave.exploded", stream: stream),
                                              PushOrigin(line: 2, kind: EventTally.unknownKind, stream: stream)])
    }

    func testAMixNamesThePartThatAnswered() throws {
        var mix = RunConfig.Workload(name: RunConfig.Workload.mixName, stream: "", recipe: "", bundleID: "")
        mix.mix = [workload("leave-requests", pushType: .liveactivity), workload("cdbl-leave", pushType: .alert), workload("ksr-cranes", pushType: .alert)]
        let parts = mix.parts
        let source = try Workloads.source(mix, priority: .immediate, recipes: try Workloads.recipes(mix))
        var streams = Set<String>()
        for p in drain(source) {
            let origin = try XCTUnwrap(p.origin)
            if p.result == .push { XCTAssertEqual(origin.stream, parts[Int(p.kind)].stream, "the push's kind is its part") }
            streams.insert(origin.stream)
        }
        XCTAssertEqual(streams, Set(parts.map(\.stream)))
    }

    func testALoopedRecordingNamesTheSameLinesEachPass() throws {
        let w = workload("leave-requests", pushType: .liveactivity)
        let t = try Workloads.recipes(w)
        let once = drain(try Workloads.source(w, priority: .immediate, recipes: t))
        let looped = LoopingReplay(first: try Workloads.source(w, priority: .immediate, recipes: t)) { shift in
            try Workloads.source(w, priority: .immediate, recipes: t, timeShiftMillis: shift)
        }
        let twice = drain(looped, limit: once.count * 2)
        XCTAssertEqual(twice.count, once.count * 2)
        XCTAssertEqual(twice.prefix(once.count).map(\.origin), once.map(\.origin))
        XCTAssertEqual(twice.suffix(once.count).map(\.origin), once.map(\.origin))
    }
}
