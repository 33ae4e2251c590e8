import APNsCore
import Foundation
@testable import Replay
import XCTest

/// Every mapping form of a recipe takes only its own keys, in the combinations its declaration
/// (``RecipeForms``) allows: anything else, an empty test and a condition that can never hold are refused
/// with the file, the line and the key; the messages are asserted whole.
extension RecipeLoaderErrorTests {
    private func push(_ extra: String, to: String = "{entity: request, key: request_id}") -> String {
        "    push:\n      to: \(to)\n      template: t.json\n" + extra
    }

    private static let toShape = "{token: FIELD}, {entity: E, key: FIELD}, {group: G, key: FIELD, where: EXPRESSION} or {groups: [{group: G, key: FIELD}, …]}"
    private static let testShape = "{equals: V}, {one_of: […]}, {not: V}, {present: true}, {absent: true}, or gt/ge/lt/le: N"

    func testAnEmptyTestIsRefused() {
        assertRefused(recipe(push: push("      when: {status: {}}\n")), line: 20,
                      "'events.status.push.when.status' is empty: a test is \(Self.testShape)")
    }

    func testAnEmptyOneOfAllOrAnyIsRefused() {
        assertRefused(recipe(push: push("      when: {status: {one_of: []}}\n")), line: 20,
                      "'events.status.push.when.status.one_of' lists no value: the test can never hold")
        assertRefused(recipe(push: push("      when: {any: []}\n")), line: 20, "'events.status.push.when.any' lists no condition")
        assertRefused(recipe(push: push("      when: {all: []}\n")), line: 20, "'events.status.push.when.all' lists no condition")
    }

    func testAConditionThatCanNeverHoldIsRefused() {
        assertRefused(recipe(push: push("      when: {request_id: {gt: 5, lt: 3}}\n")), line: 20,
                      "'events.status.push.when.request_id' can never hold: no number is gt 5 and lt 3")
        assertRefused(recipe(push: push("      when: {request_id: {ge: 5, lt: 5}}\n")), line: 20,
                      "'events.status.push.when.request_id' can never hold: no number is ge 5 and lt 5")
        assertRefused(recipe(push: push("      when: {status: {one_of: [a, b], not: [a, b]}}\n")), line: 20,
                      "'events.status.push.when.status.one_of' can never hold: 'not' excludes every value of 'one_of'")
        assertRefused(recipe(push: push("      when: {status: {equals: a, not: a}}\n")), line: 20,
                      "'events.status.push.when.status.equals' can never hold: 'not' excludes 'a'")
        assertRefused(recipe(push: push("      when: {status: {present: true, equals: a}}\n")), line: 20,
                      "'events.status.push.when.status.equals' does not go with 'present': a test is \(Self.testShape)")
    }

    func testARecipientWithTwoKindsIsRefused() {
        assertRefused(recipe(push: push("", to: "{entity: request, group: customers, key: request_id}")), line: 18,
                      "'events.status.push.to.group' does not go with 'entity': 'to' is \(Self.toShape)")
        assertRefused(recipe(push: push("", to: "{token: title, entity: request}")), line: 18,
                      "'events.status.push.to.entity' does not go with 'token': 'to' is \(Self.toShape)")
        assertRefused(recipe(push: push("", to: "{token: title, key: request_id}")), line: 18,
                      "'events.status.push.to.key' does not go with 'token': 'to' is \(Self.toShape)")
        assertRefused(recipe(push: push("", to: "{key: request_id}")), line: 18, "'events.status.push.to' must be \(Self.toShape)")
    }

    func testAValueSourceWithTwoKindsOrAKeyOfAnotherIsRefused() {
        let shape = "a field name, an expression, or {expr: …}, {const: …}, {from: …, map: …, default: …}, {via: [FIELD, ENTITY.FIELD, …]} or {join: […]}"
        assertRefused(recipe(push: push("      slots: {title: {const: x, from: title}}\n")), line: 20,
                      "'events.status.push.slots.title.from' does not go with 'const': a value source is \(shape)")
        assertRefused(recipe(push: push("      slots: {title: {from: title, separator: \"-\"}}\n")), line: 20,
                      "'events.status.push.slots.title.separator' does not go with 'from': a value source is \(shape)")
    }

    func testAHeaderValueTakesOnlyItsKeys() {
        assertRefused(recipe(push: push("      collapse_id: {from: title, separator: x}\n")), line: 20,
                      "'events.status.push.collapse_id.separator' is not a known key (known: from, map, default, expr)")
    }

    func testAFieldRuleThatBothRefusesAndAbsentsAnEmptyValueIsRefused() {
        assertRefused(recipe(fields: "      request_id: int\n      status: {type: string, non_empty: true, empty_is_absent: true}\n      title: string\n"),
                      line: 15, "'events.status.fields.status.empty_is_absent' does not go with 'non_empty': "
                          + "an empty value cannot be both a bad line and absent")
        assertRefused(recipe(fields: "      request_id: int\n      status: {type: string, one_of: []}\n      title: string\n"),
                      line: 15, "'events.status.fields.status.one_of' lists no value: no line could give this field")
    }

    func testAMisspelledKeyGetsTheClosestKnownOne() {
        assertRefused(recipe(push: "    push:\n      to: {entity: request, key: request_id}\n      templte: t.json\n"), line: 19,
                      "'events.status.push.templte' is not a known key (known: name, when, to, template, push_type, topic, priority, live_activity_event, "
                        + "expiration, expiration_seconds, expiration_at, collapse_id, slots, remember, after_end, apns_id); did you mean 'template'?")
        assertRefused(recipe(push: push("", to: "{entity: request, kye: request_id}")), line: 18,
                      "'events.status.push.to.kye' is not a known key (known: token, entity, key, group, if_absent, where, groups); did you mean 'key'?")
    }
}
