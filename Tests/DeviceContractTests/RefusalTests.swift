import DeviceContract
import XCTest

/// Declarations the compiler could not synthesize Decodable for, decoded types the checker cannot read,
/// and syntax errors are refused with the file and line, never passed over. (What is read past, or left
/// unchecked, is in ReadPastTests.)
final class RefusalTests: XCTestCase {
    /// Wraps `body` (members of ContentState, starting on line 3) in a minimal model.
    private func contentState(_ body: String, extra: String = "") -> String {
        "struct A: ActivityAttributes {\n    struct ContentState: Codable, Hashable {\n" + body + "\n    }\n}\n" + extra
    }

    private func assertRefused(_ source: String, line: Int, _ fragment: String, file: StaticString = #filePath, testLine: UInt = #line) {
        do {
            let model = try ModelDeclaration.parse(source: source, file: "Bad.swift")
            XCTFail("accepted: \(model)", file: file, line: testLine)
        } catch {
            XCTAssertEqual(error.file, "Bad.swift", file: file, line: testLine)
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: testLine)
            XCTAssertTrue(error.message.contains(fragment), "\(error) should mention \(fragment)", file: file, line: testLine)
            // A syntax error at a token names its column too (file:line:column:, as the compiler does).
            XCTAssertTrue(error.description.hasPrefix("Bad.swift:\(line):\(error.column.map { "\($0):" } ?? "") "), error.description,
                          file: file, line: testLine)
        }
    }

    func testDecodedTypesThatCannotBeDecodable() {
        assertRefused(contentState("        var pair: (Int, String)"), line: 3, "tuple")
        assertRefused(contentState("        var callback: () -> Void"), line: 3, "tuple and function types")
        assertRefused(contentState("        var anything: Any"), line: 3, "Any is not Decodable")
        assertRefused(contentState("        var shape: some Hashable"), line: 3, "'some' types")
        assertRefused(contentState("        var handler: (Int) -> Void = { _ in }"), line: 3, "tuple and function types")
        assertRefused(contentState("        var a: Int\n        var alias: Loop\n        typealias Loop = Loop"), line: 5, "refers to itself")
    }

    func testEnumsOutsideTheSubset() {
        assertRefused(contentState("        var step: Step\n        enum Step: Int, Codable, Hashable { case a = x }"), line: 4, "raw value of case 'a'")

        assertRefused(contentState("        var step: Step\n        enum Step: String, Codable, Hashable {\n            case a = \"x\", b = \"x\"\n        }"),
            line: 5, "used twice")
        assertRefused(contentState("        var step: Step\n        enum Step: UInt8, Codable, Hashable { case a = 255, b }"), line: 4, "does not fit UInt8")
    }

    func testDeclarationsTheCompilerWouldRejectForDecodable() {
        assertRefused(contentState("        var a: Int\n        enum CodingKeys: String, CodingKey {\n            case a, b\n        }"),
            line: 5, "CodingKeys case 'b' matches no stored property")
        assertRefused(contentState("        var a: Int\n        let b: Int\n        enum CodingKeys: String, CodingKey { case a }"),
            line: 4, "'b' has no CodingKeys case and no initial value")
        assertRefused(contentState("        var a: Int\n        var b: Optional<Int>\n        enum CodingKeys: String, CodingKey { case a }"),
            line: 4, "'b' has no CodingKeys case")
        assertRefused(contentState("        var a: Int\n        enum CodingKeys: String, CodingKey {\n"
            + "            case a = \"k\"\n            case b = \"k\"\n        }"), line: 6, "twice")
        assertRefused(contentState("        var inner: Inner\n        struct Inner: Hashable { var x: Int }"), line: 3, "does not declare Codable")
        assertRefused(contentState("        var inner: Inner?\n        struct Inner: Codable, Hashable { var again: Inner? }"), line: 4, "contains itself")
        assertRefused("struct A: ActivityAttributes {\n    var id: Int\n}\n", line: 1, "no nested ContentState")
        assertRefused("struct A: ActivityAttributes {\n    struct ContentState: Hashable { var a: Int }\n}\n", line: 2, "ContentState must declare Codable")
        assertRefused("struct A: Codable {\n    struct ContentState: Codable, Hashable {}\n}\n", line: 1, "no struct conforms to ActivityAttributes")
        assertRefused(contentState("", extra: "struct B: ActivityAttributes {\n    struct ContentState: Codable, Hashable {}\n}\n"), line: 6, "several structs")
    }

    func testOtherDeclarations() {
        assertRefused("#if DEBUG\nstruct A {}\n", line: 1, "#if without a matching #endif")
        assertRefused("#if os(iOS)\nstruct A {}\n#else\n#else\n#endif\n", line: 4, "a second #else")
        assertRefused(contentState("        var a: Int\n        #error(\"stop\")"), line: 4, "#error")
        assertRefused(contentState("        var a: Int", extra: "extension A {\n    var stored: Int = 0\n}\n"),
            line: 7, "extensions cannot contain stored property")
    }

    func testSyntaxErrors() {
        assertRefused("struct A: ActivityAttributes {\n    /* unterminated\n", line: 2, "unterminated /* comment")
        assertRefused("struct A: ActivityAttributes {\n    let s = \"open\n}\n", line: 2, "unterminated string literal")
        assertRefused("struct A: ActivityAttributes {\n    struct ContentState: Codable, Hashable {\n", line: 3, "missing '}'")
        assertRefused("struct A: ActivityAttributes {\n}\n}\n", line: 3, "unexpected '}'")
        XCTAssertEqual((try? ModelDeclaration.parse(source: "struct A {\n}\n  }\n", file: "Bad.swift")).map { "\($0)" } ?? "refused", "refused")
        do { _ = try ModelDeclaration.parse(source: "struct A {\n}\n  }\n", file: "Bad.swift") } catch {
            XCTAssertEqual(error.description, "Bad.swift:3:3: unexpected '}'")
        }
        assertRefused("struct A: ActivityAttributes {\n    var x: [Int\n}\n", line: 3, "unbalanced '}'")
        assertRefused("func f() {\n", line: 1, "unbalanced '{'")
    }
}
