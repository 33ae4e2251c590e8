import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A recording looped pass after pass: the same pushes each pass, recorded times shifted past the pass
/// before, every pass's events counted, and the loop ends on a stop or a pass that plans nothing.
final class LoopingReplayTests: XCTestCase {
    func config(_ name: String, pushType: PushType, stream: String? = nil) throws -> (RunConfig, [Recipe]) {
        var w = RunConfig.Workload(name: name, stream: stream ?? RepoFiles.stream(name), recipe: RepoFiles.recipe(name), bundleID: "com.example.app")
        w.pushType = pushType
        var c = RunConfig(name: name, profilePath: "test.yaml", workload: w)
        c.schedule.loopRecording = true
        return (c, try Workloads.recipes(w))
    }

    struct Pulled: Equatable {
        var token: String
        var body: String
    }

    /// Pulls `pushes` pushes (and the not-sent ones between them).
    func pull(_ source: PushSource, pushes: Int) -> (pushes: [Pulled], times: [Int64], notSent: Int, ended: Bool) {
        var push = OutgoingPush(bodyCapacity: 64)
        var out: [Pulled] = [], times: [Int64] = [], notSent = 0
        while out.count < pushes {
            switch source.next(into: &push) {
            case .push:
                out.append(Pulled(token: push.deviceToken, body: String(decoding: push.body, as: UTF8.self)))
                times.append(push.recordedMillis)
            case .notSent: notSent += 1
            case .idle: continue
            case .end: return (out, times, notSent, true)
            }
        }
        return (out, times, notSent, false)
    }

    func testEachPassSendsTheSamePushesLaterAndTheCountsAddUp() throws {
        let (c, recipes) = try config("order-changes", pushType: .liveactivity)
        var plain = c
        plain.schedule.loopRecording = nil
        let once = try Workloads.replay(plain, recipes: recipes)
        let first = pull(once, pushes: .max)
        XCTAssertTrue(first.ended)
        XCTAssertFalse(once is LoopingReplay, "no loop unless the schedule asks")
        let perPass = first.pushes.count

        let looped = try XCTUnwrap(Workloads.replay(c, recipes: recipes) as? LoopingReplay)
        let three = pull(looped, pushes: perPass * 3)
        XCTAssertFalse(three.ended)
        XCTAssertEqual(looped.passes, 3)
        XCTAssertEqual((looped as ReplaySource).recordingPasses, 3, "the passes, through the source the report reads")
        XCTAssertEqual(three.notSent, first.notSent * 3)
        // The same tokens and the same payloads but for the time the template carries, pass after pass.
        for pass in 1..<3 {
            let slice = Array(three.pushes[(pass * perPass)..<((pass + 1) * perPass)])
            XCTAssertEqual(slice.map(\.token), first.pushes.map(\.token), "pass \(pass + 1)'s tokens")
        }
        // Recorded time never goes back, and each pass starts after the one before ended.
        XCTAssertEqual(three.times, three.times.sorted())
        XCTAssertGreaterThan(three.times[perPass], three.times[perPass - 1])
        // Every pass's events are counted: three passes plan three times the pushes.
        XCTAssertEqual(looped.events.read, once.events.read * 3)
        XCTAssertEqual(looped.events.expectedPushes, once.events.expectedPushes * 3)
        XCTAssertEqual(three.pushes.count + three.notSent, looped.events.expectedPushes)
    }

    func testAStopEndsTheLoopAndWhatWasPlannedEndsAsStopped() throws {
        let (c, recipes) = try config("order-changes", pushType: .liveactivity)
        let looped = try XCTUnwrap(Workloads.replay(c, recipes: recipes) as? LoopingReplay)
        _ = pull(looped, pushes: 100)
        looped.abandon()
        let rest = pull(looped, pushes: .max)
        XCTAssertTrue(rest.ended)
        XCTAssertEqual(rest.pushes.count, 0)
        XCTAssertEqual(looped.passes, 1)
    }

    func testARecordingThatPlansNoPushIsNotLoopedForever() throws {
        let stream = try ScratchFolder.make("loop", removedBy: addTeardownBlock).appendingPathComponent("s.ndjson")
        // Registrations only: state, no push.
        try """
            {"at":"2025-02-25T16:13:20.000Z","kind":"device.register","device_id":"D1","push_token":"\(String(repeating: "ab", count: 32))","store_ids":[1]}
            {"at":"2025-02-25T16:13:21.000Z","kind":"device.register","device_id":"D2","push_token":"\(String(repeating: "cd", count: 32))","store_ids":[2]}

            """.write(to: stream, atomically: true, encoding: .utf8)
        let (c, recipes) = try config("order-changes", pushType: .liveactivity, stream: stream.path)
        let looped = try XCTUnwrap(Workloads.replay(c, recipes: recipes) as? LoopingReplay)
        let all = pull(looped, pushes: .max)
        XCTAssertTrue(all.ended)
        XCTAssertEqual(looped.passes, 1)
        XCTAssertEqual(looped.events.read, 2)
    }

    func testLoopingNeedsADuration() throws {
        var (c, _) = try config("order-changes", pushType: .liveactivity)
        c.schedule.mode = .fixedRate(perSecond: 100)
        XCTAssertThrowsError(try c.validate()) { e in
            XCTAssertTrue("\(e)".contains("needs a duration"), "\(e)")
        }
        c.schedule.duration = .secondsRounded(10)
        XCTAssertNoThrow(try c.validate())
        c.schedule.mode = .closedLoop
        XCTAssertNoThrow(try c.validate(), "closed loop for a duration longer than the recording lasts")
    }
}
