import APNsCore
import Foundation
import Replay
import XCTest
@testable import Harness

/// `apnsbench plan`: the workload's plan walked without sending, counted and written as NDJSON lines.
final class PushPlanTests: XCTestCase {
    private static func shipped(_ name: String) throws -> RunConfig {
        try ReplayRun.configuration(RunRequest(profilePath: HarnessFixture.repo.appendingPathComponent("profiles/\(name).yaml").path))
    }

    /// Walks `config`'s plan into a file; the tally and the lines, parsed.
    private func plan(_ config: RunConfig, _ fixture: HarnessFixture, limit: Int? = nil, showTokens: Bool = false)
        throws -> (tally: PlanTally, lines: [[String: Any]]) {
        let path = fixture.path("plan-\(UUID().uuidString).ndjson")
        let tally = try PushPlan.walk(try PushPlan.source(config, recipes: try Workloads.recipes(for: config)),
                                      lines: try PlanLineWriter(path: path, config: config, recipes: try Workloads.recipes(for: config),
                                          showTokens: showTokens), limit: limit)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = try text.split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "a JSON object a line: \($0)")
        }
        return (tally, lines)
    }

    func testEveryPlannedPushIsOneLineAndTheCountsAddUp() throws {
        let fixture = try HarnessFixture(self)
        let config = try Self.shipped("order-changes")
        let (tally, lines) = try plan(config, fixture)
        XCTAssertTrue(tally.balanced)
        XCTAssertGreaterThan(tally.toSend, 0)
        XCTAssertGreaterThan(tally.notSentTotal, 0, "the recording plants empty stores (no_recipients)")
        XCTAssertEqual(tally.planned, tally.events.expectedPushes)
        XCTAssertEqual(lines.count, tally.planned)
        XCTAssertEqual(lines.map { $0["n"] as? Int }, (1...tally.planned).map { $0 }, "numbered 1… in plan order")
        let notSent = lines.filter { $0["not_sent"] != nil }
        XCTAssertEqual(notSent.count, tally.notSentTotal)
        XCTAssertEqual(lines.count - notSent.count, tally.toSend)
        XCTAssertTrue(notSent.allSatisfy { $0["token"] == nil && $0["payload"] == nil })
        XCTAssertTrue(lines.filter { $0["not_sent"] == nil }.allSatisfy { $0["payload"] is [String: Any] }, "the payload is a JSON object, not a string")
        // By kind, as the lines' events say, the same as the tally's.
        var byKind: [String: Int] = [:]
        var lastLine = 0
        for l in lines {
            let event = try XCTUnwrap(l["event"] as? [String: Any])
            byKind[try XCTUnwrap(event["kind"] as? String), default: 0] += 1
            let line = try XCTUnwrap(event["line"] as? Int)
            XCTAssertGreaterThanOrEqual(line, lastLine, "one recording's pushes come in stream order")
            lastLine = line
            XCTAssertEqual(event["stream"] as? String, config.workload.stream)
        }
        XCTAssertEqual(byKind, tally.byKind.mapValues(\.planned))
        for (kind, c) in tally.byKind {
            XCTAssertEqual(c.planned, c.toSend + c.notSent.values.reduce(0, +), kind)
        }
        XCTAssertEqual(tally.notSent, Dictionary(grouping: notSent, by: { $0["not_sent"] as! String }).mapValues(\.count))
    }

    func testTheWalkCountsWhatTheSourceHandsOut() throws {
        let config = try Self.shipped("leave-requests")
        let counted = try PushPlan.walk(try PushPlan.source(config, recipes: try Workloads.recipes(for: config)), lines: nil)
        let source = try PushPlan.source(config, recipes: try Workloads.recipes(for: config))
        var push = OutgoingPush()
        var pushes = 0, notSent = 0
        loop: while true {
            switch source.next(into: &push) {
            case .push: pushes += 1
            case .notSent: notSent += 1
            case .idle: continue
            case .end: break loop
            }
        }
        XCTAssertEqual(counted.toSend, pushes)
        XCTAssertEqual(counted.notSentTotal, notSent)
        XCTAssertEqual(counted.events, source.events)
    }

    func testTokensAreRedactedUnlessAskedFor() throws {
        let fixture = try HarnessFixture(self)
        let config = try Self.shipped("leave-requests")
        let redacted = try plan(config, fixture).lines.compactMap { $0["token"] as? String }
        let full = try plan(config, fixture, showTokens: true).lines.compactMap { $0["token"] as? String }
        XCTAssertFalse(full.isEmpty)
        XCTAssertEqual(redacted.count, full.count)
        XCTAssertTrue(full.allSatisfy(DeviceToken.isValid))
        XCTAssertEqual(redacted, full.map(DeviceToken.redacted))
        XCTAssertFalse(redacted.contains { Redaction.sanitize($0, limit: .max) != $0 }, "no token-length hex run is left")
    }

    func testLimitWritesTheFirstLinesAndStillCountsEverything() throws {
        let fixture = try HarnessFixture(self)
        let config = try Self.shipped("leave-requests")
        let all = try plan(config, fixture)
        let first = try plan(config, fixture, limit: 5)
        XCTAssertEqual(first.lines.count, 5)
        XCTAssertEqual(first.lines.map { $0["n"] as? Int }, [1, 2, 3, 4, 5])
        XCTAssertEqual(first.lines.map { $0["event"] as? [String: AnyHashable] }, all.lines.prefix(5).map { $0["event"] as? [String: AnyHashable] })
        XCTAssertEqual(first.tally.planned, all.tally.planned)
        XCTAssertEqual(first.tally.byKind, all.tally.byKind)
        XCTAssertEqual(try plan(config, fixture, limit: 0).lines.count, 0)
    }

    func testAMixGivesEachPushItsPartsTopicAndHeaders() throws {
        let fixture = try HarnessFixture(self)
        let config = try Self.shipped("ci")
        let parts = config.workload.parts
        let (tally, lines) = try plan(config, fixture)
        XCTAssertTrue(tally.balanced)
        var seen = Set<String>()
        for l in lines where l["not_sent"] == nil {
            let stream = try XCTUnwrap((l["event"] as? [String: Any])?["stream"] as? String)
            let part = try XCTUnwrap(parts.first { $0.stream == stream }, stream)
            XCTAssertEqual(l["topic"] as? String, part.topic, stream)
            XCTAssertEqual(l["push_type"] as? String, part.pushType.rawValue, stream)
            XCTAssertEqual(l["expiration_seconds"] as? Int, config.payload.expiration.map { Int($0.millis / 1000) })
            seen.insert(part.name)
        }
        XCTAssertEqual(seen, Set(parts.map(\.name)), "every part planned pushes")
        XCTAssertEqual(Set(parts.map(\.topic)).count, parts.count, "the parts' topics differ, so a wrong part would show")
    }

    func testABroadcastLineNamesItsChannelAndReach() throws {
        let fixture = try HarnessFixture(self)
        let (tally, lines) = try plan(try Self.shipped("order-changes-broadcast"), fixture)
        XCTAssertTrue(tally.balanced)
        let sent = lines.filter { $0["not_sent"] == nil }
        let broadcasts = sent.filter { $0["channel"] != nil }
        XCTAssertFalse(broadcasts.isEmpty)
        for l in sent {
            XCTAssertTrue((l["token"] == nil) != (l["channel"] == nil), "a token or a channel: \(l)")
            let kind = (l["event"] as? [String: Any])?["kind"] as? String
            if kind == "order.change" { XCTAssertNotNil(l["channel"], "an order change is broadcast: \(l)") }
        }
        for l in broadcasts {
            XCTAssertTrue((l["channel"] as? String)?.hasPrefix("c") == true, "\(l)")
            XCTAssertGreaterThanOrEqual(l["reach"] as? Int ?? -1, 0, "\(l)")
        }
    }

    func testBadLinesArePlannedAsNotSentAtTheirLine() throws {
        let fixture = try HarnessFixture(self)
        var config = try fixture.config()
        let good = HarnessFixture.recording.split(separator: "\n").map(String.init)
        let recording = [good[0], "not json", #"{"at":"2025-04-16T07:00:00Z","kind":"leave.exploded"}"#] + good.dropFirst()
        config.workload.stream = try fixture.write("bad.ndjson", recording.joined(separator: "\n") + "\n")
        let (tally, lines) = try plan(config, fixture)
        XCTAssertTrue(tally.balanced)
        XCTAssertEqual(tally.notSent["bad_line"], 2)
        let bad = lines.filter { $0["not_sent"] as? String == "bad_line" }.map { $0["event"] as! [String: Any] }
        XCTAssertEqual(bad.map { $0["line"] as? Int }, [2, 3])
        XCTAssertEqual(bad.map { $0["kind"] as? String }, [EventTally.unknownKind, "leave.exploded"])
        let summary = PlanSummary.text(tally, profile: "p.yaml", brief: false)
        XCTAssertTrue(summary.contains("matched no rule (unknown_kind): 1, lines 3"), summary)
        XCTAssertTrue(summary.contains("not_json: 1, lines 2"), summary)
        XCTAssertTrue(summary.contains("totals add up"), summary)
    }

    func testAnUnreadableStreamIsAnErrorNamingItAndTheProfile() throws {
        var config = try HarnessFixture(self).config()
        config.workload.stream = "/nonexistent/s.ndjson"
        XCTAssertThrowsError(try PushPlan.source(config, recipes: try Workloads.recipes(for: config))) { error in
            XCTAssertTrue("\(error)".contains("stream /nonexistent/s.ndjson (from "), "\(error)")
        }
    }
}
