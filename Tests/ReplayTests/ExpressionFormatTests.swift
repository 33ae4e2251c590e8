@testable import Replay
import XCTest

/// `FORMAT.format([values])`: each verb's text, and a constant format's mistakes refused at compile time.
final class ExpressionFormatTests: XCTestCase {
    private let names = TestExprNames([
        ("cents", .int, false, .int(123_456)),
        ("rate", .double, false, .double(0.0425)),
        ("currency", .string, false, .string("EUR")),
        ("pattern", .string, false, .string("%d items")),
        ("bad", .string, false, .string("%q")),
        ("note", .string, true, .null),
        ("count", .int, true, .null),
        ("amounts", .list(.int), false, .list([.int(3), .int(4)])),
        ("tags", .list(.string), false, .list([.string("a")])),
        ("time", .timestamp, false, .timestamp(1_700_000_000_000)),
    ])

    private func eval(_ text: String) throws -> ExprValue { try names.evaluate(text) }
    private func refused(_ text: String) -> ExprError? { names.refusal(text) }
    private func fault(_ text: String) -> ExprFault? { names.fault(text) }

    func testACurrencyAmountIsOneExpression() throws {
        XCTAssertEqual(try eval("'%.2f'.format([double(cents) / 100.0])"), .string("1234.56"))
        XCTAssertEqual(try eval("'%s %.2f'.format([currency, double(cents) / 100.0])"), .string("EUR 1234.56"),
                       "a literal's values each keep their own type")
    }

    func testEveryVerb() throws {
        XCTAssertEqual(try eval("'%d|%s|%s|%s'.format([cents, currency, [1, 2], time])"), .string("123456|EUR|[1, 2]|2023-11-14T22:13:20Z"))
        XCTAssertEqual(try eval("'%f|%.1f|%.0f|%f'.format([rate, 2.25, 2.5, 3])"), .string("0.042500|2.2|2|3.000000"))
        XCTAssertEqual(try eval("'%e|%.2e'.format([rate, 1234.5])"), .string("4.250000e-02|1.23e+03"))
        XCTAssertEqual(try eval("'%x|%X|%o|%b'.format([255, 255, 8, 5])"), .string("ff|FF|10|101"))
        XCTAssertEqual(try eval("'100%% of %s'.format([note])"), .string("100% of null"))
        XCTAssertEqual(try eval("'%.1f'.format([1.0 / 0.0])"), .string("Infinity"))
        XCTAssertEqual(try eval("'%d and %d'.format(amounts)"), .string("3 and 4"))
        XCTAssertEqual(try eval("format('%d', [cents])"), .string("123456"), "called as a function too")
    }

    func testAConstantFormatsMistakesAreRefusedAtCompileTime() {
        XCTAssertEqual(refused("'%q'.format([cents])"), ExprError(column: 1, message: "format() '%q' is not a format verb "
            + "(verbs: %s, %d, %f, %e (with a precision: %.2f, %.3e), %x, %X, %o, %b and %%)"))
        XCTAssertEqual(refused("'%.2d'.format([cents])"), ExprError(column: 1, message: "format() '%.2d' is not a format verb "
            + "(verbs: %s, %d, %f, %e (with a precision: %.2f, %.3e), %x, %X, %o, %b and %%)"))
        XCTAssertEqual(refused("'100%'.format([])"), ExprError(column: 1, message: "format() ends in '%' with no verb: write '%%' for a percent sign"))
        XCTAssertEqual(refused("'%.99f'.format([rate])"), ExprError(column: 1, message: "format() '%.99' needs a precision of 0 to 17 digits"))
        XCTAssertEqual(refused("'%d'.format([currency])"), ExprError(column: 6, message: "format() '%d' takes an int, found string ('currency')"))
        XCTAssertEqual(refused("'%f'.format([currency])"), ExprError(column: 6, message: "format() '%f' takes a double or an int, found string ('currency')"))
        XCTAssertEqual(refused("'%d %d'.format([cents])"), ExprError(column: 9, message: "format() has 2 verbs for 1 values"))
        XCTAssertEqual(refused("'%x'.format(['a'])"), ExprError(column: 6, message: "format() '%x' takes an int, found string (the value at column 14)"))
        XCTAssertEqual(refused("'%d'.format(tags)"), ExprError(column: 6, message: "format() '%d' takes an int, found string"))
        XCTAssertEqual(refused("cents.format([1])"), ExprError(column: 7, message: "format() is called on a format string with a list of values, "
            + "as in '%.2f'.format([total / 100.0]), found int ('cents')"))
        XCTAssertEqual(refused("'%d'.format(cents)"), ExprError(column: 6, message: "format() is called on a format string with a list of values, "
            + "as in '%.2f'.format([total / 100.0]), found int"))
    }

    func testAFormatReadAtRunTimeFailsThere() throws {
        XCTAssertEqual(try eval("pattern.format([cents])"), .string("123456 items"))
        XCTAssertEqual(fault("bad.format([cents])"), ExprFault(column: 5, message: "format() '%q' is not a format verb "
            + "(verbs: %s, %d, %f, %e (with a precision: %.2f, %.3e), %x, %X, %o, %b and %%)"))
        XCTAssertEqual(fault("pattern.format([])"), ExprFault(column: 9, message: "format() has more verbs than the 0 values it was given"))
        XCTAssertEqual(fault("'%d'.format([count])"), ExprFault(column: 6, message: "format() '%d' takes an int, found null"))
    }
}
