import APNsCore
@testable import Replay
import XCTest

/// `workload: mix`: parts read strictly, each error naming the file, the line and the key.
final class ProfileLoaderMixTests: XCTestCase {
    let mix = """
        name: m
        workload: mix
        mix:
          - {workload: leave-requests, stream: a.ndjson, template: a.json, push_type: liveactivity, bundle_id: com.example.a}
          - workload: cdbl-leave
            stream: /data/b.ndjson
            template: b.json
            push_type: alert
            bundle_id: com.example.b
        priority: 5

        """

    func parse(_ yaml: String) throws -> RunConfig { try ProfileLoader.parse(yaml: yaml, file: "dir/p.yaml") }

    func assertError(_ yaml: String, line: Int?, mentions words: [String], file: StaticString = #filePath, l: UInt = #line) {
        XCTAssertThrowsError(try parse(yaml), file: file, line: l) { error in
            guard let e = error as? ProfileError else { return XCTFail("not a ProfileError: \(error)", file: file, line: l) }
            XCTAssertEqual(e.line, line, "\(e)", file: file, line: l)
            for w in words { XCTAssertTrue("\(e)".contains(w), "'\(e)' should mention \(w)", file: file, line: l) }
        }
    }

    func testPartsAreReadWithTheirOwnStreamTemplatePushTypeAndTopic() throws {
        let c = try parse(mix)
        XCTAssertEqual(c.workload.name, "mix")
        XCTAssertEqual(c.workload.label, "mix(leave-requests+cdbl-leave)")
        let parts = c.workload.parts
        XCTAssertEqual(parts.map(\.name), ["leave-requests", "cdbl-leave"])
        XCTAssertEqual(parts.map(\.stream), ["dir/a.ndjson", "/data/b.ndjson"], "relative paths from the profile's folder")
        XCTAssertEqual(parts.map(\.template), ["dir/a.json", "dir/b.json"])
        XCTAssertEqual(parts.map(\.topic), ["com.example.a.push-type.liveactivity", "com.example.b"])
        XCTAssertNil(c.workload.commonPushType, "two push types")
        XCTAssertTrue(c.sendsLiveActivities)
        XCTAssertEqual(c.liveActivityBudgetPerHour, 10, "one part sends Live Activity updates")
        XCTAssertEqual(c.payload.priority, .powerAware, "the profile's other keys apply to every part")
        XCTAssertEqual(try parse(mix + "bad_lines: stop\n").workload.parts.map(\.badLines), [.stop, .stop], "every part reads by the profile's policy")
        // A single workload is its own one part.
        let one = try parse("name: o\nworkload: cdbl-leave\nstream: s\ntemplate: t\nbundle_id: b\npush_type: alert\n")
        XCTAssertEqual(one.workload.parts, [one.workload])
        XCTAssertEqual(one.workload.label, "cdbl-leave")
        XCTAssertEqual(one.workload.commonPushType, .alert)
        XCTAssertFalse(one.sendsLiveActivities)
    }

    func testAMixIsRefusedWhereItIsWrittenWrong() {
        assertError(mix.replacingOccurrences(of: "priority: 5", with: "stream: x.ndjson"), line: 10, mentions: ["'stream'", "each part"])
        assertError("name: m\nworkload: mix\n", line: 2, mentions: ["needs 'mix:'"])
        assertError("name: m\nworkload: mix\nmix: five\n", line: 3, mentions: ["'mix' must be a list"])
        assertError(mix.replacingOccurrences(of: "push_type: alert", with: "push_typ: alert"), line: 8, mentions: ["unknown key 'push_typ'", "mix[1]"])
        assertError(mix.replacingOccurrences(of: "template: a.json, ", with: ""), line: 4, mentions: ["'mix[0]' is missing 'template'"])
        assertError(mix.replacingOccurrences(of: "workload: cdbl-leave", with: "workload: cdbl"), line: 5, mentions: ["'mix[1].workload'", "cdbl"])
        assertError(mix.replacingOccurrences(of: "push_type: alert", with: "push_type: loud"), line: 8, mentions: ["'push_type'", "loud"])
        assertError("name: s\nworkload: cdbl-leave\nstream: s\ntemplate: t\nbundle_id: b\nmix: []\n", line: 6, mentions: ["'mix' goes with 'workload: mix'"])
    }

    func testTheConfigurationsRulesHoldForAMix() {
        // One part is no mix; coalescing needs every part to send Live Activity updates; broadcast one order-changes recording.
        let single = """
            name: m
            workload: mix
            mix:
              - {workload: leave-requests, stream: a.ndjson, template: a.json, bundle_id: com.example.a}

            """
        assertError(single, line: 4, mentions: ["'mix'", "between 2 and 8"])
        assertError(mix + "coalesce: 1s\n", line: 11, mentions: ["'coalesce'", "alert", "cdbl-leave"])
        assertError(mix + "delivery: broadcast\n", line: 11, mentions: ["'delivery'", "mix"])
    }
}
