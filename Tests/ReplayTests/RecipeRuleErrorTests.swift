import APNsCore
import Foundation
@testable import Replay
import XCTest

/// The mistakes a recipe's push rules, conditions, relations and field types can hold, each refused when the
/// recipe is loaded with the file, the line and the key; the messages are asserted whole.
extension RecipeLoaderErrorTests {
    private func push(_ extra: String) -> String {
        "    push:\n      to: {entity: request, key: request_id}\n      template: t.json\n" + extra
    }

    func testAConditionOnAFieldTheEventDoesNotHaveNamesTheEventsFields() {
        assertRefused(recipe(push: push("      when: {stauts: ok}\n")), line: 20,
                      "'events.status.push.when.stauts' names 'stauts', which is not a field of event 'status' (fields: request_id, status, title)")
    }

    func testANumericComparisonOfATextFieldIsRefused() {
        assertRefused(recipe(push: push("      when: {status: {gt: 3}}\n")), line: 20,
                      "'events.status.push.when.status.gt' compares 'status', a string field, with a number: gt goes with an int or a number")
    }

    func testAnUnknownTestIsRefusedWithTheKnownOnes() {
        assertRefused(recipe(push: push("      when: {status: {is: ok}}\n")), line: 20,
                      "'events.status.push.when.status.is' is not a known key (known: present, absent, equals, one_of, not, gt, ge, lt, le)")
    }

    func testAConditionOnAValueTheFieldNeverHasIsRefused() {
        assertRefused(recipe(fields: "      request_id: int\n      status: {type: string, one_of: [ok, late]}\n      title: string\n",
                             push: push("      when: {status: okay}\n")), line: 20,
                      "'events.status.push.when.status' can never hold: 'okay' is not one of the values 'status' allows (ok, late)")
    }

    func testAConditionOnTheRecipientIsRefused() {
        assertRefused(recipe(push: push("      when: {recipient.x: 1}\n")), line: 20,
                      "'events.status.push.when.recipient.x' reads the recipient, but a condition is tested once per event, before its recipients are known")
    }

    func testAnEmptyConditionIsRefused() {
        assertRefused(recipe(push: push("      when: {}\n")), line: 20,
                      "'events.status.push.when' tests nothing: give {FIELD: VALUE}, {FIELD: {one_of: […]}}, all: […] or any: […]")
    }

    func testARelationToAFieldNoEventKeepsIsRefused() {
        assertRefused(recipe(push: push("      slots: {title: request.nope}\n")), line: 20,
                      "'events.status.push.slots.title' names 'request.nope', which no event keeps on a request (kept: none)")
    }

    func testARelationHopThatNamesNoEntityIsRefused() {
        assertRefused(recipe(push: push("      slots: {title: {via: [request_id, requests.title]}}\n")), line: 20,
                      "'events.status.push.slots.title.via[1]' must be ENTITY.FIELD, an entity and a field kept on it (entities: request); "
                          + "found 'requests.title'")
    }

    func testARelationFromAnEventWithoutTheEntitysKeyIsRefused() {
        let yaml = recipe(fields: "      rid: int\n      status: string\n      title: string\n",
                          push: "    push:\n      to: {entity: request, key: request.status}\n      template: t.json\n")
            .replacingOccurrences(of: "    token: token\n  status:", with: "    token: token\n    set: [status]\n  status:")
            .replacingOccurrences(of: "      token: string\n", with: "      token: string\n      status: string\n")
        assertRefused(yaml, line: 20,
                      "'events.status.push.to.key' reads 'request.status', but event 'status' has no field naming a request (its key: request_id): "
                          + "say which field does, {via: [FIELD, request.status]}")
    }

    func testTwoPushRulesOfOneNameAreRefused() {
        let rules = "    push:\n      - name: a\n        to: {entity: request, key: request_id}\n        template: t.json\n"
            + "      - name: a\n        to: {entity: request, key: request_id}\n        template: t.json\n"
        assertRefused(recipe(push: rules), line: 21,
                      "'events.status.push[1]' is named 'a' like an earlier push rule of event 'status': each rule's name is its own")
    }

    func testAnEmptyListOfPushRulesIsRefused() {
        assertRefused(recipe(push: "    push: []\n"), line: 17,
                      "'events.status.push' lists no push rule (leave 'push:' out for an event that plans none)")
    }

    func testANullableOptionalFieldIsRefused() {
        assertRefused(recipe(fields: "      request_id: int\n      status: {type: string?, nullable: true}\n      title: string\n"), line: 15,
                      "'events.status.fields.status.nullable' goes with a required type: 'string?' may be absent; 'nullable: true' must be present, "
                          + "null allowed")
    }

    func testAMistakeInARecipeWrittenInAProfileNamesTheProfileAndTheKey() {
        let profile = "name: small\nstream: s.ndjson\n" + recipe().replacingOccurrences(of: "recipe: small\n", with: "")
            .split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { $0.offset == 0 ? "recipe:\n  " + $0.element : "  " + $0.element }.joined(separator: "\n")
            .replacingOccurrences(of: "template: t.json", with: "template: nope.json")
        do {
            _ = try RecipeLoader.load(yaml: profile, file: file, inlineAt: "recipe")
            XCTFail("loaded")
        } catch let e as ProfileError {
            XCTAssertEqual(e.file, file)
            XCTAssertEqual(e.line, 21)
            XCTAssertTrue(e.message.hasPrefix("'recipe.events.status.push.template' cannot read \(dir.appendingPathComponent("nope.json").path)"), e.message)
        } catch {
            XCTFail("\(error)")
        }
    }

    func testARecipeWrittenInAProfileLoadsWithTheProfilesName() throws {
        let profile = "name: small-inline\nstream: s.ndjson\nrecipe:\n"
            + recipe().replacingOccurrences(of: "recipe: small\n", with: "").split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        let r = try RecipeLoader.load(yaml: profile, file: file, inlineAt: "recipe")
        XCTAssertEqual(r.name, "small-inline")
        XCTAssertEqual(r.events.map(\.name), ["created", "status"])
        XCTAssertEqual(RecipeLoader.split(RecipeLoader.inlinePath("/p/x.yaml", key: "mix[1].recipe")).key, "mix[1].recipe")
    }
}
