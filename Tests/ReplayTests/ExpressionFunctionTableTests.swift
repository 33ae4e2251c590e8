import Foundation
@testable import Replay
import XCTest

/// The function table is the one declaration of the functions: the manual's list is it, the messages name
/// its entries, and each call is bound to one overload when it is compiled.
final class ExpressionFunctionTableTests: XCTestCase {
    private let names = TestExprNames([
        ("count", .int, false, .int(3)),
        ("label", .string, false, .string("order-7")),
        ("loose", .dyn, true, .string("12")),
        ("loose_list", .dyn, true, .list([.int(1), .int(2)])),
        ("loose_bool", .dyn, true, .bool(true)),
    ])

    private func eval(_ text: String) throws -> ExprValue { try names.evaluate(text) }
    private func refused(_ text: String) -> ExprError? { names.refusal(text) }
    private func fault(_ text: String) -> ExprFault? { names.fault(text) }

    func testTheManualsFunctionListIsTheTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/recipes.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "ExpressionFunctionTableTests fails when the two differ. -->\n"))
        let end = try XCTUnwrap(text.range(of: "\n<!-- end of the function table -->", range: start.upperBound ..< text.endIndex))
        XCTAssertEqual(String(text[start.upperBound ..< end.lowerBound]), ExprFunctions.markdown(),
                       "docs/recipes.md's function table is not ExprFunctions.markdown(): paste the latter between its markers")
    }

    func testEachFunctionIsDeclaredOnce() {
        XCTAssertEqual(ExprFunctions.table.map(\.name), ["has", "size", "int", "double", "string", "timestamp", "duration",
                                                         "startsWith", "endsWith", "contains", "join", "format", "filter", "map", "exists", "all"])
        XCTAssertEqual(Set(ExprFunctions.table.map(\.name)).count, ExprFunctions.table.count)
        XCTAssertEqual(refused("lower(label)"), ExprError(column: 1, message: "'lower' is not a function (functions: has, size, int, double, string, "
            + "timestamp, duration, startsWith, endsWith, contains, join, format, filter, map, exists, all)"))
    }

    func testJoinPutsTheSeparatorBetweenEachTwoStrings() throws {
        XCTAssertEqual(try eval("['a', label, 'c'].join(', ')"), .string("a, order-7, c"))
        XCTAssertEqual(try eval("['a'].join('-')"), .string("a"))
        XCTAssertEqual(try eval("['a', 'b'].filter(x, x != 'a').join('-')"), .string("b"))
        XCTAssertEqual(try eval("['a', 'b'].filter(x, x == 'z').join('-')"), .string(""))
        XCTAssertEqual(refused("[1, 2].join('-')"), ExprError(column: 8, message: "join() takes a list of strings, called on it with a string "
            + "(names.join(', ')), found list(int) and string"))
    }

    func testAStaticTypePicksTheOverloadAtCompileTime() throws {
        XCTAssertEqual(try CompiledExpr.compile("int(label.size())", names: names).type, .int)
        XCTAssertEqual(try CompiledExpr.compile("label.startsWith('order')", names: names).type, .bool)
        XCTAssertEqual(refused("size(count)"), ExprError(column: 1, message: "size() takes a string or a list, found int"))
        XCTAssertEqual(refused("label.contains(1)"), ExprError(column: 7, message: "contains() takes a string, called on a string (s.contains('x')), "
            + "found string and int"))
        XCTAssertEqual(refused("duration(count)"), ExprError(column: 1, message: "duration() takes a string like '900s', '15m' or '1h30m', found int"))
        XCTAssertEqual(refused("size()"), ExprError(column: 1, message: "size() takes a string or a list, found nothing"))
    }

    func testADynValuePicksItsOverloadPerEvaluation() throws {
        XCTAssertEqual(try eval("int(loose) + 1"), .int(13), "a dyn holding a string: int(string)")
        XCTAssertEqual(try eval("size(loose_list)"), .int(2), "a dyn holding a list: size(list)")
        XCTAssertEqual(try eval("size(loose)"), .int(2), "a dyn holding a string: size(string)")
        XCTAssertEqual(try eval("string(loose_bool)"), .string("true"))
        XCTAssertEqual(try CompiledExpr.compile("int(loose)", names: names).type, .int, "every overload gives an int")
        XCTAssertEqual(fault("int(loose_bool)"), ExprFault(column: 1, message: "int() does not take bool"))
        XCTAssertEqual(fault("duration(loose_list)"), ExprFault(column: 1, message: "duration() does not take list(int)"))
        XCTAssertEqual(fault("label.startsWith(loose_bool)"), ExprFault(column: 7, message: "startsWith() does not take bool"))
        XCTAssertEqual(fault("loose + count"), ExprFault(column: 7, message: "'+' does not apply to string and int"))
    }

    func testAnOperatorIsBoundToItsOperandsTypesOnce() throws {
        let add = ExprArithmetic.bound("+", .int, .int, column: 3)
        XCTAssertEqual(try add(.int(2), .int(3)), .int(5))
        XCTAssertThrowsError(try add(.int(Int.max), .int(1))) { XCTAssertEqual($0 as? ExprFault, ExprFault(column: 3, message: "integer overflow in '+'")) }
        let divide = ExprArithmetic.bound("/", .double, .double, column: 1)
        XCTAssertEqual(try divide(.double(1), .double(4)), .double(0.25))
        let later = ExprArithmetic.bound("-", .timestamp, .int, column: 1)
        XCTAssertEqual(try later(.timestamp(5000), .int(2)), .timestamp(3000))
        let loose = ExprArithmetic.bound("*", .dyn, .int, column: 4)
        XCTAssertEqual(try loose(.int(6), .int(7)), .int(42), "a dyn operand: the work is picked by the values")
        XCTAssertThrowsError(try loose(.string("a"), .int(7))) {
            XCTAssertEqual($0 as? ExprFault, ExprFault(column: 4, message: "'*' does not apply to string and int"))
        }
        XCTAssertEqual(try eval("count * 2 - 1 < 6 && label + '!' == 'order-7!'"), .bool(true))
    }

    func testInLooksInADynListByItsValue() throws {
        XCTAssertEqual(try eval("2 in loose_list"), .bool(true))
        XCTAssertEqual(try eval("loose_list[1:][0]"), .int(2), "a dyn is sliced and indexed as the list it holds")
        XCTAssertEqual(fault("1 in loose_bool"), ExprFault(column: 3, message: "'loose_bool' is bool, not a list"))
    }

    func testAConversionOutOfRangeFailsInsteadOfTrapping() {
        XCTAssertEqual(fault("timestamp(9223372036854775807)"),
                       ExprFault(column: 1, message: "timestamp() found 9223372036854775807 seconds, out of a timestamp's range"))
    }
}
