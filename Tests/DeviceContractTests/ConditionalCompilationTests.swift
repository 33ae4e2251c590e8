import DeviceContract
import XCTest

/// `#if` blocks as an iPhone's build compiles them: iOS, a Release build unless flags say otherwise,
/// ActivityKit importable; a condition that cannot be known is an error naming it and where to set it.
final class ConditionalCompilationTests: XCTestCase {
    /// A model whose ContentState holds `required: Int` inside `#if <condition>`, and `always: Int` outside.
    private func keys(_ condition: String, elseBranch: String? = nil, flags: Set<String>? = nil) throws -> [String] {
        var body = "        var always: Int\n        #if \(condition)\n        var required: Int\n"
        if let elseBranch { body += "        #else\n        var \(elseBranch): Int\n" }
        body += "        #endif\n"
        let source = "struct A: ActivityAttributes {\n    struct ContentState: Codable, Hashable {\n" + body + "    }\n}\n"
        let conditions = CompilationConditions(flags: flags, flagsSetting: "'activity_model_flags'")
        return try ModelDeclaration.parse(source: source, file: "If.swift", conditions: conditions).contentStateKeys
    }

    func testFalseIsNotCompiled() throws {
        XCTAssertEqual(try keys("false"), ["always"])
        XCTAssertEqual(try keys("true"), ["always", "required"])
    }

    func testOtherPlatformsAreNotCompiled() throws {
        XCTAssertEqual(try keys("!os(iOS)"), ["always"])
        XCTAssertEqual(try keys("os(macOS) || os(watchOS)"), ["always"])
        XCTAssertEqual(try keys("os(iOS)"), ["always", "required"])
        XCTAssertEqual(try keys("targetEnvironment(simulator)"), ["always"])
        XCTAssertEqual(try keys("canImport(ActivityKit) && !canImport(AppKit)"), ["always", "required"])
        XCTAssertEqual(try keys("arch(arm64)"), ["always", "required"])
    }

    func testDebugIsUnsetInAReleaseBuildAndSetByTheFlags() throws {
        XCTAssertEqual(try keys("DEBUG"), ["always"])
        XCTAssertEqual(try keys("DEBUG", flags: ["DEBUG"]), ["always", "required"])
        XCTAssertEqual(try keys("!DEBUG"), ["always", "required"])
    }

    func testElseIfAndElseTakeTheFirstBranchThatHolds() throws {
        XCTAssertEqual(try keys("DEBUG", elseBranch: "release"), ["always", "release"])
        XCTAssertEqual(try keys("os(iOS)", elseBranch: "other"), ["always", "required"])
        let source = """
        struct A: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                #if os(watchOS)
                var watch: Int
                #elseif os(iOS) && DEBUG
                var debug: Int
                #elseif os(iOS) || BETA
                var phone: Int
                #else
                var other: Int
                #endif
            }
        }
        """
        XCTAssertEqual(try ModelDeclaration.parse(source: source, file: "If.swift").contentStateKeys, ["phone"])
    }

    func testAnUnknownFlagIsAnErrorNamingItAndTheKey() throws {
        XCTAssertThrowsError(try keys("BETA")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("If.swift:4: #if: "), text)
            XCTAssertTrue(text.contains("'BETA'") && text.contains("'activity_model_flags'"), text)
        }
        XCTAssertEqual(try keys("BETA", flags: ["BETA"]), ["always", "required"])
        XCTAssertEqual(try keys("BETA", flags: []), ["always"])
        // The rest of the condition decides, so the flag need not be known.
        XCTAssertEqual(try keys("false && BETA"), ["always"])
        XCTAssertEqual(try keys("os(iOS) || BETA"), ["always", "required"])
    }

    func testVersionsAreKnownWhereEveryAppStoreToolchainAgrees() throws {
        XCTAssertEqual(try keys("swift(>=5.9)"), ["always", "required"])
        XCTAssertEqual(try keys("compiler(>=6.0)"), ["always", "required"])
        XCTAssertEqual(try keys("compiler(<5.10)"), ["always"])
        XCTAssertThrowsError(try keys("swift(>=6.0)")) { XCTAssertTrue("\($0)".contains("language mode"), "\($0)") }
        XCTAssertThrowsError(try keys("canImport(SomePackage)")) { XCTAssertTrue("\($0)".contains("canImport(SomePackage)"), "\($0)") }
    }

    func testInactiveBranchesAreNotRead() throws {
        // Code no iPhone build compiles may be anything, even what this reader cannot read.
        XCTAssertEqual(try keys("os(Linux)\n        var pair: (Int, Int)\n        class X { }"), ["always"])
    }
}
