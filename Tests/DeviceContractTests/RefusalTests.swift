import DeviceContract
import XCTest

/// Declarations outside the subset, or that the compiler could not synthesize Decodable for, are
/// refused with the file and line, never passed over.
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
            XCTAssertTrue(error.description.hasPrefix("Bad.swift:\(line): "), error.description, file: file, line: testLine)
        }
    }

    func testGenericsWrappersAndExoticTypes() {
        assertRefused(contentState("        struct Box<T>: Codable, Hashable { var value: T }"), line: 3, "generic type 'Box'")
        assertRefused(contentState("        var box: Box<Int>", extra: "struct Box: Codable, Hashable {}"), line: 3, "generic type 'Box<…>'")
        assertRefused(contentState("        @Published var count: Int"), line: 3, "@Published")
        assertRefused(contentState("        @Clamped(0...5) var level: Int"), line: 3, "@Clamped")
        assertRefused(contentState("        var pair: (Int, String)"), line: 3, "tuple")
        assertRefused(contentState("        var callback: () -> Void"), line: 3, "tuple and function types")
        assertRefused(contentState("        var tags: Set<String>"), line: 3, "generic type 'Set<…>'")
        assertRefused(contentState("        var blob: Data"), line: 3, "Data")
        assertRefused(contentState("        var anything: Any"), line: 3, "Any")
        assertRefused(contentState("        var shape: some Hashable"), line: 3, "'some' types")
        assertRefused(contentState("        var handler: (Int) -> Void = { _ in }"), line: 3, "tuple and function types")
        assertRefused(contentState("        var status: Unknown"), line: 3, "unknown type 'Unknown'")
        assertRefused(contentState("        var nested: Int??"), line: 3, "nested optionals")
        assertRefused(contentState("        var flags: [Bool: Int]"), line: 3, "dictionary keys")
        assertRefused(contentState("        weak var owner: AnyObject?"), line: 3, "'weak'")
        assertRefused(contentState("        var a: Int, b: Int"), line: 3, "one property per let/var")
        assertRefused(contentState("        var (a, b): (Int, Int)"), line: 3, "tuple patterns")
        assertRefused(contentState("        var total = a + b"), line: 3, "inferred from an expression")
    }

    func testEnumsOutsideTheSubset() {
        assertRefused(contentState("        var step: Step\n        indirect enum Step: Codable, Hashable { case end }"), line: 4, "indirect")
        assertRefused(contentState("        var step: Step\n        enum Step: Codable, Hashable {\n            case moved(Int)\n        }"), line: 5, "associated values")
        assertRefused(contentState("        var step: Step\n        enum Step: Codable, Hashable { case a, b }"), line: 4, "no String or integer raw type")
        assertRefused(contentState("        var step: Step\n        enum Step: Double, Codable, Hashable { case a = 1.5 }"), line: 4, "raw value of case 'a'")
        assertRefused(contentState("        var step: Step\n        enum Step: String, Codable, Hashable {\n            case a = \"x\", b = \"x\"\n        }"), line: 5, "used twice")
        assertRefused(contentState("        var step: Step\n        enum Step: UInt8, Codable, Hashable { case a = 255, b }"), line: 4, "does not fit UInt8")
    }

    func testDeclarationsTheCompilerWouldRejectForDecodable() {
        assertRefused(contentState("        var a: Int\n        enum CodingKeys: String, CodingKey {\n            case a, b\n        }"), line: 5, "CodingKeys case 'b' matches no stored property")
        assertRefused(contentState("        var a: Int\n        let b: Int\n        enum CodingKeys: String, CodingKey { case a }"), line: 4, "'b' has no CodingKeys case and no initial value")
        assertRefused(contentState("        var a: Int\n        var b: Optional<Int>\n        enum CodingKeys: String, CodingKey { case a }"), line: 4, "'b' has no CodingKeys case")
        assertRefused(contentState("        var a: Int\n        enum CodingKeys: String, CodingKey {\n            case a = \"k\"\n            case b = \"k\"\n        }"), line: 6, "twice")
        assertRefused(contentState("        var inner: Inner\n        struct Inner: Hashable { var x: Int }"), line: 3, "does not declare Codable")
        assertRefused(contentState("        var inner: Inner?\n        struct Inner: Codable, Hashable { var again: Inner? }"), line: 4, "contains itself")
        assertRefused("struct A: ActivityAttributes {\n    var id: Int\n}\n", line: 1, "no nested ContentState")
        assertRefused("struct A: ActivityAttributes {\n    struct ContentState: Hashable { var a: Int }\n}\n", line: 2, "ContentState must declare Codable")
        assertRefused("struct A: Codable {\n    struct ContentState: Codable, Hashable {}\n}\n", line: 1, "no struct conforms to ActivityAttributes")
        assertRefused(contentState("", extra: "struct B: ActivityAttributes {\n    struct ContentState: Codable, Hashable {}\n}\n"), line: 6, "several structs")
    }

    func testCustomDecodingAndOtherDeclarations() {
        assertRefused(contentState("        var a: Int\n        init(from decoder: Decoder) throws {\n            a = 1\n        }"), line: 4, "custom init(from:)")
        assertRefused(contentState("        var a: Int", extra: "extension A.ContentState {\n    init(from decoder: any Decoder) throws { a = 1 }\n}\n"), line: 7, "custom init(from:)")
        assertRefused(contentState("        var a: Int", extra: "class Helper {}\n"), line: 6, "class declarations")
        assertRefused(contentState("        var a: Int", extra: "protocol Shape {}\n"), line: 6, "protocol declarations")
        assertRefused(contentState("        typealias Count = Int\n        var a: Count"), line: 3, "typealias")
        assertRefused("#if DEBUG\nstruct A {}\n#else\nstruct B {}\n#endif\n", line: 3, "#else")
        assertRefused("#if DEBUG\nstruct A {}\n", line: 1, "#if without a matching #endif")
        assertRefused(contentState("        var a: Int", extra: "extension A {\n    var stored: Int = 0\n}\n"), line: 7, "extensions cannot contain stored property")
    }

    func testSyntaxErrors() {
        assertRefused("struct A: ActivityAttributes {\n    /* unterminated\n", line: 2, "unterminated /* comment")
        assertRefused("struct A: ActivityAttributes {\n    let s = \"open\n}\n", line: 2, "unterminated string literal")
        assertRefused("struct A: ActivityAttributes {\n    struct ContentState: Codable, Hashable {\n", line: 3, "missing '}'")
        assertRefused("struct A: ActivityAttributes {\n}\n}\n", line: 3, "unexpected '}'")
        assertRefused("struct A: ActivityAttributes {\n    var x: [Int\n}\n", line: 3, "expected ']'")
        assertRefused("func f() {\n", line: 1, "unbalanced '{'")
    }
}
