import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A rule's own headers, a mapped priority and an omitted slot, on a small recipe written for the test.
final class RecipeRuleOptionsTests: RecipeScratchCase {
    override var templates: [String: String] { ["t.json": #"{"aps": {"alert": "{{text}}"}, "parcel": "{{parcel}}", "eta": "{{#eta}}"}"#] }

    private func recipe(_ push: String) throws -> Recipe {
        let yaml = """
            recipe: options
            events:
              note:
                match: {kind: note}
                fields:
                  token: token
                  text: string
                  parcel: string
                  urgency: string?
                  eta: int?
                push:
                  to: {token: token}
                  template: t.json
            \(push.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
            """
        return try RecipeLoader.load(yaml: yaml, file: dir.appendingPathComponent("r.yaml").path)
    }

    private func plan(_ recipe: Recipe, _ line: String) throws -> OutgoingPush {
        let rules = RecipeRules(recipe, priority: .powerAware)
        let fields = try FlatJSON.parse(line, line: 1)
        XCTAssertEqual(try rules.apply(StreamRecord(line: 1, at: 1_700_000_000_000, kind: "note", fields: fields)), 1)
        var push = OutgoingPush()
        XCTAssertEqual(rules.nextPlanned(into: &push), .push)
        return push
    }

    private let token = String(repeating: "ab", count: 32)

    func testAMappedCollapseIDPicksItsHeaderSetByValue() throws {
        let r = try recipe("""
            push_type: alert
            collapse_id: {from: urgency, map: {high: urgent-notes}, default: notes}
            expiration_seconds: 60
            """)
        // Set 0 is the profile's own; the rule's two sets follow.
        XCTAssertEqual(r.pushKinds, [HeaderConstants(),
                                     HeaderConstants([APNsHeaders.pushType: "alert", APNsHeaders.expiration: 60, APNsHeaders.collapseID: "urgent-notes"]),
                                     HeaderConstants([APNsHeaders.pushType: "alert", APNsHeaders.expiration: 60, APNsHeaders.collapseID: "notes"])])
        let line = #"{"at":"x","kind":"note","token":"\#(token)","text":"hi","parcel":"p1","urgency":"high"}"#
        XCTAssertEqual(try plan(r, line).kind, 1)
        XCTAssertEqual(try plan(r, line.replacingOccurrences(of: "high", with: "low")).kind, 2)
        XCTAssertEqual(try plan(r, line.replacingOccurrences(of: #","urgency":"high""#, with: "")).kind, 2)
    }

    func testARulesPushTypeAndTopicAreCheckedByTheirRows() throws {
        XCTAssertEqual(try recipe("push_type: alert\ntopic: com.example.notes").pushKinds.last,
                       HeaderConstants([APNsHeaders.pushType: "alert", APNsHeaders.topic: "com.example.notes"]))
        XCTAssertThrowsError(try recipe("push_type: alrt")) { error in
            XCTAssertEqual("\(error)", "\(dir.appendingPathComponent("r.yaml").path):14: 'events.note.push.push_type' must be one of "
                + "alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets, controls, found 'alrt'")
        }
        let long = String(repeating: "t", count: 256)
        XCTAssertThrowsError(try recipe("topic: \(long)")) { error in
            XCTAssertEqual("\(error)", "\(dir.appendingPathComponent("r.yaml").path):14: "
                + "'events.note.push.topic' must be text of at most 255 bytes (APNs' limit), found 256 bytes")
        }
    }

    func testAPushTypeMappedFromAFieldPicksAKindWithItsOwnTopic() throws {
        let r = try recipe("push_type: {from: urgency, map: {call: voip}, default: alert}")
        XCTAssertEqual(r.pushKinds, [HeaderConstants(), HeaderConstants([APNsHeaders.pushType: "voip"]),
                                     HeaderConstants([APNsHeaders.pushType: "alert"])])
        let line = #"{"at":"x","kind":"note","token":"\#(token)","text":"hi","parcel":"p1","urgency":"call"}"#
        XCTAssertEqual(try plan(r, line).kind, 1)
        XCTAssertEqual(try plan(r, line.replacingOccurrences(of: "call", with: "later")).kind, 2)
        let config = RunConfig(name: "options", profilePath: "p.yaml",
                               workload: RunConfig.Workload(name: "options", stream: "s.ndjson", recipe: "r.yaml", bundleID: "com.example.app"))
        XCTAssertEqual(config.pushKinds([r.pushKinds]).map(\.topic), [config.topic, "com.example.app.voip", "com.example.app"],
                       "a kind's push type brings its topic")
        let path = dir.appendingPathComponent("r.yaml").path
        XCTAssertThrowsError(try recipe("push_type: {from: urgency, map: {call: phone}}")) { error in
            XCTAssertEqual("\(error)", "\(path):14: 'events.note.push.push_type.map.call' must be one of "
                + "alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets, controls")
        }
        XCTAssertThrowsError(try recipe("expiration_seconds: {from: urgency, map: {later: 31536001}, default: 60}")) { error in
            XCTAssertEqual("\(error)", "\(path):14: 'events.note.push.expiration_seconds.map.later' must be a number of seconds from 0 to 31536000")
        }
        XCTAssertThrowsError(try recipe("topic: {from: urgency}")) { error in
            XCTAssertEqual("\(error)", "\(path):14: 'events.note.push.topic' is the same for every push of a kind: a constant, or a table "
                + "{from: FIELD, map: {VALUE: …}, default: …}")
        }
    }

    func testAMappedPriorityFallsBackToItsDefaultThenTheProfiles() throws {
        let line = #"{"at":"x","kind":"note","token":"\#(token)","text":"hi","parcel":"p1","urgency":"high"}"#
        let mapped = try recipe("priority: {from: urgency, map: {high: 10}, default: 1}")
        XCTAssertEqual(try plan(mapped, line).priority, .immediate)
        XCTAssertEqual(try plan(mapped, line.replacingOccurrences(of: "high", with: "low")).priority, .powerFirst)
        let noDefault = try recipe("priority: {from: urgency, map: {high: 10}}")
        XCTAssertEqual(try plan(noDefault, line.replacingOccurrences(of: "high", with: "low")).priority, .powerAware)
        XCTAssertThrowsError(try recipe("priority: {from: urgency, map: {high: 7}}")) { error in
            XCTAssertTrue("\(error)".contains("must be 10, 5 or 1, found 7"), "\(error)")
        }
    }

    func testAnAbsentValueCanLeaveItsMemberOut() throws {
        let r = try recipe("slots: {eta: {from: eta, absent: omit}}")
        let line = #"{"at":"x","kind":"note","token":"\#(token)","text":"hi","parcel":"p1"}"#
        XCTAssertEqual(String(decoding: try plan(r, line).body, as: UTF8.self), #"{"aps":{"alert":"hi"},"parcel":"p1"}"#)
        let withETA = line.replacingOccurrences(of: "}", with: #","eta":12}"#)
        XCTAssertEqual(String(decoding: try plan(r, withETA).body, as: UTF8.self), #"{"aps":{"alert":"hi"},"parcel":"p1","eta":12}"#)
        // Without `absent: omit` an absent value is null.
        XCTAssertEqual(String(decoding: try plan(try recipe(""), line).body, as: UTF8.self), #"{"aps":{"alert":"hi"},"parcel":"p1","eta":null}"#)
    }
}
