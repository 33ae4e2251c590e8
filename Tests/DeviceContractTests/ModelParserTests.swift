import DeviceContract
import Foundation
import XCTest

/// What the parser reads from accepted declarations: which keys are decoded, in which order, and how.
final class ModelParserTests: XCTestCase {
    private func parse(_ source: String, root: String? = nil) throws -> ActivityKitModel {
        try ModelDeclaration.parse(source: source, file: "Model.swift", attributesType: root)
    }

    private func failures(_ model: ActivityKitModel, _ contentState: String, strategy: DateStrategy = .deferredToDate) -> [DecodeFailure] {
        let payload = #"{"aps":{"event":"update","content-state":\#(contentState)}}"#
        return PayloadCheck(model: model, dateStrategy: strategy).check(payload: Array(payload.utf8), event: .update)
    }

    func testStoredPropertiesFollowSynthesizedCodableRules() throws {
        let model = try parse("""
        import ActivityKit
        import Foundation

        /// Doc comment.
        struct A: ActivityAttributes {
            // A line comment.
            struct ContentState: Codable, Hashable {
                let fixed = 5                  // let with a value: not decoded
                let typedFixed: Int = 6        // not decoded either
                var defaulted: Int = 7         // decoded, and still required
                var inferred = "x"             // decoded as String
                var maybe: Int?                // decodeIfPresent
                var observed: Int = 0 {
                    didSet { print(observed) }
                }
                lazy var cache: [Int] = []     // lazy: not decoded
                var computed: Int { fixed + 1 }
                var icon: some View { Image(systemName: "clock") }
                static var handler: (Int) -> Void = { _ in }
                private var pair: (Int, Int) { (1, 2) }
                var withGetter: String {
                    get { "" }
                }
                static var shared = 1
                static let other: Int = { 2 }()
                /* block /* nested */ comment */
                func helper() -> Int { let x = 1; return x }
                init(defaulted: Int) { self.defaulted = defaulted }
                subscript(index: Int) -> Int { index }
            }
            @available(iOS 16.1, *)
            public private(set) var name: String
        }
        """)
        XCTAssertEqual(model.contentStateKeys, ["defaulted", "inferred", "maybe", "observed"])
        XCTAssertEqual(model.attributesKeys, ["name"])
        XCTAssertEqual(failures(model, #"{"defaulted":1,"inferred":"y","observed":2}"#), [])
        XCTAssertEqual(failures(model, #"{"inferred":"y","observed":2}"#).map(\.path), ["content-state.defaulted"])
        XCTAssertEqual(failures(model, #"{"defaulted":1,"inferred":3,"observed":2}"#).map(\.reason), [.typeMismatch])
    }

    func testCodingKeysRenameReorderAndExclude() throws {
        let model = try parse("""
        struct A: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                var first: Int
                var second: String
                var skipped: Bool = false
                var skippedOptional: Int?
                var `default`: Int
                enum CodingKeys: String, CodingKey {
                    case second = "second_key"
                    case first, `default`
                }
            }
        }
        """)
        XCTAssertEqual(model.contentStateKeys, ["second_key", "first", "default"])
        XCTAssertEqual(failures(model, "{}").map(\.path), ["content-state.second_key", "content-state.first", "content-state.default"])
    }

    func testCodingKeysWithoutStringRawTypeUseCaseNames() throws {
        let model = try parse("""
        struct A: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                var a: Int
                enum CodingKeys: CodingKey { case a }
            }
        }
        """)
        XCTAssertEqual(model.contentStateKeys, ["a"])
    }

    func testTypesResolveLexically() throws {
        let model = try parse("""
        enum Shared: Int, Codable { case zero, one, five = 5, six }
        struct A: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                enum Status: String, Codable { case pending, approved = "APPROVED", `default` }
                struct Line: Codable, Hashable { var sku: String; var qty: UInt8 }
                var status: Status
                var shared: Shared
                var lines: [Line]
                var byID: Dictionary<String, Line>
                var ids: Array<Foundation.UUID>
                var at: Foundation.Date
                var elapsed: TimeInterval
                var link: Swift.Optional<URL>
            }
        }
        """)
        print(model.description)
        let ok = #"{"status":"APPROVED","shared":6,"lines":[{"sku":"a","qty":255}],"byID":{},"ids":[],"at":1,"elapsed":2.5}"#
        XCTAssertEqual(failures(model, ok), [])
        XCTAssertEqual(failures(model, ok.replacingOccurrences(of: "APPROVED", with: "approved")).map(\.reason), [.badEnumValue])
        XCTAssertEqual(failures(model, ok.replacingOccurrences(of: "\"shared\":6", with: "\"shared\":4")).map(\.reason), [.badEnumValue])
        XCTAssertEqual(failures(model, ok.replacingOccurrences(of: "\"status\":\"APPROVED\"", with: "\"status\":\"default\"")), [])
        XCTAssertEqual(failures(model, ok.replacingOccurrences(of: "255", with: "256")).map(\.path), ["content-state.lines[0].qty"])
    }

    func testExtensionsAddConformancesAndNestedTypes() throws {
        let model = try parse("""
        struct A: ActivityAttributes {
            var id: String
        }
        extension A {
            struct ContentState: Hashable {
                var step: Step
            }
            static var preview: A { A(id: "x") }
        }
        extension A.ContentState: Codable {
            enum Step: Int, Codable { case one = 1, two }
            func label() -> String { "\\(step)" }
        }
        extension Date {
            var isFuture: Bool { self > Date() }
        }
        """)
        XCTAssertEqual(model.contentStateKeys, ["step"])
        XCTAssertEqual(failures(model, #"{"step":2}"#), [])
        XCTAssertEqual(failures(model, #"{"step":3}"#).map(\.reason), [.badEnumValue])
    }

    func testBlocksAnIPhoneCompilesAreRead() throws {
        let model = try parse("""
        #if canImport(ActivityKit)
        import ActivityKit

        struct A: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                #if os(iOS)
                var onlyOnIOS: Int
                #endif
            }
        }
        #endif
        #Preview("Lock screen") {
            Text("hello")
        }
        """)
        XCTAssertEqual(model.contentStateKeys, ["onlyOnIOS"])
    }

    func testRootCanBeNamedAndNestedRecursionThroughArraysIsFine() throws {
        let source = """
        struct Tree: Codable, Hashable { var children: [Tree]; var parent: [String: Tree]? }
        struct First: Codable {
            struct ContentState: Codable, Hashable { var tree: Tree }
        }
        struct Second: Codable {
            struct ContentState: Codable, Hashable { var count: Int }
        }
        """
        let model = try parse(source, root: "First")
        XCTAssertEqual(model.attributesTypeName, "First")
        XCTAssertEqual(failures(model, #"{"tree":{"children":[{"children":[]},{"children":[{"children":"x"}]}]}}"#).map(\.path),
                       ["content-state.tree.children[1].children[0].children"])
        XCTAssertEqual(try parse(source, root: "Second").contentStateKeys, ["count"])
    }

    func testDescriptionListsKeysAndTypes() throws {
        let model = try ModelDeclaration.parse(source: deliveryDeclaration, file: "Delivery.swift")
        let text = model.description
        XCTAssertTrue(text.contains(#""eta_s": Int  (property etaSeconds)"#), text)
        XCTAssertTrue(text.contains(#"DeliveryAttributes.ContentState.Stage: String, one of "picked_up", "in_transit", "delivered""#), text)
        XCTAssertTrue(text.contains(#"DeliveryAttributes.ContentState.Priority: Int, one of 1, 2, 3"#), text)
        XCTAssertFalse(text.contains("schemaVersion"), text)
    }
}
