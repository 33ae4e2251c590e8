import XCTest
@testable import Replay

/// Reading nested objects of a line: `nested(_:)`, `FieldPath`, `read` and `readOptional`.
final class FlatJSONNestedTests: XCTestCase {
    /// The description of the error `body` throws, or a failure if it throws none.
    private func errorText<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> String? {
        thrownLineError(body, file: file, line: line)?.description
    }

    private let sample = #"""
        {"at":"2025-04-16T10:00:00Z","method":"POST","body":{"name":"Zo\u00eb \"Z\" O\\Brien\n🎒","store_ids":[1, \#
        2,5],"n":5,"nul":null,"ids":[1,"x"],"big":99999999999999999999,"meta":{"deep":{"level":3,"tag":"t\tx"},"note":"m"}},"other":1,"gone":null}
        """#

    func testNestedStringsWithEscapesAndArraysOfInts() throws {
        let line = try FlatJSON.parse(sample, line: 3)
        let body = try XCTUnwrap(try line.nested("body"))
        XCTAssertEqual(body.path, "body")
        XCTAssertEqual(body.line, 3)
        XCTAssertEqual(try body.string("name"), "Zoë \"Z\" O\\Brien\n🎒")
        XCTAssertEqual(try body.intArray("store_ids"), [1, 2, 5])
        XCTAssertEqual(try body.int("n"), 5)
        XCTAssertNil(try body.optionalString("nul"))
        XCTAssertEqual(body.keys, ["name", "store_ids", "n", "nul", "ids", "big", "meta"])
        XCTAssertTrue(body.description.hasPrefix(#"{"name":"#))
        XCTAssertTrue(body.description.hasSuffix(#""note":"m"}}"#), "the object ends at its own brace")
        XCTAssertEqual(try line.int("other"), 1, "the line's own fields are unchanged")
    }

    func testThreeLevelsDeep() throws {
        let line = try FlatJSON.parse(sample, line: 3)
        let deep = try XCTUnwrap(try line.nested(FieldPath(["body", "meta", "deep"])))
        XCTAssertEqual(deep.path, "body.meta.deep")
        XCTAssertEqual(try deep.int("level"), 3)
        XCTAssertEqual(try deep.string("tag"), "t\tx")
        let level = try XCTUnwrap(FieldPath(dotted: "body.meta.deep.level"))
        XCTAssertEqual(try line.read(level) { try $0.int($1) }, 3)
        XCTAssertEqual(try line.read(FieldPath(["body", "meta", "note"])) { try $0.string($1) }, "m")
        XCTAssertEqual(try line.read(FieldPath(["method"])) { try $0.string($1) }, "POST", "a one-key path is a top-level field")
        XCTAssertEqual(errorText { try deep.string("nope") }, "line 3: missing field 'body.meta.deep.nope'")
        XCTAssertEqual(errorText { try deep.string("level") }, "line 3: field 'body.meta.deep.level' should be a string, found an integer")
    }

    func testAbsentNullAndWrongType() throws {
        let line = try FlatJSON.parse(sample, line: 3)
        XCTAssertNil(try line.nested("absent"))
        XCTAssertNil(try line.nested("gone"), "null is like absent")
        XCTAssertEqual(errorText { try line.nested("other") }, "line 3: field 'other' should be an object, found an integer")
        XCTAssertEqual(errorText { try line.nested("method") }, "line 3: field 'method' should be an object, found a string")
        let body = try XCTUnwrap(try line.nested("body"))
        XCTAssertNil(try body.nested("nul"))
        XCTAssertEqual(errorText { try body.nested("n") }, "line 3: field 'body.n' should be an object, found an integer")
        XCTAssertEqual(errorText { try line.nested(FieldPath(["body", "store_ids", "x"])) },
                       "line 3: field 'body.store_ids' should be an object, found an array")
        XCTAssertNil(try line.nested(FieldPath(["body", "absent", "x"])))
    }

    /// Errors from a nested object name the field by its whole path.
    func testErrorsNameTheWholePath() throws {
        let line = try FlatJSON.parse(sample, line: 3)
        let body = try XCTUnwrap(try line.nested("body"))
        XCTAssertEqual(errorText { try body.string("status") }, "line 3: missing field 'body.status'")
        XCTAssertEqual(errorText { try body.string("n") }, "line 3: field 'body.n' should be a string, found an integer")
        XCTAssertEqual(errorText { try body.int("nul") }, "line 3: field 'body.nul' should be an integer, found null")
        XCTAssertEqual(errorText { try body.intArray("ids") }, "line 3: field 'body.ids[1]' should be an integer, found a string")
        XCTAssertEqual(errorText { try body.int("big") }, "line 3: bad value in field 'body.big': integer out of range")
        XCTAssertEqual(errorText { try line.read(FieldPath(["body", "status"])) { try $0.string($1) } },
                       "line 3: missing field 'body.status'")
        XCTAssertEqual(errorText { try line.read(FieldPath(["response", "body", "id"])) { try $0.int($1) } },
                       "line 3: missing field 'response'")
        XCTAssertEqual(errorText { try line.read(FieldPath(["body", "nul", "id"])) { try $0.int($1) } },
                       "line 3: field 'body.nul' should be an object, found null")
        XCTAssertEqual(errorText { try line.read(FieldPath(["body", "n", "id"])) { try $0.int($1) } },
                       "line 3: field 'body.n' should be an object, found an integer")
    }

    func testReadOptional() throws {
        let line = try FlatJSON.parse(sample, line: 3)
        XCTAssertNil(try line.readOptional(FieldPath(["response", "body", "id"])) { try $0.optionalInt($1) })
        XCTAssertNil(try line.readOptional(FieldPath(["body", "nul", "id"])) { try $0.optionalInt($1) })
        XCTAssertNil(try line.readOptional(FieldPath(["body", "absent"])) { try $0.optionalString($1) })
        XCTAssertEqual(try line.readOptional(FieldPath(["body", "store_ids"])) { try $0.optionalIntArray($1) }, [1, 2, 5])
        XCTAssertEqual(errorText { try line.readOptional(FieldPath(["body", "n", "id"])) { try $0.optionalInt($1) } },
                       "line 3: field 'body.n' should be an object, found an integer")
    }

    /// A nested object's duplicate keys and escaped keys are handled when it is read, with byte
    /// positions counted in the line.
    func testNestedKeys() throws {
        let duplicate = try FlatJSON.parse(#"{"body":{"a":1,"a":2}}"#, line: 9)
        XCTAssertEqual(errorText { try duplicate.nested("body") }, "line 9: not JSON (duplicate key 'a' at byte 16)")
        let escaped = try FlatJSON.parse(#"{"b":{"k\u0065y":"v","x":{}}}"#)
        let inner = try XCTUnwrap(try escaped.nested("b"))
        XCTAssertEqual(try inner.string("key"), "v")
        XCTAssertEqual(try XCTUnwrap(try inner.nested("x")).count, 0)
    }

    func testDottedPaths() {
        XCTAssertEqual(FieldPath(dotted: "body.store_ids")?.components, ["body", "store_ids"])
        XCTAssertEqual(FieldPath(dotted: "at")?.key, "at")
        XCTAssertEqual(FieldPath(["a", "b"]).description, "a.b")
        for bad in ["", ".a", "a.", "a..b"] { XCTAssertNil(FieldPath(dotted: bad), bad) }
    }
}
