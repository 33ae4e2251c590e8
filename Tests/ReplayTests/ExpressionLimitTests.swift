import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// An expression of any size is loaded or refused, never a crash: a flat chain of operators is one node
/// evaluated by a loop, the tree nests at most 64 levels of any kind, and it has at most 50,000 terms and
/// operators. Each refusal names the file, the line, the column and the limit.
extension RecipeLoaderErrorTests {
    /// The `status` event's push rule with `when:` (line 21) and a `title` slot from `slot`.
    private func rule(when: String, slot: String = "title") -> String {
        recipe(fields: "      request_id: int\n      status: string\n      title: string\n      count: int\n",
               push: "    push:\n      to: {entity: request, key: request_id}\n      template: t.json\n      when: \"\(when)\"\n"
                   + "      slots:\n        title: \"\(slot)\"\n")
    }

    private func chain(_ first: String, _ link: String, _ terms: Int) -> String {
        first + String(repeating: link, count: terms - 1)
    }

    func testATenThousandTermConditionLoadsAndHoldsWhereItCrashedTheLoader() throws {
        let recipe = try RecipeLoader.load(yaml: rule(when: chain("count > 0", " && true", 10_000)), file: file)
        let rules = RecipeRules(recipe, priority: .immediate)
        XCTAssertEqual(try plan(rules, #"{"kind":"created","request_id":1,"token":"\#(String(repeating: "ab", count: 32))"}"#, line: 1), 0)
        XCTAssertEqual(try plan(rules, #"{"kind":"status","request_id":1,"status":"s","title":"t","count":2}"#, line: 2), 1)
        XCTAssertEqual(try plan(rules, #"{"kind":"status","request_id":1,"status":"s","title":"t","count":0}"#, line: 3), 0)
    }

    func testATenThousandTermSumInASlotLoadsAndAddsUp() throws {
        let names = TestExprNames([("n", .int, false, .int(3))])
        let sum = try CompiledExpr.compile(chain("n", " + n - 1", 10_000), names: names)
        XCTAssertEqual(try sum.evaluate(names), .int(3 + 9_999 * 2))
        let failing = try CompiledExpr.compile("n / 0" + String(repeating: " + n", count: 10_000), names: names)
        XCTAssertThrowsError(try failing.evaluate(names)) { XCTAssertEqual($0 as? ExprFault, ExprFault(column: 3, message: "division by zero")) }
    }

    func testAHundredThousandTermChainIsRefusedAtTheLimit() {
        let text = chain("count > 0", " && true", 100_000)
        guard let e = refusal(rule(when: text)) else { return }
        XCTAssertEqual(e.description, "\(file):21: 'events.status.push.when' column 199998: has more than 50000 terms and operators, "
            + "the limit of one expression: split it, in \"count > 0 && true && true && true && true && true && true &&… (800001 characters)\"")
    }

    func testNestingIsLimitedOverEveryKindOfNode() {
        let calls = "title" + String(repeating: ".size().string()", count: 40) + " == ''"
        assertRefused(rule(when: calls), line: 21, "'events.status.push.when' column 510: nests deeper than 64 levels, "
                      + "in \"title.size().string().size().string().size().string().size()… (651 characters)\"")
        let brackets = String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + " == []"
        assertRefused(rule(when: brackets), line: 21, "'events.status.push.when' column 65: nests deeper than 64 levels, in \"\(brackets)\"")
    }

    private func plan(_ rules: RecipeRules, _ json: String, line: Int) throws -> Int {
        let fields = try FlatJSON.parse(json, line: line)
        let kind = try fields.optionalString("kind") ?? ""
        return try rules.apply(StreamRecord(line: line, at: Int64(line) * 1000, kind: kind, fields: fields))
    }
}

/// A type is known before a value is used: `[]` takes its type from the list it meets, or is refused; a
/// entity recipient's key that is a list is refused, naming the group form.
extension RecipeLoaderErrorTests {
    private func typed(fields: String = "", slot: String = "title", key: String = "request_id") -> String {
        recipe(fields: "      request_id: int\n      status: string\n      title: string\n      tags: '[string]'\n" + fields,
               push: "    push:\n      to: {entity: request, key: \(key)}\n      template: t.json\n      slots:\n        title: \"\(slot)\"\n")
    }

    func testAnEmptyListOfNoKnownTypeIsRefused() {
        assertRefused(typed(slot: "[]"), line: 22, "'events.status.push.slots.title' column 1: '[]' is a list of no known type here: it takes "
            + "its type from the list it meets, as in 'c ? [] : tags' or 'tags + []', in \"[]\"")
    }

    func testAnEmptyListTakesTheTypeOfTheListItMeets() throws {
        let names = TestExprNames([("tags", .list(.string), false, .list([.string("a")])), ("c", .bool, false, .bool(true))])
        XCTAssertEqual(try CompiledExpr.compile("c ? [] : tags", names: names).type, .list(.string))
        XCTAssertEqual(try CompiledExpr.compile("tags + []", names: names).type, .list(.string))
        XCTAssertEqual(try CompiledExpr.compile("size([]) == 0 && !('a' in [])", names: names).type, .bool)
    }

    func testAListRecipientKeyIsRefusedNamingIt() {
        assertRefused(typed(key: "tags"), line: 19, "'events.status.push.to.key' reads 'tags', a list of string: an entity recipient's key "
            + "is one value; a list of keys fans out over a group (to: {group: G, key: LIST}), whose members each get one push")
    }
}
