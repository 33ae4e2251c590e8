import APNsCore
import XCTest

final class JSONTapeTests: XCTestCase {
    func scan(_ s: String) -> Result<[JSONNode], JSONSyntaxError> {
        Array(s.utf8).withUnsafeBufferPointer { JSONTape.scan($0) }
    }

    func testNodesFollowTheDocument() throws {
        let nodes = try scan(#"{"a":[1,"x"],"b":null}"#).get()
        XCTAssertEqual(nodes.map(\.kind), [.object, .string, .array, .number, .string, .string, .null])
        XCTAssertEqual(nodes[0].count, 2)
        XCTAssertEqual(nodes[2].count, 2)
        XCTAssertEqual(nodes[2].next, 5, "next skips the array and its elements")
        XCTAssertEqual(nodes[0].next, 7)
        XCTAssertEqual(nodes[4].start, 9, "a string starts after its opening quote")
        XCTAssertEqual(nodes[4].end, 10, "and ends at its closing quote")
    }

    /// JSONDecoder's grammar: a byte-order mark, trailing commas and loose numbers pass; the rest does not.
    func testTheGrammarIsJSONDecoders() {
        for good in ["\u{FEFF}{}", "[1,]", #"{"a":1,}"#, "[01, 1., 1-2]", "[\"\\x\"]", " 5 "] {
            XCTAssertNoThrow(try scan(good).get(), good)
        }
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        for bad in ["", "[1,,2]", "{,}", "[1] [2]", #"{"a" 1}"#, "tru", #"["\u12"]"#, "'a'", tooDeep] {
            XCTAssertThrowsError(try scan(bad).get(), bad)
        }
        XCTAssertNoThrow(try scan(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).get())
    }

    func testErrorsSayWhere() {
        guard case let .failure(error) = scan(#"{"a":1 x}"#) else { return XCTFail("accepted") }
        XCTAssertEqual(error.offset, 7)
        XCTAssertEqual(error.message, "unexpected 'x' in an object")
    }

    /// A tape scanned again holds the new document's nodes only, in the storage it already had.
    func testATapeScannedAgainHoldsTheNewDocument() throws {
        var tape = JSONTape()
        try Array(#"{"a":[1,2,3,4,5,6,7,8]}"#.utf8).withUnsafeBufferPointer { try tape.scan($0) }
        XCTAssertEqual(tape.nodes.count, 11)
        let storage = tape.nodes.withUnsafeBufferPointer { $0.baseAddress }
        try Array("[true]".utf8).withUnsafeBufferPointer { try tape.scan($0) }
        XCTAssertEqual(tape.nodes.map(\.kind), [.array, .true])
        XCTAssertEqual(tape.nodes.withUnsafeBufferPointer { $0.baseAddress }, storage)
        XCTAssertThrowsError(try Array("[1".utf8).withUnsafeBufferPointer { try tape.scan($0) })
    }

    /// `deepest` counts the containers around the most deeply nested value: an empty container adds none.
    func testDeepestCountsTheContainersAroundAValue() throws {
        var tape = JSONTape()
        for (document, deepest) in [("1", 0), ("[]", 0), ("[1]", 1), (#"{"a":[[],{}]}"#, 2), (#"[[1],{"a":{"b":[2]}}]"#, 4)] {
            try Array(document.utf8).withUnsafeBufferPointer { try tape.scan($0) }
            XCTAssertEqual(tape.deepest, deepest, document)
        }
    }

    func testNumberFormIsRFC8259s() {
        func form(_ s: String) -> JSONNumberForm? { Array(s.utf8).withUnsafeBufferPointer { JSONNumberForm($0, 0, $0.count) } }
        for good in ["0", "-0", "12", "1.5", "-0.5e7", "1E+2", "3e-0"] { XCTAssertNotNil(form(good), good) }
        for bad in ["", "01", "-01", "1.", ".5", "-", "1e", "1e+", "1-2", "+1", "1.2.3", "--1"] { XCTAssertNil(form(bad), bad) }
        XCTAssertEqual(form("1.5")?.hasFraction, true)
        XCTAssertEqual(form("1.5")?.hasExponent, false)
        XCTAssertEqual(form("1e5")?.hasExponent, true)
        XCTAssertEqual(form("15")?.hasFraction, false)
    }
}
