import XCTest
@testable import Replay

final class FlatJSONTests: XCTestCase {
    /// The error `body` throws, or a failure if it throws none.
    private func lineError<T>(
        _ body: () throws -> T,
        file: StaticString = #filePath, line: UInt = #line
    ) -> StreamLineError? {
        thrownLineError(body, file: file, line: line)
    }

    /// The description of the error from parsing `text` as line `number`.
    private func parseError(_ text: String, line number: Int = 3, file: StaticString = #filePath, line: UInt = #line) -> String? {
        lineError({ try FlatJSON.parse(text, line: number) }, file: file, line: line)?.description
    }

    // MARK: Values

    func testTheSampleLine() throws {
        let text = #"{"at":"2025-04-16T10:00:00.000Z","kind":"leave.created","request_id":22,"student_id":1427,"student_name":"John \"JD\" Doe 🎒 Nguyễn","#
            + #""reason":null,"store_ids":[1,2,5]}"#
        let object = try FlatJSON.parse(text, line: 7)
        XCTAssertEqual(object.line, 7)
        XCTAssertEqual(object.keys, ["at", "kind", "request_id", "student_id", "student_name", "reason", "store_ids"])
        XCTAssertEqual(object.count, 7)
        XCTAssertEqual(try object.string("at"), "2025-04-16T10:00:00.000Z")
        XCTAssertEqual(try object.string("kind"), "leave.created")
        XCTAssertEqual(try object.int("request_id"), 22)
        XCTAssertEqual(try object.int("student_id"), 1427)
        XCTAssertEqual(try object.string("student_name"), "John \"JD\" Doe 🎒 Nguyễn")
        XCTAssertNil(try object.optionalString("reason"))
        XCTAssertNil(try object.optionalString("absent"))
        XCTAssertTrue(object.has("reason"), "null counts as present")
        XCTAssertFalse(object.has("absent"))
        XCTAssertEqual(object.valueType("reason"), .null)
        XCTAssertEqual(try object.intArray("store_ids"), [1, 2, 5])
        XCTAssertEqual(object.description, text)
    }

    func testStringEscapes() throws {
        let text = #"{"q":"say \"hi\"","b":"back\\slash","s":"a\/b","c":"\b\f\n\r\t","e":"caf\u00e9","E":"caf\u00C9","p":"bag \ud83c\udf92!","raw":"🎒 é "#
            + #"Nguyễn 日本語 Кириллица العربية","nul":"\u0000","bmp":"\u20ac\uFFFF"}"#
        let object = try FlatJSON.parse(text)
        XCTAssertEqual(try object.string("q"), "say \"hi\"")
        XCTAssertEqual(try object.string("b"), "back\\slash")
        XCTAssertEqual(try object.string("s"), "a/b")
        XCTAssertEqual(try object.string("c"), "\u{08}\u{0C}\n\r\t")
        XCTAssertEqual(try object.string("e"), "café")
        XCTAssertEqual(try object.string("E"), "cafÉ")
        XCTAssertEqual(try object.string("p"), "bag 🎒!")
        XCTAssertEqual(try object.string("raw"), "🎒 é Nguyễn 日本語 Кириллица العربية")
        XCTAssertEqual(try object.string("nul"), "\u{0}")
        XCTAssertEqual(try object.string("bmp"), "€\u{FFFF}")
    }

    func testEscapedKeysAreFoundByTheirDecodedName() throws {
        let object = try FlatJSON.parse(#"{"caf\u00e9":1,"a\"b":2,"plain":3,"":4}"#)
        XCTAssertEqual(object.keys, ["café", "a\"b", "plain", ""])
        XCTAssertEqual(try object.int("café"), 1)
        XCTAssertEqual(try object.int("a\"b"), 2)
        XCTAssertEqual(try object.int("plain"), 3)
        XCTAssertEqual(try object.int(""), 4)
    }

    func testNumbers() throws {
        let object = try FlatJSON.parse(#"{"zero":0,"neg":-17,"max":9223372036854775807,"min":-9223372036854775808,"big":9223372036854775808,"frac":1.5,"#
            + #""one":1.0,"exp":2e3,"negexp":-1.25E-2,"huge":1e999}"#)
        XCTAssertEqual(try object.int("zero"), 0)
        XCTAssertEqual(try object.int("neg"), -17)
        XCTAssertEqual(try object.int("max"), Int.max)
        XCTAssertEqual(try object.int("min"), Int.min)
        XCTAssertEqual(object.valueType("big"), .integer)
        XCTAssertEqual(lineError { try object.int("big") }?.cause, .badValue(field: "big", why: "integer out of range"))
        XCTAssertEqual(try object.double("big"), 9223372036854775808.0)
        XCTAssertEqual(try object.double("frac"), 1.5)
        XCTAssertEqual(try object.double("zero"), 0)
        XCTAssertEqual(try object.double("exp"), 2000)
        XCTAssertEqual(try object.double("negexp"), -0.0125)
        XCTAssertEqual(object.valueType("one"), .number, "1.0 is not an integer")
        XCTAssertEqual(lineError { try object.int("frac") }?.description,
                       "line 1: field 'frac' should be an integer, found a number")
        XCTAssertEqual(lineError { try object.double("huge") }?.key, "bad_value")
        XCTAssertNil(try object.optionalInt("absent"))
        XCTAssertEqual(try object.optionalInt("neg"), -17)
        XCTAssertEqual(try object.optionalDouble("frac"), 1.5)
    }

    func testBooleansAndNull() throws {
        let object = try FlatJSON.parse(#"{ "yes" : true , "no":false, "nothing":null }"#)
        XCTAssertEqual(try object.bool("yes"), true)
        XCTAssertEqual(try object.bool("no"), false)
        XCTAssertNil(try object.optionalBool("nothing"))
        XCTAssertEqual(try object.optionalBool("yes"), true)
        XCTAssertNil(try object.optionalInt("nothing"))
        XCTAssertNil(try object.optionalIntArray("nothing"))
        XCTAssertEqual(lineError { try object.string("nothing") }?.description,
                       "line 1: field 'nothing' should be a string, found null")
    }

    func testArrays() throws {
        let object = try FlatJSON.parse(#"{"ids":[ 1 , -2,3 ],"none":[],"spaced":[ ],"names":["a","b\n","🎒"],"mixed":[1,2,"3"],"floats":[1,2.5],"nested":[[1],"#
            + #"{"a":[2]}],"bools":[true]}"#)
        XCTAssertEqual(try object.intArray("ids"), [1, -2, 3])
        XCTAssertEqual(try object.intArray("none"), [])
        XCTAssertEqual(try object.intArray("spaced"), [])
        XCTAssertEqual(try object.stringArray("names"), ["a", "b\n", "🎒"])
        XCTAssertEqual(try object.stringArray("none"), [])
        XCTAssertEqual(try object.optionalIntArray("ids"), [1, -2, 3])
        XCTAssertNil(try object.optionalStringArray("absent"))
        XCTAssertEqual(lineError { try object.intArray("mixed") }?.description,
                       "line 1: field 'mixed[2]' should be an integer, found a string")
        XCTAssertEqual(lineError { try object.intArray("floats") }?.description,
                       "line 1: field 'floats[1]' should be an integer, found a number")
        XCTAssertEqual(lineError { try object.intArray("nested") }?.description,
                       "line 1: field 'nested[0]' should be an integer, found an array")
        XCTAssertEqual(lineError { try object.stringArray("ids") }?.description,
                       "line 1: field 'ids[0]' should be a string, found an integer")
        XCTAssertEqual(lineError { try object.intArray("bools") }?.description,
                       "line 1: field 'bools[0]' should be an integer, found a boolean")
        XCTAssertEqual(lineError { try object.intArray("names") }?.cause,
                       .wrongType(field: "names[0]", expected: .integer, found: .string))
        XCTAssertEqual(lineError { try object.string("ids") }?.description,
                       "line 1: field 'ids' should be a string, found an array")
    }

    func testNestedObjectsAreSkippedButValidated() throws {
        let object = try FlatJSON.parse(#"{"meta":{"a":{"b":[1,{"c":null}]},"d":"x"},"after":5}"#)
        XCTAssertEqual(object.valueType("meta"), .object)
        XCTAssertEqual(try object.int("after"), 5)
        XCTAssertEqual(lineError { try object.intArray("meta") }?.description,
                       "line 1: field 'meta' should be an array, found an object")
        XCTAssertEqual(parseError(#"{"meta":{"a":}}"#), "line 3: not JSON (expected a value at byte 14)")
        XCTAssertEqual(parseError(#"{"meta":{"a" 1}}"#), "line 3: not JSON (expected ':' at byte 14)")
        XCTAssertEqual(parseError(#"{"ids":[1 2]}"#), "line 3: not JSON (expected ',' or ']' at byte 11)")
        let deep = "{\"d\":" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        XCTAssertNoThrow(try FlatJSON.parse(deep))
        let tooDeep = "{\"d\":" + String(repeating: "[", count: 65) + String(repeating: "]", count: 65) + "}"
        XCTAssertEqual(parseError(tooDeep), "line 3: not JSON (nesting deeper than 64 levels at byte 70)")
        let hostile = "{\"d\":" + String(repeating: "[", count: 200_000)
        XCTAssertEqual(lineError { try FlatJSON.parse(hostile) }?.key, "not_json")
    }

    // MARK: Accessor errors

    func testAccessorErrorsNameFieldAndLine() throws {
        let object = try FlatJSON.parse(#"{"student_id":"1427","flag":1,"name":5}"#, line: 9)
        XCTAssertEqual(lineError { try object.int("request_id") }?.description,
                       "line 9: missing field 'request_id'")
        XCTAssertEqual(lineError { try object.int("student_id") }?.description,
                       "line 9: field 'student_id' should be an integer, found a string")
        XCTAssertEqual(lineError { try object.optionalInt("student_id") }?.description,
                       "line 9: field 'student_id' should be an integer, found a string")
        XCTAssertEqual(lineError { try object.bool("flag") }?.description,
                       "line 9: field 'flag' should be a boolean, found an integer")
        XCTAssertEqual(lineError { try object.optionalString("name") }?.cause,
                       .wrongType(field: "name", expected: .string, found: .integer))
        XCTAssertEqual(try object.double("name"), 5, "an integer is a number")
        XCTAssertEqual(object.error(.unknownKind("leave.deleted")).description, "line 9: unknown kind 'leave.deleted'")
    }

    // MARK: Syntax errors

    func testSyntaxErrorsGiveTheirBytePosition() {
        XCTAssertEqual(parseError(#"{"student_name":"John Doe","reason":"unterminated"#),
                       "line 3: not JSON (unterminated string at byte 37)")
        XCTAssertEqual(parseError(#"{"a":1} x"#), "line 3: not JSON (unexpected characters after the object at byte 9)")
        XCTAssertEqual(parseError(#"{"a":1}{"b":2}"#), "line 3: not JSON (unexpected characters after the object at byte 8)")
        XCTAssertEqual(parseError(#"{"a":1,"b":2,"a":3}"#), "line 3: not JSON (duplicate key 'a' at byte 14)")
        XCTAssertEqual(parseError(#"{"caf\u00e9":1,"café":2}"#), "line 3: not JSON (duplicate key 'café' at byte 16)")
        XCTAssertEqual(parseError(#"[1,2]"#), "line 3: not JSON (top level is an array, not an object)")
        XCTAssertEqual(parseError(#""text""#), "line 3: not JSON (top level is a string, not an object)")
        XCTAssertEqual(parseError("42"), "line 3: not JSON (top level is an integer, not an object)")
        XCTAssertEqual(parseError("null"), "line 3: not JSON (top level is null, not an object)")
        XCTAssertEqual(parseError("hello"), "line 3: not JSON (expected '{' at byte 1)")
        XCTAssertEqual(parseError("   "), "line 3: not JSON (empty line)")
        XCTAssertEqual(parseError(#"{"a":1,}"#), "line 3: not JSON (expected a key in double quotes at byte 8)")
        XCTAssertEqual(parseError(#"{a:1}"#), "line 3: not JSON (expected a key in double quotes at byte 2)")
        XCTAssertEqual(parseError(#"{"a" 1}"#), "line 3: not JSON (expected ':' at byte 6)")
        XCTAssertEqual(parseError(#"{"a":1"#), "line 3: not JSON (unexpected end of line, expected ',' or '}')")
        XCTAssertEqual(parseError(#"{"a":"#), "line 3: not JSON (unexpected end of line, expected a value)")
        XCTAssertEqual(parseError(#"{"a":tru}"#), "line 3: not JSON (expected a value at byte 6)")
        XCTAssertEqual(parseError(#"{"a":truex}"#), "line 3: not JSON (expected ',' or '}' at byte 10)")
        XCTAssertEqual(parseError(#"{"a":01}"#), "line 3: not JSON (invalid number at byte 6)")
        XCTAssertEqual(parseError(#"{"a":-}"#), "line 3: not JSON (invalid number at byte 6)")
        XCTAssertEqual(parseError(#"{"a":1.}"#), "line 3: not JSON (invalid number at byte 6)")
        XCTAssertEqual(parseError(#"{"a":1e}"#), "line 3: not JSON (invalid number at byte 6)")
        XCTAssertEqual(parseError(#"{"a":+1}"#), "line 3: not JSON (expected a value at byte 6)")
        XCTAssertEqual(parseError(#"{"a":"\x"}"#), "line 3: not JSON (invalid escape at byte 7)")
        XCTAssertEqual(parseError(#"{"a":"\u12G4"}"#), "line 3: not JSON (invalid \\u escape at byte 7)")
        XCTAssertEqual(parseError(#"{"a":"\ud83c"}"#), "line 3: not JSON (unpaired UTF-16 surrogate at byte 7)")
        XCTAssertEqual(parseError(#"{"a":"\udf92"}"#), "line 3: not JSON (unpaired UTF-16 surrogate at byte 7)")
        XCTAssertEqual(parseError(#"{"a":"\ud83c\u0041"}"#), "line 3: not JSON (unpaired UTF-16 surrogate at byte 7)")
        XCTAssertEqual(parseError("{\"a\":\"tab\there\"}"), "line 3: not JSON (unescaped control character in string at byte 10)")
        XCTAssertEqual(parseError(#"{"a":'x'}"#), "line 3: not JSON (expected a value at byte 6)")
    }

    func testInvalidUTF8IsRejected() {
        let prefix = Array(#"{"a":"x"#.utf8)
        let suffix = Array(#""}"#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3], [0x80]] {
            let line = prefix + bad + suffix
            XCTAssertEqual(
                lineError { try FlatJSON.parse(line[...], line: 2) }?.description,
                "line 2: not JSON (invalid UTF-8 at byte 8)", "\(bad)")
        }
        XCTAssertNoThrow(try FlatJSON.parse((prefix + [0xC3, 0xA9, 0xF0, 0x9F, 0x8E, 0x92] + suffix)[...], line: 1))
    }

    /// Strings are scanned 8 bytes at a time; a special byte must be seen at every alignment.
    func testSpecialBytesAtEveryPositionInALongString() throws {
        for padding in 0 ..< 20 {
            let pad = String(repeating: "p", count: padding)
            for (raw, decoded) in [(#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"), ("é", "é"), ("🎒", "🎒"), (#"\u00e9"#, "é")] {
                let object = try FlatJSON.parse("{\"s\":\"\(pad)\(raw)\(pad)tail\"}")
                XCTAssertEqual(try object.string("s"), pad + decoded + pad + "tail", "padding \(padding), \(raw)")
            }
            XCTAssertEqual(parseError("{\"s\":\"\(pad)\u{01}xxxxxxxxxx\"}"),
                           "line 3: not JSON (unescaped control character in string at byte \(7 + padding))")
            XCTAssertEqual(parseError("{\"s\":\"\(pad)xxxxxxxxxx"), "line 3: not JSON (unterminated string at byte 6)")
            let bad = Array("{\"s\":\"\(pad)".utf8) + [0xFF] + Array("xxxxxxxxxx\"}".utf8)
            XCTAssertEqual(lineError { try FlatJSON.parse(bad[...], line: 3) }?.description,
                           "line 3: not JSON (invalid UTF-8 at byte \(7 + padding))")
        }
    }

    func testSlicesWithANonZeroStartIndex() throws {
        let buffer = Array("xxxx{\"a\":\"b\\n\",\"n\":[1,2]}yyyy".utf8)
        let object = try FlatJSON.parse(buffer[4 ..< buffer.count - 4], line: 1)
        XCTAssertEqual(try object.string("a"), "b\n")
        XCTAssertEqual(try object.intArray("n"), [1, 2])
    }

    func testManyKeysUseTheHashedDuplicateCheck() throws {
        let keys = (0 ..< 100).map { "\"k\($0)\":\($0)" }
        let object = try FlatJSON.parse("{" + keys.joined(separator: ",") + "}")
        XCTAssertEqual(try object.int("k99"), 99)
        XCTAssertEqual(parseError("{" + keys.joined(separator: ",") + ",\"k\\u0035\":0}"),
                       "line 3: not JSON (duplicate key 'k5' at byte \(("{" + keys.joined(separator: ",") + ",").utf8.count + 1))")
    }

    // MARK: Causes

    func testEveryCauseHasItsKeyAndMessage() {
        let cases: [(StreamLineError.Cause, String, String)] = [
            (.notJSON("unterminated string at byte 41"), "not_json", "line 3: not JSON (unterminated string at byte 41)"),
            (.missingField("request_id"), "missing_field", "line 3: missing field 'request_id'"),
            (.wrongType(field: "student_id", expected: .integer, found: .string), "wrong_type",
             "line 3: field 'student_id' should be an integer, found a string"),
            (.unknownKind("leave.deleted"), "unknown_kind", "line 3: unknown kind 'leave.deleted'"),
            (.badTimestamp(field: "at", value: "yesterday"), "bad_timestamp",
             "line 3: field 'at' is not an RFC 3339 timestamp: 'yesterday'"),
            (.timeBackwards(byMillis: 1500), "time_backwards", "line 3: time goes backwards by 1500 ms"),
            (.badValue(field: "status", why: "'maybe' is not a status"), "bad_value",
             "line 3: bad value in field 'status': 'maybe' is not a status"),
            (.lineTooLong, "line_too_long", "line 3: line too long"),
        ]
        for (cause, key, message) in cases {
            let error = StreamLineError(line: 3, cause: cause)
            XCTAssertEqual(error.key, key)
            XCTAssertEqual(error.description, message)
        }
        XCTAssertEqual(cases.map(\.1), StreamLineError.Cause.allKeys)
    }

    func testMessagesClipLongAndControlValues() {
        let error = StreamLineError(line: 1, cause: .unknownKind(String(repeating: "k", count: 100) + "\n"))
        XCTAssertEqual(error.description, "line 1: unknown kind '\(String(repeating: "k", count: 60))…'")
        XCTAssertEqual(StreamLineError(line: 1, cause: .missingField("a\nb")).description, "line 1: missing field 'a?b'")
    }

    // MARK: Robustness

    /// Arbitrary bytes, every truncation and random mutations of valid lines: the parser must
    /// return or throw, never crash; and every accessor must do the same on what it accepts.
    func testNeverCrashesOnArbitraryInput() {
        var random = StreamTestRandom(seed: 7)
        let seeds = [
            #"{"at":"2025-04-16T10:00:00.000Z","kind":"leave.created","request_id":22,"student_name":"John \"JD\" Doe 🎒 Nguyễn","reason":null,"#
                + #""store_ids":[1,2,5]}"#,
            #"{"a":{"b":[1,2,{"c":"\ud83c\udf92"}]},"n":-1.5e-3,"t":true,"f":false,"s":"\u00e9\\\/"}"#,
        ].map { Array($0.utf8) }
        let interesting: [UInt8] = Array("{}[]\",:\\u0123456789abcdefEe+-.tnrfl ".utf8) + [0x00, 0x0A, 0x7F, 0x80, 0xBF, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xFF]
        var inputs: [[UInt8]] = []
        for seed in seeds {
            for cut in 0 ... seed.count { inputs.append(Array(seed[..<cut])) }
            for _ in 0 ..< 2000 {
                var mutated = seed
                for _ in 0 ..< Int.random(in: 1 ... 4, using: &random) {
                    let at = Int.random(in: 0 ..< mutated.count, using: &random)
                    switch Int.random(in: 0 ..< 3, using: &random) {
                    case 0: mutated[at] = interesting.randomElement(using: &random) ?? 0
                    case 1: mutated.remove(at: at)
                    default: mutated.insert(interesting.randomElement(using: &random) ?? 0, at: at)
                    }
                    if mutated.isEmpty { break }
                }
                inputs.append(mutated)
            }
        }
        for _ in 0 ..< 3000 {
            let count = Int.random(in: 0 ..< 64, using: &random)
            inputs.append((0 ..< count).map { _ in
                Bool.random(using: &random) ? UInt8.random(in: 0 ... 255, using: &random) : interesting.randomElement(using: &random) ?? 0
            })
        }
        var accepted = 0
        for input in inputs {
            guard let object = try? FlatJSON.parse(input[...], line: 1) else { continue }
            accepted += 1
            for key in object.keys {
                _ = try? object.string(key)
                _ = try? object.optionalString(key)
                _ = try? object.int(key)
                _ = try? object.double(key)
                _ = try? object.bool(key)
                _ = try? object.intArray(key)
                _ = try? object.stringArray(key)
                _ = object.valueType(key)
            }
        }
        XCTAssertGreaterThan(accepted, 0, "some mutations stay valid")
    }
}
