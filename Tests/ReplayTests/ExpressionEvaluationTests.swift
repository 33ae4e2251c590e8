@testable import Replay
import XCTest

/// Names and values for expressions tested outside a recipe: each variable has a type, whether it may be
/// null, and its value.
final class TestExprNames: ExprNames, ExprInput {
    var table: [(path: String, type: ExprType, nullable: Bool, value: ExprValue)]
    private(set) var reads = 0

    init(_ table: [(String, ExprType, Bool, ExprValue)]) { self.table = table.map { ($0.0, $0.1, $0.2, $0.3) } }

    func variable(_ path: [String], column: Int) throws -> ExprVariable {
        let name = path.joined(separator: ".")
        guard let i = table.firstIndex(where: { $0.path == name }) else {
            throw ExprError(column: column, message: "'\(name)' is not a name (names: \(table.map(\.path).joined(separator: ", ")))")
        }
        return ExprVariable(id: i, type: table[i].type, nullable: table[i].nullable)
    }

    func read(_ variable: Int) -> ExprValue {
        reads += 1
        return table[variable].value
    }
}

/// The language's semantics, as values: each expression evaluated against fixed variables, following CEL
/// (null, overflow, division by zero, `has`, the absorbing `&&` and `||`).
final class ExpressionEvaluationTests: XCTestCase {
    private let names = TestExprNames([
        ("status", .string, false, .string("delivered")),
        ("total", .int, false, .int(42)),
        ("price", .double, false, .double(2.5)),
        ("note", .string, true, .null),
        ("tags", .list(.string), false, .list([.string("vip"), .string("new")])),
        ("time", .timestamp, false, .timestamp(1_700_000_000_000)),
        ("order", .entity("order"), true, .bool(true)),
        ("order.store_id", .int, true, .int(7)),
        ("order.token", .string, true, .null),
        ("big", .int, false, .int(Int.max)),
        ("flag", .bool, true, .null),
    ])

    private func eval(_ text: String) throws -> ExprValue { try names.evaluate(text) }
    private func fault(_ text: String) -> ExprFault? { names.fault(text) }

    func testLiteralsAndFieldPaths() throws {
        XCTAssertEqual(try eval("status"), .string("delivered"))
        XCTAssertEqual(try eval("order.store_id"), .int(7))
        XCTAssertEqual(try eval("null"), .null)
        XCTAssertEqual(try eval("[1, 2, 3]"), .list([.int(1), .int(2), .int(3)]))
        XCTAssertEqual(try eval("'a\\'b' + \"c\""), .string("a'bc"))
        XCTAssertEqual(try eval("-3"), .int(-3))
        XCTAssertEqual(try eval("1.5e2"), .double(150))
    }

    func testArithmeticOnIntsAndDoubles() throws {
        XCTAssertEqual(try eval("total * 2 + 1"), .int(85))
        XCTAssertEqual(try eval("total / 5"), .int(8))
        XCTAssertEqual(try eval("-total % 5"), .int(-2), "CEL's remainder takes the dividend's sign")
        XCTAssertEqual(try eval("price * 2.0"), .double(5))
        XCTAssertEqual(try eval("double(total) / 4.0"), .double(10.5))
        XCTAssertEqual(try eval("1.0 / 0.0"), .double(.infinity), "a double divides by zero as IEEE 754 says")
        XCTAssertEqual(try eval("int(price * 3.0)"), .int(7), "int() truncates toward zero")
    }

    func testIntegerOverflowAndDivisionByZeroFailAsCELSays() {
        XCTAssertEqual(fault("big + 1"), ExprFault(column: 5, message: "integer overflow in '+'"))
        XCTAssertEqual(fault("total / (total - 42)"), ExprFault(column: 7, message: "division by zero"))
        XCTAssertEqual(fault("total % 0"), ExprFault(column: 7, message: "modulus by zero"))
        XCTAssertEqual(fault("-big - 2"), ExprFault(column: 6, message: "integer overflow in '-'"))
    }

    func testComparisonsAndMembership() throws {
        XCTAssertEqual(try eval("total > 40 && total <= 42"), .bool(true))
        XCTAssertEqual(try eval("total == 42.0"), .bool(true), "ints and doubles compare as numbers")
        XCTAssertEqual(try eval("status in ['delivered', 'lost']"), .bool(true))
        XCTAssertEqual(try eval("'vip' in tags && !('gold' in tags)"), .bool(true))
        XCTAssertEqual(try eval("'abc' < 'abd'"), .bool(true))
        XCTAssertEqual(try eval("status != 'delivered' || total == 1"), .bool(false))
    }

    func testNullEqualsOnlyNullAndHasTestsPresence() throws {
        XCTAssertEqual(try eval("note == null"), .bool(true))
        XCTAssertEqual(try eval("status == null"), .bool(false))
        XCTAssertEqual(try eval("has(order.store_id)"), .bool(true))
        XCTAssertEqual(try eval("has(order.token)"), .bool(false))
        XCTAssertEqual(try eval("order != null"), .bool(true))
        XCTAssertEqual(try eval("has(order.token) ? 'ready' : 'waiting'"), .string("waiting"))
    }

    func testANullWhereAValueIsNeededFails() {
        XCTAssertEqual(fault("note + 'x'"), ExprFault(column: 6, message: "'+' found 'note' null"))
        XCTAssertEqual(fault("size(note)"), ExprFault(column: 1, message: "size() found 'note' null"))
        XCTAssertEqual(fault("flag ? 1 : 2"), ExprFault(column: 6, message: "'flag' is null, not true or false"))
    }

    func testAndAndOrAbsorbAFailureWhenTheOtherSideDecides() throws {
        XCTAssertEqual(try eval("total / 0 == 1 || true"), .bool(true))
        XCTAssertEqual(try eval("false && total / 0 == 1"), .bool(false))
        XCTAssertEqual(try eval("total / 0 == 1 && false"), .bool(false))
        XCTAssertEqual(fault("total / 0 == 1 || false"), ExprFault(column: 7, message: "division by zero"))
        XCTAssertEqual(try eval("flag || true"), .bool(true))
    }

    func testConditionalsAndConversions() throws {
        XCTAssertEqual(try eval("total > 10 ? 'many' : 'few'"), .string("many"))
        XCTAssertEqual(try eval("string(total) + ' orders'"), .string("42 orders"))
        XCTAssertEqual(try eval("int('17') + 1"), .int(18))
        XCTAssertEqual(try eval("size(status)"), .int(9))
        XCTAssertEqual(try eval("tags.size()"), .int(2))
        XCTAssertEqual(try eval("status.startsWith('deliv')"), .bool(true))
        XCTAssertEqual(try eval("tags[1]"), .string("new"))
        XCTAssertEqual(fault("int('x7')"), ExprFault(column: 1, message: "int() cannot read 'x7' as an int"))
        XCTAssertEqual(fault("tags[2]"), ExprFault(column: 5, message: "index out of range (the list has 2 items)"))
    }

    func testTimesAddDurationsOrIntSeconds() throws {
        XCTAssertEqual(try eval("time + 900"), .timestamp(1_700_000_900_000))
        XCTAssertEqual(try eval("time + duration('15m')"), .timestamp(1_700_000_900_000))
        XCTAssertEqual(try eval("int(time + duration('1h30m'))"), .int(1_700_005_400))
        XCTAssertEqual(try eval("string(time)"), .string("2023-11-14T22:13:20Z"))
        XCTAssertEqual(try eval("(time + 60) - time"), .duration(60000))
        XCTAssertEqual(try eval("timestamp('2023-11-14T22:13:20Z') == time"), .bool(true))
        XCTAssertEqual(try eval("time - duration('1s') < time"), .bool(true))
    }

    func testTheResultTypeIsKnownBeforeAnyEvent() throws {
        XCTAssertEqual(try CompiledExpr.compile("time + 900", names: names).type, .timestamp)
        XCTAssertEqual(try CompiledExpr.compile("total > 1 ? price : 1.0", names: names).type, .double)
        let e = try CompiledExpr.compile("has(order.token) ? order.store_id : null", names: names)
        XCTAssertEqual(e.type, .int)
        XCTAssertTrue(e.nullable)
        XCTAssertEqual(e.variables, [8, 7], "the variables it reads, each once")
    }

    func testAConstantListIsBuiltOnceNotPerEvaluation() throws {
        let e = try CompiledExpr.compile("status in ['a', 'b', 'delivered']", names: names)
        let before = names.reads
        for _ in 0 ..< 3 { XCTAssertEqual(try e.evaluate(names), .bool(true)) }
        XCTAssertEqual(names.reads - before, 3, "one read of 'status' per evaluation, nothing else")
    }
}
