import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// `PlanLineWriter`'s lines read back: a push's own collapse id (bytes, not a `String`) is escaped as every
/// other string of the line.
final class PlanLineWriterTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try ScratchFolder.make("plan-line-writer")
        try #"{"aps":{"alert":"{{note}}"}}"#.write(to: dir.appendingPathComponent("alert.json"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { ScratchFolder.remove(dir) }

    private static let recipe = """
        recipe: notes
        events:
          note:
            match: {kind: note}
            fields: {token: token, note: string}
            push:
              to: {token: token}
              template: alert.json
              push_type: alert
              collapse_id: "note-{{note}}"
        """

    func testAPushsOwnCollapseIDIsAJSONStringWithItsEscapes() throws {
        let recipe = try RecipeLoader.load(yaml: Self.recipe, file: dir.appendingPathComponent("r.yaml").path)
        guard case let .fixed(kind) = recipe.events[0].pushes[0].kind else { return XCTFail("one push kind") }
        XCTAssertTrue(recipe.pushKinds[Int(kind)].perPush.contains(APNsHeaders.collapseID))
        let config = RunConfig(name: "notes", profilePath: "p.yaml",
                               workload: .init(name: "notes", stream: "notes.ndjson", recipe: "r.yaml", bundleID: "com.example.notes"))
        let path = dir.appendingPathComponent("plan.ndjson").path
        let writer = try PlanLineWriter(path: path, config: config, recipes: [recipe], showTokens: true)
        let ids = ["plain-1", "q\"b\\s/\u{1}\t é 🎓"]
        for (i, id) in ids.enumerated() {
            var push = OutgoingPush()
            push.deviceToken = String(repeating: "ab", count: 32)
            push.kind = kind
            push.body = Array(#"{"aps":{}}"#.utf8)
            push.headers.update(APNsHeaders.collapseID) { $0.text = Array(id.utf8) }
            try writer.write(n: i + 1, origin: PushOrigin(line: i + 1, kind: "note", stream: "notes.ndjson"), push: push, result: .push)
        }
        try writer.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, ids.count)
        XCTAssertTrue(lines[1].contains(#","collapse_id":"q\"b\\s/\u0001\u0009 é 🎓","#), String(lines[1]))
        for (line, id) in zip(lines, ids) {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            XCTAssertEqual(object["collapse_id"] as? String, id)
        }
    }
}
