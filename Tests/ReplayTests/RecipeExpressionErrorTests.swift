import APNsCore
import Foundation
@testable import Replay
import XCTest

/// Every mistake in an expression is refused when the recipe is loaded, naming the file, the line, the key
/// and the column in the expression, and saying what was expected there; the messages are asserted whole.
extension RecipeLoaderErrorTests {
    private static let fields = "      request_id: int\n      status: string\n      title: string\n      note: string?\n      count: int\n"
        + "      tags: '[string]'\n"

    /// The `status` event with a push rule whose line 23 is `extra`.
    private func rule(_ extra: String) -> String {
        recipe(fields: Self.fields, push: "    push:\n      to: {entity: request, key: request_id}\n      template: t.json\n" + extra)
    }

    private func assertWhen(_ expression: String, _ message: String, file f: StaticString = #filePath, line l: UInt = #line) {
        assertRefused(rule("      when: \"\(expression)\"\n"), line: 23, "'events.status.push.when' \(message), in \"\(expression)\"", file: f, line: l)
    }

    func testASingleEqualsSignSaysToCompareWithTwo() {
        assertWhen("status = 'x'", "column 8: '=' is not an operator: compare with '=='")
    }

    func testTextNeverClosedIsRefusedWhereItOpens() {
        assertWhen("status == 'x", "column 11: text opened with ' is never closed")
    }

    func testAnOperatorWithNothingAfterItWantsAValue() {
        assertWhen("count > ", "column 9: expected a value, found the end of the expression")
    }

    func testAnUnclosedParenthesisNamesWhereItOpened() {
        assertWhen("(count > 1", "column 11: expected ')' to close the '(' at column 1, found the end of the expression")
    }

    func testTwoValuesWithoutAnOperatorAreRefused() {
        assertWhen("count > 1 1", "column 11: expected an operator or the end, found number 1")
    }

    func testAnUnknownNameListsTheEventsFields() {
        assertWhen("stauts == 'x'", "column 1: names 'stauts', which is not a field of event 'status' (fields: request_id, status, title, note, count, tags)")
    }

    func testAConditionThatIsNotABoolIsRefused() {
        assertWhen("count", "column 1: a condition must be a bool (true or false), found int")
    }

    func testOrderingTextAgainstANumberIsRefused() {
        assertWhen("status > 1", "column 8: '>' orders two numbers, strings, bools, timestamps or durations, found string and int")
    }

    func testComparingTextWithANumberCanNeverBeEqual() {
        assertWhen("status == 1", "column 8: '==' compares string with int: they can never be equal")
    }

    func testAddingTextToANumberSaysHowToConvert() {
        assertWhen("count + 'x' == 'y'", "column 7: '+' does not apply to int and string; it takes two ints, two doubles, two strings, two lists, "
            + "or a timestamp and a duration or int seconds (convert with int(), double() or string())")
    }

    func testMixingIntsAndDoublesInArithmeticIsRefusedAsInCEL() {
        assertWhen("count * 1.5 > 2.0", "column 7: '*' does not apply to int and double; it takes two ints or two doubles (convert with int() or double())")
    }

    func testARemainderTakesInts() {
        assertWhen("count % 2.0 == 0.0", "column 7: '%' does not apply to int and double; it takes two ints")
    }

    func testNotTakesABool() {
        assertWhen("!count", "column 1: '!' takes a bool, found int")
    }

    func testAndTakesBools() {
        assertWhen("count && true", "column 7: '&&' takes bools, found int ('count')")
    }

    func testAFunctionOfTheWrongTypeSaysWhatItTakes() {
        assertWhen("size(count) > 1", "column 1: size() takes a string or a list, found int")
    }

    func testAnUnknownFunctionListsTheFunctions() {
        assertWhen("lower(status) == 'x'", "column 1: 'lower' is not a function (functions: has, size, int, double, string, timestamp, duration, startsWith, "
            + "endsWith, contains, join, format, filter, map, exists, all)")
    }

    func testHasTakesAFieldSelection() {
        assertWhen("has(status)", "column 1: has() takes one field selection, like has(order.status) or has(order.token)")
    }

    func testInNeedsAList() {
        assertWhen("count in 5", "column 7: 'in' needs a list on its right, found int")
    }

    func testInWithAListOfAnotherTypeCanNeverHold() {
        assertWhen("status in [1, 2]", "column 8: 'in' looks for string in a list of int: it can never be there")
    }

    func testAListHoldsOneType() {
        assertWhen("count in [1, 'a']", "column 10: a list holds one type: found int and string")
    }

    func testTheTwoResultsOfAConditionalHaveOneType() {
        assertWhen("(count > 1 ? 'a' : 2) == 'a'", "column 12: the two results of '? :' must have one type, found string and int")
    }

    func testRelationsDoNotChain() {
        assertWhen("1 < count < 3", "column 11: '<' cannot follow '<' without parentheses: relations do not chain")
    }

    func testAConditionCannotReadTheRecipient() {
        assertWhen("recipient.platform == 'ios'", "column 1: 'recipient.platform' is not known in a condition, "
            + "which is tested once per event before its recipients are known: filter them with 'to: {group: G, key: …, where: …}'")
    }

    func testANumberTooLargeForAnIntIsRefused() {
        assertWhen("count > 9223372036854775808", "column 9: 9223372036854775808 does not fit an int (64 bits)")
    }

    func testAnUnknownEscapeIsRefused() {
        assertRefused(rule(#"      when: "status == 'a\\q'""# + "\n"), line: 23,
                      #"'events.status.push.when' column 13: '\q' is not an escape (\\, \', \", \n, \t), in "status == 'a\q'""#)
    }

    func testAKeptFieldNothingSetsIsRefused() {
        assertWhen("request.tok == null", "column 1: names 'request.tok', which no event keeps on a request (kept: none)")
    }

    func testATimeComparedWithANumberIsRefused() {
        assertWhen("time > 5", "column 6: '>' orders two numbers, strings, bools, timestamps or durations, found timestamp and int")
    }

    func testAFilterGoesWithAGroup() {
        assertRefused(recipe(fields: Self.fields, push: "    push:\n      to: {entity: request, key: request_id, where: 'true'}\n      template: t.json\n"),
                      line: 21,
                      "'events.status.push.to.where' does not go with 'entity': 'to' is {token: FIELD}, "
                          + "{entity: E, key: FIELD}, {group: G, key: FIELD, where: EXPRESSION} or {groups: [{group: G, key: FIELD}, …]}")
    }

    func testAComputedPriorityMustBeAnInt() {
        assertRefused(rule("      priority: \"count > 1 ? 'high' : 'low'\"\n"), line: 23,
                      "'events.status.push.priority' column 1: must compute an int (10, 5 or 1), found string, in \"count > 1 ? 'high' : 'low'\"")
    }

    func testAComputedCollapseIDCannotBeAList() {
        assertRefused(rule("      collapse_id: {expr: \"tags + ['x']\"}\n"), line: 23,
                      "'events.status.push.collapse_id.expr' reads a list ([string]); 'collapse_id' takes one value")
    }

    func testAComputedExpirationInSecondsMustBeAnInt() {
        assertRefused(rule("      expiration_seconds: {expr: \"time + 600\"}\n"), line: 23,
                      "'events.status.push.expiration_seconds.expr' must compute an int: seconds after the run's start (an absolute time is 'expiration_at')")
    }

    func testASlotExpressionWithAMistakeNamesTheSlot() {
        assertRefused(rule("      slots: {title: \"'Request ' + request_id\"}\n"), line: 23,
                      "'events.status.push.slots.title' column 12: '+' does not apply to string and int; it takes two ints, two doubles, two strings, "
                          + "two lists, or a timestamp and a duration or int seconds (convert with int(), double() or string()), "
                          + "in \"'Request ' + request_id\"")
    }

    func testAnIntegerSlotFilledByATextExpressionIsRefused() throws {
        try #"{"aps":{"alert":{"title":"{{title}}","body":"{{status}}"}},"n":"{{#n}}"}"#.write(toFile: template, atomically: true, encoding: .utf8)
        assertRefused(rule("      slots: {n: \"string(count)\"}\n"), line: 23,
                      "'events.status.push.slots.n' fills integer slot 'n' of \(template) with a string value")
    }

    func testAnAbsoluteExpirationMustBeATime() {
        assertRefused(rule("      expiration_at: \"status + 'x'\"\n"), line: 23,
                      "'events.status.push.expiration_at' must be a time (like \"time + 600\") or int seconds since 1970")
    }

    func testAnAbsoluteExpirationDoesNotGoWithARelativeOne() {
        assertRefused(rule("      expiration_seconds: 60\n      expiration_at: \"time + 600\"\n"), line: 24,
                      "'events.status.push.expiration_at' does not go with 'expiration_seconds': give one expiration")
    }

    /// Found by the recipe fuzzer: YAML counts a lone carriage return as a line break, so a syntax error's
    /// line can be past the last `\n`-separated line; the message shows the last lines instead of crashing.
    func testASyntaxErrorPastTheLastNewlineIsAnErrorNotACrash() {
        let yaml = "recipe:\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r fuzafter_end:ons\nevents:\n  leave.created:\n    maa.created}\n"
            + "    fields: {request_id: int, sputring}\n    push:\n     id: int, sputring}\n    push:\n      when: \"has(request.toke] e + 600\"\n"
        XCTAssertThrowsError(try RecipeLoader.load(yaml: yaml, file: file)) { XCTAssertTrue($0 is ProfileError, "\($0)") }
    }
}
