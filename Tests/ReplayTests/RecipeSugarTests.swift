import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// The mapping form of `when:` is sugar: each test is expanded at load into the expression it means, which
/// is compiled and evaluated like any other (its text asserted whole here); a test whose meaning could not be
/// kept is refused with the expression to write instead.
final class RecipeSugarTests: RecipeScratchCase {
    override var templates: [String: String] { ["t.json": #"{"aps":{"alert":{"title":"{{status}}"}}}"#] }

    private func recipe(_ when: String, slot: String = "status") -> String {
        """
        recipe: sugar
        events:
          created:
            match: {kind: created}
            fields: {delivery_id: string, token: token, courier: string}
            create: delivery
            key: delivery_id
            token: token
            set: [courier]
          status:
            match: {kind: status}
            fields:
              delivery_id: string
              status: {type: string, one_of: [moving, near, delivered]}
              stops: int?
              ratio: number?
              late: bool
              note: string?
              tags: "[string]"
            push:
              to: {entity: delivery, key: delivery_id}
              template: t.json
              when: \(when)
              slots: {status: \(slot)}
        """
    }

    /// The expression `when` (the mapping form, as YAML flow) expands to.
    private func expansion(_ when: String, file f: StaticString = #filePath, line l: UInt = #line) throws -> String {
        let r = try RecipeLoader.load(yaml: recipe(when), file: file)
        return try XCTUnwrap(r.events[1].pushes[0].when, file: f, line: l).compiled.text
    }

    func testEachTestExpandsToTheExpressionItMeans() throws {
        let cases: [(String, String)] = [
            ("{status: near}", "status == 'near'"),
            ("{status: {equals: near}}", "status == 'near'"),
            ("{status: {one_of: [moving, delivered]}}", "status in ['moving', 'delivered']"),
            ("{status: {one_of: [near]}}", "status == 'near'"),
            ("{status: {not: delivered}}", "status != 'delivered'"),
            ("{status: {not: [moving, delivered]}}", "!(status in ['moving', 'delivered'])"),
            ("{stops: {present: true}}", "stops != null"),
            ("{stops: {present: false}}", "stops == null"),
            ("{stops: {absent: true}}", "stops == null"),
            ("{stops: 3}", "stops == 3"),
            ("{stops: null}", "stops == null"),
            ("{stops: {gt: 1}}", "stops != null && stops > 1"),
            ("{stops: {le: 5, ge: 2}}", "(stops != null && stops <= 5) && (stops != null && stops >= 2)"),
            ("{ratio: {lt: 0.5}}", "ratio != null && ratio < 0.5"),
            ("{ratio: 2}", "ratio == 2"),
            ("{late: true}", "late == true"),
            ("{note: 5}", "note == '5'"),
            ("{note: \"it's\"}", "note == 'it\\'s'"),
            ("{stops: {one_of: [1, 2.5]}}", "stops == 1 || stops == 2.5"),
            ("{stops: '7'}", "stops == 7"),
            ("{stops: {not: [1, two]}}", "!(stops == 1 || (stops != null && string(stops) == 'two'))"),
            ("{delivery.courier: Sam, status: moving}", "delivery.courier == 'Sam' && status == 'moving'"),
            ("{any: [{status: delivered}, {stops: {le: 1}}]}", "status == 'delivered' || (stops != null && stops <= 1)"),
            ("{all: [{status: near}, \"stops == 2 || late\"]}", "status == 'near' && (stops == 2 || late)"),
            ("{tags: null}", "tags == null"),
        ]
        for (form, expression) in cases {
            XCTAssertEqual(try expansion(form), expression, form)
        }
    }

    func testAListComparedWithOneValueIsRetiredWithTheExpressionToWrite() {
        XCTAssertThrowsError(try RecipeLoader.load(yaml: recipe("{tags: vip}"), file: file)) { error in
            XCTAssertEqual("\(error)", "\(self.file):23: 'events.status.push.when.tags' compares the list 'tags' with one value, which is never equal: "
                + "test membership with an expression, like when: \"'vip' in tags\"")
        }
    }

    /// The expression a value source (YAML flow) filling the `status` slot expands to.
    private func slotExpansion(_ source: String, file f: StaticString = #filePath, line l: UInt = #line) throws -> String {
        let r = try RecipeLoader.load(yaml: recipe("\"true\"", slot: source), file: file)
        guard case let .expression(x) = r.events[1].pushes[0].slots[0].source else {
            XCTFail("not an expression: \(r.events[1].pushes[0].slots[0].source)", file: f, line: l)
            return ""
        }
        return x.compiled.text
    }

    func testATableExpandsToConditionalsComparingTheValueAsText() throws {
        let cases: [(String, String)] = [
            ("{from: status, map: {near: soon, delivered: here}, default: away}", "status == 'near' ? 'soon' : (status == 'delivered' ? 'here' : 'away')"),
            ("{from: note, map: {x: y}}", "note == 'x' ? 'y' : note"),
            ("{from: stops, map: {1: one, 2: two}, default: many}", "stops == 1 ? 'one' : (stops == 2 ? 'two' : 'many')"),
            ("{from: \"note + '!'\", map: {'x!': y}, default: null}", "(note + '!') == 'x!' ? 'y' : null"),
            ("{from: delivery.courier, map: {Sam: S}}", "delivery.courier == 'Sam' ? 'S' : delivery.courier"),
        ]
        for (form, expression) in cases {
            XCTAssertEqual(try slotExpansion(form), expression, form)
        }
    }

    func testATableWhoseResultsDifferInTypeIsRefusedShowingItsExpression() {
        XCTAssertThrowsError(try RecipeLoader.load(yaml: recipe("\"true\"", slot: "{from: stops, map: {1: one}}"), file: file)) { error in
            XCTAssertEqual("\(error)", "\(self.file):24: 'events.status.push.slots.status' column 12: the two results of '? :' must have one type, "
                + "found string and int, in \"stops == 1 ? 'one' : stops\"")
        }
    }

    func testAConstantADefaultAndAnEmptyValueExpandToTheExpressionsTheyMean() throws {
        let cases: [(String, String)] = [
            ("{const: soon}", "'soon'"),
            ("{const: 7}", "7"),
            ("{from: note, default: none}", "note != null ? note : 'none'"),
            ("{from: stops, default: 0}", "stops != null ? stops : 0"),
            ("{from: note, absent: empty}", "note != null ? note : ''"),
            ("{from: \"note + '!'\", default: none}", "(note + '!') != null ? (note + '!') : 'none'"),
            ("{expr: \"note + '!'\", absent: empty}", "(note + '!') != null ? (note + '!') : ''"),
            ("{from: delivery.courier, default: nobody}", "delivery.courier != null ? delivery.courier : 'nobody'"),
            // A relation walk from any field, which no name of an expression writes, is bound to `value`.
            ("{via: [delivery_id, delivery.courier], default: nobody}", "value != null ? value : 'nobody'"),
        ]
        for (form, expression) in cases {
            XCTAssertEqual(try slotExpansion(form), expression, form)
        }
    }

    func testAJoinExpandsToTheListOfItsPresentPartsJoined() throws {
        let present = "[note, delivery.courier].filter(p, p != null && p != '')"
        let cases: [(String, String)] = [
            ("{join: [note, delivery.courier], separator: ' '}", "size(\(present)) > 0 ? \(present).join(' ') : null"),
            ("{join: [note, delivery.courier], if_empty: status}", "size(\(present)) > 0 ? \(present).join('') : status"),
            ("{join: [note, stops, {const: x}], separator: ', ', if_empty: {const: none}}",
             "size([note, (stops != null ? string(stops) : null), ('x')].filter(p, p != null && p != '')) > 0 ? "
                + "[note, (stops != null ? string(stops) : null), ('x')].filter(p, p != null && p != '').join(', ') : ('none')"),
        ]
        for (form, expression) in cases {
            XCTAssertEqual(try slotExpansion(form), expression, form)
        }
    }

    func testADefaultOfAnotherTypeIsRefusedShowingTheExpressionToWrite() {
        XCTAssertThrowsError(try RecipeLoader.load(yaml: recipe("\"true\"", slot: "{from: stops, default: none}"), file: file)) { error in
            XCTAssertEqual("\(error)", "\(self.file):24: 'events.status.push.slots.status.default' is string, but 'stops' is int: "
                + "write the value as one type, like {expr: \"stops != null ? string(stops) : 'none'\"}")
        }
    }

    func testAnExpandedTestIsAnExpression() throws {
        // An expression and the mapping form it is written as compile to the same text, so to one evaluation.
        XCTAssertEqual(try expansion("\"status == 'near'\""), try expansion("{status: near}"))
    }
}
