import DeviceContract
import XCTest

/// What a model file holds beside the model does not stop the check, and a part whose decoding cannot be
/// known from its declaration is reported as not checked while the rest is checked.
final class ReadPastTests: XCTestCase {
    private func contentState(_ body: String, extra: String = "") -> String {
        "struct A: ActivityAttributes {\n    struct ContentState: Codable, Hashable {\n" + body + "\n    }\n}\n" + extra
    }

    private func verdict(_ model: ActivityKitModel, _ contentState: String) -> SentPayloadVerdict {
        PayloadCheck(model: model).checkAsSent(payload: Array(#"{"aps":{"event":"update","content-state":\#(contentState)}}"#.utf8))
    }

    func testACustomInitFromIsNotCheckedAndTheRestIs() throws {
        let source = contentState("""
                var route: Route
                var eta: Int
                struct Route: Codable, Hashable {
                    var stops: [String]
                    init(from decoder: Decoder) throws {
                        stops = try decoder.singleValueContainer().decode([String].self)
                    }
                }
        """)
        let model = try ModelDeclaration.parse(source: source, file: "Route.swift")
        XCTAssertEqual(model.unchecked.map(\.description), ["A.ContentState.Route (line 7): its own init(from:) decides what it decodes"])
        XCTAssertEqual(verdict(model, #"{"route":["a"],"eta":5}"#), .checkedPartly(.update, []))
        guard case .checkedPartly(.update, let failures) = verdict(model, #"{"route":"anything","eta":"5"}"#) else { return XCTFail("checked partly") }
        XCTAssertEqual(failures.map(\.path), ["content-state.eta"])
        XCTAssertEqual(verdict(model, #"{"eta":5}"#).failures.map(\.path), ["content-state.route"], "a missing key is missing whatever decodes it")
    }

    func testAContentStateWithItsOwnInitFromRunsUnchecked() throws {
        let model = try ModelDeclaration.parse(source: contentState("        var a: Int\n        init(from decoder: any Decoder) throws { a = 1 }"),
            file: "Own.swift")
        XCTAssertEqual(model.unchecked.map(\.line), [4])
        XCTAssertEqual(model.contentStateKeys, [])
        XCTAssertEqual(verdict(model, #"{"a":"not a number"}"#), .checkedPartly(.update, []))
    }

    func testTypesFromOtherFilesWrappersAndGenericsAreNotChecked() throws {
        let model = try ModelDeclaration.parse(source: contentState("""
                var driver: Driver
                @Clamped(0...5) var level: Int
                var box: Box<Int>
                var total = 1 + 2
                var flags: [Bool: Int]
                var speed: Speed
                enum Speed: Double, Codable, Hashable { case slow = 0.5, fast = 2 }
                var ok: Int
        """, extra: "struct Box<T: Codable & Hashable>: Codable, Hashable { var value: T }\n"), file: "Other.swift")
        XCTAssertEqual(model.unchecked.map(\.typeName), ["Driver", "A.ContentState.level", "Box<…>", "A.ContentState.total",
                                                         "a dictionary whose keys are neither String nor Int", "A.ContentState.Speed"])
        XCTAssertEqual(verdict(model, #"{"driver":1,"level":"x","box":null,"total":[],"flags":[true,1],"speed":0.5,"ok":1}"#), .checkedPartly(.update, []))
        XCTAssertEqual(verdict(model, #"{"driver":1,"level":"x","box":null,"total":[],"flags":{},"speed":"x","ok":"1"}"#).failures.map(\.path),
            ["content-state.ok"])
    }

    func testWhatAFileHoldsBesideTheModelIsReadPast() throws {
        let model = try ModelDeclaration.parse(source: """
        import ActivityKit
        import SwiftUI
        @preconcurrency import WidgetKit

        class ViewModel: ObservableObject { @Published var count = 0 }
        protocol Shape { associatedtype Value }
        actor Store { var items: [Int] = [] }
        typealias Count = Int

        @available(iOS 16.2, *)
        struct A: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                var home, away: Count
                var note: String? { didSet { } }
                var label: String { "\\(home):\\(away)" }
                func total() -> Int { home + away }
                #warning("keep in step with the server")
            }
            var name: String
        }

        struct Card: View {
            let action: () -> Void
            @State private var expanded = false
            var body: some View { Text("x") }
        }

        extension A.ContentState {
            static let preview = A.ContentState(home: 1, away: 2)
        }

        #Preview("Card", as: .content, using: A(name: "x")) {
            Card(action: {})
        } contentStates: {
            A.ContentState.preview
        }
        """, file: "Everything.swift")
        XCTAssertEqual(model.contentStateKeys, ["home", "away", "note"])
        XCTAssertEqual(model.attributesKeys, ["name"])
        XCTAssertEqual(model.unchecked, [])
    }

    func testAPropertyNameWhereTheKeyDiffersSaysSo() throws {
        let model = try ModelDeclaration.parse(source: contentState("""
                var estimatedArrival: Int
                enum CodingKeys: String, CodingKey { case estimatedArrival = "eta" }
        """), file: "Keys.swift")
        let failure = try XCTUnwrap(verdict(model, #"{"estimatedArrival":5}"#).failures.first)
        XCTAssertEqual(failure.path, "content-state.eta")
        XCTAssertEqual(failure.reason, .missingKey)
        XCTAssertTrue(failure.message.hasSuffix("`estimatedArrival` is the property; the key is `eta`"), failure.message)
        XCTAssertFalse(try XCTUnwrap(verdict(model, "{}").failures.first).message.contains("is the property"))
    }

    func testEnumsWithoutARawTypeAndTypeAliasesAreRead() throws {
        let model = try ModelDeclaration.parse(source: contentState("""
                typealias Watts = Double
                enum Phase: Codable, Hashable { case idle, charging(power: Watts), paused(Int, String?) }
                indirect enum Tree: Codable, Hashable { case leaf, node(Tree, Tree) }
                var phase: Phase
                var tree: Tree?
        """), file: "Enums.swift")
        XCTAssertTrue(model.description.contains(#"A.ContentState.Phase: one of {"idle": {}}, {"charging": {"power": Double}}, "#
            + #"{"paused": {"_0": Int, "_1": String?}}"#), model.description)
        XCTAssertEqual(verdict(model, #"{"phase":{"paused":{"_0":1}},"tree":{"node":{"_0":{"leaf":{}},"_1":{"node":{"_0":{"leaf":{}},"_1":{"leaf":{}}}}}}}"#),
            .checked(.update, []))
        XCTAssertEqual(verdict(model, #"{"phase":{"charging":{"power":"1"}}}"#).failures.map(\.path), ["content-state.phase.charging.power"])
        XCTAssertEqual(verdict(model, #"{"phase":{"idle":{}},"tree":{"node":{"_0":{"leaf":{}}}}}"#).failures.map(\.path), ["content-state.tree.node._1"])
    }
}
