import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// Each header a push may carry itself, read by a recipe from an event's field under its row's key, as `plan --out`
/// writes it and as the report's samples keep it: one recipe names every such row, so a new row is tested here once
/// its expectation is added.
final class HeaderRowsPlanTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try ScratchFolder.make("header-rows")
        try #"{"aps":{"alert":"hi"}}"#.write(to: dir.appendingPathComponent("alert.json"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { ScratchFolder.remove(dir) }

    /// By header name: the field's type and value on the event, and what the plan line says.
    private let expected: [String: (type: String, value: String, plan: String)] = [
        "apns-expiration": ("int?", "60", #","expiration_seconds":60"#),
        "apns-collapse-id": ("string?", #""order-7""#, #","collapse_id":"order-7""#),
        "apns-id": ("string?", #""123e4567-e89b-12d3-a456-426614174000""#, #","apns_id":"123e4567-e89b-12d3-a456-426614174000""#),
    ]
    /// By header name: what a report sample keeps of the push.
    private let inSamples: [String: String] = ["apns-id": "123e4567-e89b-12d3-a456-426614174000"]

    func testEveryRowAPushCarriesIsReadFromAFieldAndWrittenInThePlan() throws {
        let rows = APNsHeaders.perPush
        XCTAssertEqual(Set(expected.keys), Set(rows.map(\.name)), "every per-push row has its expectation here")
        let fields = rows.map { "h\($0.slot!): \(expected[$0.name]!.type)" }.joined(separator: ", ")
        let headers = rows.map { "      \($0.key): {from: h\($0.slot!)}" }.joined(separator: "\n")
        let yaml = """
            recipe: rows
            events:
              note:
                match: {kind: note}
                fields: {token: token, \(fields)}
                push:
                  to: {token: token}
                  template: alert.json
                  push_type: alert
            \(headers)
            """
        let file = dir.appendingPathComponent("r.yaml").path
        let recipe = try RecipeLoader.load(yaml: yaml, file: file)
        let token = String(repeating: "ab", count: 32)
        let values = rows.map { #""h\#($0.slot!)":\#(expected[$0.name]!.value)"# }.joined(separator: ",")
        let ledger = try WorkloadLedger.replay(recipe, lines: [#"{"at":"2025-01-01T00:00:00Z","kind":"note","token":"\#(token)",\#(values)}"#,
                                                               #"{"at":"2025-01-01T00:00:01Z","kind":"note","token":"\#(token)"}"#], for: self)
        XCTAssertEqual(ledger.sent.count, 2)

        let config = RunConfig(name: "rows", profilePath: "p.yaml",
                               workload: .init(name: "rows", stream: "rows.ndjson", recipe: "r.yaml", bundleID: "com.example.rows"))
        let path = dir.appendingPathComponent("plan.ndjson").path
        let writer = try PlanLineWriter(path: path, config: config, recipes: [recipe], showTokens: true)
        for (i, sent) in ledger.sent.enumerated() {
            var push = OutgoingPush()
            push.deviceToken = sent.token
            push.kind = sent.kind
            push.body = Array(sent.body.utf8)
            push.headers = sent.headers
            try writer.write(n: i + 1, origin: PushOrigin(line: i + 1, kind: "note", stream: "rows.ndjson"), push: push, result: .push)
            let kept = ContractFindings.Sample.headers(of: push)
            XCTAssertEqual(kept ?? [:], i == 0 ? inSamples : [:], "a sample keeps the rows marked for it, when the push has a value")
        }
        try writer.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let own = rows.map { expected[$0.name]!.plan }.joined()
        XCTAssertTrue(lines[0].contains(#","priority":10\#(own),"payload":"#), lines[0])
        XCTAssertTrue(lines[1].contains(#","priority":10,"payload":"#), "absent values write no key: \(lines[1])")
    }
}
