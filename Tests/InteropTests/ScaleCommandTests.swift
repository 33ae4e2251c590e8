import Foundation
import TestSupport
import XCTest

/// `apnsbench scale` run as a user runs it: a scaled recording planned through the same recipe, and each bad
/// input refused with its cause named and its exit code.
final class ScaleCommandTests: XCTestCase {
    private func apnsbench(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try TestSupport.apnsbench(arguments, directory: RepoFiles.root)
    }

    private func scratch() throws -> URL { try ScratchFolder.make("scale", removedBy: addTeardownBlock) }

    /// profiles/order-changes.yaml with its recording and dead tokens replaced, every path absolute.
    private func orderChangesProfile(in dir: URL, stream: String, deadTokens: String) throws -> String {
        let shipped = try String(contentsOfFile: RepoFiles.path("profiles/order-changes.yaml"), encoding: .utf8)
        let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("stream:") { return "stream: \(stream)" }
            if line.hasPrefix("dead_tokens:") { return "dead_tokens: \(deadTokens)" }
            if line.hasPrefix("recipe:") { return "recipe: \(RepoFiles.recipe("order-changes"))" }
            if line.hasPrefix("activity_model:") { return "activity_model: \(RepoFiles.path("profiles/models/OrderChangesAttributes.swift"))" }
            return String(line)
        }
        let path = dir.appendingPathComponent("scaled.yaml").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `plan PROFILE --out FILE`'s push lines: per recorded event line, its pushes; and the not-sent causes.
    private func plan(_ profile: String, in dir: URL) throws -> (perEvent: [Int: Int], notSent: [String: Int], pushes: Int) {
        let out = dir.appendingPathComponent("plan-\(UUID().uuidString).ndjson").path
        let r = try apnsbench(["plan", profile, "--out", out, "--quiet"])
        XCTAssertEqual(r.status, 0, r.output)
        var byLine: [Int: Int] = [:]
        var notSent: [String: Int] = [:]
        var pushes = 0
        for line in try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n") {
            let push = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let event = try XCTUnwrap(push["event"] as? [String: Any])
            byLine[try XCTUnwrap(event["line"] as? Int), default: 0] += 1
            if let cause = push["not_sent"] as? String { notSent[cause, default: 0] += 1 }
            pushes += 1
        }
        var perEvent: [Int: Int] = [:]
        for (_, n) in byLine { perEvent[n, default: 0] += 1 }
        return (perEvent, notSent, pushes)
    }

    func testAScaledOrderChangesRecordingPlansKTimesThePushesWithTheRecordedFanOut() throws {
        let dir = try scratch()
        let stream = dir.appendingPathComponent("oc-x4.ndjson").path
        let dead = dir.appendingPathComponent("oc-x4.dead-tokens").path
        let r = try apnsbench(["scale", "profiles/streams/order-changes.ndjson", "--profile", "profiles/order-changes.yaml",
                               "--factor", "4", "--out", stream, "--dead-tokens", dead])
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertTrue(r.output.contains("6000 lines -> 24000"), r.output)
        XCTAssertTrue(r.output.contains("device.register: device_id, push_token, store_ids, input_push_channel"), r.output)
        let recordedDead = try String(contentsOfFile: RepoFiles.path("profiles/streams/order-changes.dead-tokens"), encoding: .utf8)
            .split(separator: "\n")
        let scaledDead = try String(contentsOfFile: dead, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(scaledDead.count, 4 * recordedDead.count)
        XCTAssertEqual(stride(from: 0, to: scaledDead.count, by: 4).map { scaledDead[$0] }, recordedDead, "copy 0 first")
        let scaledText = try String(contentsOfFile: stream, encoding: .utf8)
        for token in scaledDead { XCTAssertTrue(scaledText.contains("\"\(token)\""), "a dead token's clone is the recording's clone") }
        let before = try plan("profiles/order-changes.yaml", in: dir)
        let after = try plan(try orderChangesProfile(in: dir, stream: stream, deadTokens: dead), in: dir)
        XCTAssertEqual(after.pushes, 4 * before.pushes)
        XCTAssertEqual(after.perEvent, before.perEvent.mapValues { 4 * $0 }, "fan-out per group keeps its distribution")
        XCTAssertEqual(after.notSent, before.notSent.mapValues { 4 * $0 }, "dead tokens and empty stores grow with it")
        let again = dir.appendingPathComponent("again.ndjson").path
        XCTAssertEqual(try apnsbench(["scale", "profiles/streams/order-changes.ndjson", "--profile", "profiles/order-changes.yaml",
                                      "--factor", "4", "--out", again]).status, 0)
        XCTAssertEqual(FileManager.default.contents(atPath: again), FileManager.default.contents(atPath: stream), "same inputs, same bytes")
    }

    func testEachBadInputIsRefusedNamingIt() throws {
        let dir = try scratch()
        let out = dir.appendingPathComponent("o.ndjson").path
        let recording = "profiles/streams/order-changes.ndjson"

        let unknown = try apnsbench(["scale", recording, "--profile", "profiles/nope.yaml", "--factor", "2", "--out", out])
        XCTAssertEqual(unknown.status, 1, unknown.output)
        XCTAssertTrue(unknown.output.contains("profiles/nope.yaml: cannot read the profile"), unknown.output)

        for k in ["0", "-3"] {
            let zero = try apnsbench(["scale", recording, "--profile", "profiles/order-changes.yaml", "--factor=\(k)", "--out", out])
            XCTAssertEqual(zero.status, 64, zero.output)
            XCTAssertTrue(zero.output.contains("--factor \(k) must be 1 or more"), zero.output)
        }

        let missing = dir.appendingPathComponent("missing.ndjson").path
        let unreadable = try apnsbench(["scale", missing, "--profile", "profiles/order-changes.yaml", "--factor", "2", "--out", out])
        XCTAssertEqual(unreadable.status, 1, unreadable.output)
        XCTAssertTrue(unreadable.output.contains("\(missing): the recording cannot be read"), unreadable.output)

        let bad = dir.appendingPathComponent("bad.ndjson").path
        let first = try String(contentsOfFile: RepoFiles.stream("order-changes"), encoding: .utf8).split(separator: "\n")[0]
        try "\(first)\n{\"at\": oops}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let notJSON = try apnsbench(["scale", bad, "--profile", "profiles/order-changes.yaml", "--factor", "2", "--out", out])
        XCTAssertEqual(notJSON.status, 1, notJSON.output)
        XCTAssertTrue(notJSON.output.contains("\(bad):2: not JSON"), notJSON.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing is written before every line was read")

        let mix = try apnsbench(["scale", recording, "--profile", "profiles/demo.yaml", "--factor", "2", "--out", out])
        XCTAssertEqual(mix.status, 1, mix.output)
        XCTAssertTrue(mix.output.contains("profiles/demo.yaml: is a mix of recordings"), mix.output)

        let onto = try apnsbench(["scale", recording, "--profile", "profiles/order-changes.yaml", "--factor", "2", "--out", recording])
        XCTAssertEqual(onto.status, 64, onto.output)
        XCTAssertTrue(onto.output.contains("Error: --out \(recording) is the recording \(recording), an input of this command: "
            + "write elsewhere (no command writes over its own input)\n"), onto.output)
        let ontoDead = try apnsbench(["scale", recording, "--profile", "profiles/order-changes.yaml", "--factor", "2", "--out", out,
                                      "--dead-tokens", "profiles/streams/order-changes.dead-tokens"])
        XCTAssertEqual(ontoDead.status, 64, ontoDead.output)
        XCTAssertTrue(ontoDead.output.contains("Error: --dead-tokens profiles/streams/order-changes.dead-tokens is the dead_tokens list"), ontoDead.output)
    }
}
