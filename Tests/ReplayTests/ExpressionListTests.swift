@testable import Replay
import XCTest

/// The list forms: `size`, `in`, indexing, slicing, `+`, the macros `filter`, `map`, `exists` and `all`, and
/// list literals typed from where they are used; each with its mistakes refused at compile time, whole.
final class ExpressionListTests: XCTestCase {
    private let names = TestExprNames([
        ("riders", .list(.string), false, .list([.string("r1"), .string("r2"), .string("r3")])),
        ("amounts", .list(.int), false, .list([.int(250), .int(1200), .int(75)])),
        ("none", .list(.int), false, .list([])),
        ("gone", .list(.int), true, .null),
        ("rider", .string, false, .string("r2")),
        ("n", .int, false, .int(2)),
        ("any", .dyn, true, .list([.int(1), .int(2)])),
        ("matrix", .list(.list(.int)), false, .list([.list([.int(1), .int(2)]), .list([.int(3)])])),
    ])

    private func eval(_ text: String) throws -> ExprValue { try names.evaluate(text) }
    private func refused(_ text: String, expecting: ExprType? = nil) -> ExprError? { names.refusal(text, expecting: expecting) }
    private func fault(_ text: String) -> ExprFault? { names.fault(text) }
    private func strings(_ s: String...) -> ExprValue { .list(s.map { .string($0) }) }

    func testSizeInIndexAndPlus() throws {
        XCTAssertEqual(try eval("size(riders)"), .int(3))
        XCTAssertEqual(try eval("riders.size() + none.size()"), .int(3))
        XCTAssertEqual(try eval("rider in riders"), .bool(true))
        XCTAssertEqual(try eval("'r9' in riders"), .bool(false))
        XCTAssertEqual(try eval("riders[n]"), .string("r3"))
        XCTAssertEqual(try eval("riders + [rider]"), strings("r1", "r2", "r3", "r2"))
        XCTAssertEqual(try eval("matrix[0][1]"), .int(2))
    }

    func testSlicesTakeFromUpToAndStopAtTheEnd() throws {
        XCTAssertEqual(try eval("riders[1:]"), strings("r2", "r3"))
        XCTAssertEqual(try eval("riders[:2]"), strings("r1", "r2"))
        XCTAssertEqual(try eval("riders[1:n]"), strings("r2"))
        XCTAssertEqual(try eval("riders[:]"), strings("r1", "r2", "r3"))
        XCTAssertEqual(try eval("[rider][1:]"), .list([]), "a bound past the end stops at the end")
        XCTAssertEqual(try eval("riders[2:1]"), .list([]))
        XCTAssertEqual(try eval("riders[n > 1 ? 1 : 0:]"), strings("r2", "r3"), "a '? :' in a bound")
        XCTAssertEqual(fault("riders[n - 3:]"), ExprFault(column: 7, message: "a slice's bound is -1, below 0"))
        XCTAssertEqual(fault("gone[1:]"), ExprFault(column: 5, message: "'[…:…]' found 'gone' null"))
    }

    func testFilterMapExistsAndAll() throws {
        XCTAssertEqual(try eval("amounts.filter(a, a > 100)"), .list([.int(250), .int(1200)]))
        XCTAssertEqual(try eval("amounts.map(a, a / 100)"), .list([.int(2), .int(12), .int(0)]))
        XCTAssertEqual(try eval("riders.map(r, 'rider ' + r)"), strings("rider r1", "rider r2", "rider r3"))
        XCTAssertEqual(try eval("riders.exists(r, r == rider)"), .bool(true))
        XCTAssertEqual(try eval("riders.all(r, r.startsWith('r'))"), .bool(true))
        XCTAssertEqual(try eval("none.exists(x, x > 0)"), .bool(false))
        XCTAssertEqual(try eval("none.all(x, x > 0)"), .bool(true))
        XCTAssertEqual(try eval("matrix.map(row, row.filter(x, x > n - 1 && size(row) > 1))"), .list([.list([.int(2)]), .list([])]),
                       "a macro inside a macro reads both names")
        XCTAssertEqual(try eval("amounts.filter(n, n > 100).size() + n"), .int(4), "the bound name hides the variable only inside")
    }

    func testExistsAndAllDecideDespiteAnErrorElsewhereAsInCEL() {
        XCTAssertEqual(try eval("amounts.exists(a, 100 / (a - 250) > 0 || a == 75)"), .bool(true))
        XCTAssertEqual(try eval("amounts.all(a, 100 / (a - 250) > 0)"), .bool(false))
        XCTAssertEqual(fault("amounts.exists(a, 100 / (a - 250) > 100)"), ExprFault(column: 23, message: "division by zero"))
        XCTAssertEqual(fault("amounts.map(a, 100 / (a - 250))"), ExprFault(column: 20, message: "division by zero"))
        XCTAssertEqual(fault("gone.filter(a, a > 1)"), ExprFault(column: 6, message: "filter() found 'gone' null"))
    }

    func testMacroMistakesAreRefusedAtCompileTime() {
        XCTAssertEqual(refused("rider.filter(r, r == 'x')"),
                       ExprError(column: 7, message: "filter() is called on a list, as in tags.filter(t, …), found string"))
        XCTAssertEqual(refused("riders.map('r', 1)"), ExprError(column: 12, message: "map() takes a name for each item first, as in tags.map(t, …)"))
        XCTAssertEqual(refused("riders.exists(r, size(r))"),
                       ExprError(column: 8, message: "exists() needs a condition (a bool) for each item, found int (size(…))"))
        XCTAssertEqual(refused("riders.all(r, r > 1)"), ExprError(column: 17, message: "'>' orders two numbers, strings, bools, timestamps or durations, "
            + "found string and int"))
        XCTAssertEqual(refused("riders.map(r, r.id)"), ExprError(column: 15, message: "'r' is an item of a list, a string, which has no field 'id'"))
        XCTAssertEqual(refused("riders.map(r, null)"), ExprError(column: 8, message: "map() needs a value for each item, found null"))
        XCTAssertEqual(refused("riders.filter(r, true) + r"), ExprError(column: 26, message: "'r' is not a name (names: riders, amounts, none, gone, "
            + "rider, n, any, matrix)"), "the name is bound only inside the macro")
    }

    func testSliceAndIndexMistakesAreRefusedAtCompileTime() {
        XCTAssertEqual(refused("rider[1:]"), ExprError(column: 6, message: "'[…:…]' slices a list, found string"))
        XCTAssertEqual(refused("riders[1:'2']"), ExprError(column: 7, message: "a slice's bounds are ints, found string (the value at column 10)"))
        XCTAssertEqual(refused("riders[1:2"), ExprError(column: 11, message: "expected ']' after the slice, found the end of the expression"))
        XCTAssertEqual(refused("riders[]"), ExprError(column: 8, message: "expected a value, found ']'"))
    }

    func testAnEmptyListTakesItsTypeFromWhereItIsUsed() throws {
        XCTAssertEqual(try CompiledExpr.compile("n > 5 ? riders : []", names: names).type, .list(.string))
        XCTAssertEqual(try CompiledExpr.compile("[[], [1]]", names: names).type, .list(.list(.int)))
        XCTAssertEqual(try CompiledExpr.compile("n > 1 ? [] : [rider]", names: names, expecting: .list(.string)).type, .list(.string))
        let empty = try CompiledExpr.compile("[]", names: names, expecting: .list(.string))
        XCTAssertEqual(empty.type, .list(.string), "a kept list field's type")
        XCTAssertEqual(try empty.evaluate(names), .list([]))
        XCTAssertEqual(try eval("size([])"), .int(0))
        XCTAssertEqual(refused("[]"), ExprError(column: 1, message: "'[]' is a list of no known type here: it takes its type from the list it meets, "
            + "as in 'c ? [] : tags' or 'tags + []'"))
        XCTAssertEqual(refused("[]", expecting: .int), ExprError(column: 1, message: "'[]' is a list of no known type here: it takes its type from the "
            + "list it meets, as in 'c ? [] : tags' or 'tags + []', and int is not a list"))
        XCTAssertEqual(refused("[[]]", expecting: .list(.int)), ExprError(column: 2, message: "'[]' is a list of no known type here: it takes its type "
            + "from the list it meets, as in 'c ? [] : tags' or 'tags + []', not list(int)"))
        XCTAssertEqual(refused("[[1], ['a']]"), ExprError(column: 1, message: "a list holds one type: found list(int) and list(string)"))
    }
}
