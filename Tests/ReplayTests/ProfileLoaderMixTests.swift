import APNsCore
@testable import Replay
import TestSupport
import XCTest

/// `workload: mix`: parts read strictly, each error naming the file, the line and the key.
final class ProfileLoaderMixTests: XCTestCase {
    let mix = """
        name: m
        workload: mix
        mix:
          - {recipe: recipes/leave-requests.yaml, stream: a.ndjson, push_type: liveactivity, bundle_id: com.example.a}
          - workload: cdbl-leave
            stream: /data/b.ndjson
            recipe: recipes/cdbl-leave.yaml
            push_type: alert
            bundle_id: com.example.b
        priority: 5

        """

    /// The profile is read as if it were in the repository's profiles/ folder, so that its parts' relative
    /// `recipe:` paths reach the shipped recipes.
    static let profile = RepoFiles.path("profiles/p.yaml")

    func parse(_ yaml: String) throws -> RunConfig { try ProfileLoader.parse(yaml: yaml, file: Self.profile) }

    func assertError(_ yaml: String, line: Int?, mentions words: [String], file: StaticString = #filePath, l: UInt = #line) {
        XCTAssertThrowsError(try parse(yaml), file: file, line: l) { error in
            guard let e = error as? ProfileError else { return XCTFail("not a ProfileError: \(error)", file: file, line: l) }
            XCTAssertEqual(e.line, line, "\(e)", file: file, line: l)
            for w in words { XCTAssertTrue("\(e)".contains(w), "'\(e)' should mention \(w)", file: file, line: l) }
        }
    }

    func testPartsAreReadWithTheirOwnStreamRecipePushTypeAndTopic() throws {
        let c = try parse(mix)
        XCTAssertEqual(c.workload.name, "mix")
        XCTAssertEqual(c.workload.label, "mix(leave-requests+cdbl-leave)")
        let parts = c.workload.parts
        XCTAssertEqual(parts.map(\.name), ["leave-requests", "cdbl-leave"])
        XCTAssertEqual(parts.map(\.stream), [RepoFiles.path("profiles/a.ndjson"), "/data/b.ndjson"], "relative paths from the profile's folder")
        XCTAssertEqual(parts.map(\.recipe), [RepoFiles.path("profiles/recipes/leave-requests.yaml"), RepoFiles.path("profiles/recipes/cdbl-leave.yaml")])
        XCTAssertEqual(parts.map(\.topic), ["com.example.a.push-type.liveactivity", "com.example.b"])
        XCTAssertNil(c.workload.commonPushType, "two push types")
        XCTAssertTrue(c.sendsLiveActivities)
        XCTAssertEqual(c.liveActivityBudgetPerHour, 10, "one part sends Live Activity updates")
        XCTAssertEqual(c.payload.priority, .powerAware, "the profile's other keys apply to every part")
        XCTAssertEqual(try parse(mix + "bad_lines: stop\n").workload.parts.map(\.badLines), [.stop, .stop], "every part reads by the profile's policy")
        // A single workload is its own one part.
        let one = try parse("name: o\nrecipe: recipes/cdbl-leave.yaml\nstream: s\nbundle_id: b\npush_type: alert\n")
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
        assertError(mix.replacingOccurrences(of: "recipe: recipes/leave-requests.yaml, ", with: ""), line: 4, mentions: ["'mix[0]' is missing 'recipe'"])
        assertError(mix.replacingOccurrences(of: "workload: cdbl-leave", with: "workload: cdbl"), line: 5,
                    mentions: ["'mix[1].workload' is 'cdbl', but its recipe \(RepoFiles.recipe("cdbl-leave")) is 'cdbl-leave'"])
        assertError(mix.replacingOccurrences(of: "push_type: alert", with: "push_type: loud"), line: 8, mentions: ["'push_type'", "loud"])
        assertError("name: s\nworkload: cdbl-leave\nstream: s\nrecipe: recipes/cdbl-leave.yaml\nbundle_id: b\nmix: []\n", line: 6,
            mentions: ["'mix' goes with 'workload: mix'"])
    }

    func testTheConfigurationsRulesHoldForAMix() {
        // One part is no mix; coalescing needs every part to send Live Activity updates; broadcast one order-changes recording.
        let single = """
            name: m
            workload: mix
            mix:
              - {recipe: recipes/leave-requests.yaml, stream: a.ndjson, bundle_id: com.example.a}

            """
        assertError(single, line: 4, mentions: ["'mix'", "between 2 and 8"])
        assertError(mix + "coalesce: 1s\n", line: 11, mentions: ["'coalesce'", "alert", "cdbl-leave"])
        assertError(mix + "delivery: broadcast\n", line: 11, mentions: ["'delivery'", "mix"])
    }
}
