import APNsCore
import Foundation
@testable import Harness
@testable import Replay
import TestSupport
import XCTest
import Yams

/// Every expression of every shipped recipe (profiles/**: `when:`, `where:`, slots, kept values, header keys, any
/// `{expr:}`), changed one way at a time (``ExpressionVariants``): an operator swapped, a name misspelt, a term
/// dropped, a type changed. An expression is a scalar the loader compiles as one: not a plain name, and the scalar
/// replaced by `1 +` is refused with the expression parser's message quoting `"1 +"`.
///
/// Each variant, written into the recipe at the expression's place, must be either
/// - an error naming the file, the expression's line (`recipe.yaml:LINE:`) and a column of the variant's text
///   (`column N`, N from 1 to its length + 1), or
/// - a documented behaviour: it loads (it type-checks, so it means what it says, docs/recipes.md "Expressions")
///   and its plan over the recording its profile replays (`plan --out` lines, tokens shown, byte for byte) differs
///   from the original recipe's: the change shows in what is planned.
/// A variant that drops an operator with its identity (`+ 0`, `* 1`, `&& true`) keeps the value: it must load and plan
/// exactly what the original plans (same meaning). Any other variant that loads and plans what the original plans
/// is silent and fails the test.
///
/// The recordings planned are the shipped ones' first ``ExpressionMutations/linesPlanned`` lines (a few seconds in
/// all), followed by ``ExpressionMutations/edgeLines``: lines with the values a recording never has but an
/// expression's edge needs (order-changes written with expressions plans the same pushes as the plain recipe on
/// its recording, on purpose, so only such a line tells `&&` from `||` there).
final class ShippedExpressionMutationTests: XCTestCase {
    func testEveryVariantOfEveryShippedExpressionIsRefusedAtItsColumnOrChangesThePlan() throws {
        let (scratch, root) = try ShippedProfilesCopy.make("expression-mutants", for: self)
        try ExpressionMutations.prepareRecordings(under: root)
        var tally = ExpressionMutations.Tally()
        let profiles = try ExpressionMutations.profilesByRecipe(under: root)
        for file in try ShippedFileMutations.yamlFiles(under: root) {
            try ExpressionMutations.mutateEveryExpression(of: file, profiles: profiles, scratch: scratch, into: &tally)
        }
        let summary = "expression mutation test: \(tally.files) recipes, \(tally.expressions) expressions, \(tally.variants) variants: "
            + "\(tally.errors) errors naming file:line:column, \(tally.documented) documented behaviours (loads, plans otherwise), "
            + "\(tally.unchanged) same meaning (an identity dropped, the same plan), "
            + "\(tally.silent.count) silent, \(tally.unnamed.count) errors not naming file:line:column"
        print(summary)
        tally.assertEveryVariantJudged(silentHeading: "loaded and planned the same", unnamedHeading: "refused without naming file:line:column")
        XCTAssertGreaterThanOrEqual(tally.files, 2, "the takeout recipe and order-changes written with expressions")
        XCTAssertGreaterThanOrEqual(tally.expressions, 15, summary)
        XCTAssertGreaterThan(tally.errors, 0, summary)
        XCTAssertGreaterThan(tally.documented, 0, summary)
    }
}

/// Where the shipped expressions are, how a variant is written into its recipe, and how it is judged.
enum ExpressionMutations {
    struct Tally: ShippedMutationTally {
        var files = 0, expressions = 0, variants = 0, errors = 0, documented = 0, unchanged = 0
        var silent: [String] = []
        var unnamed: [String] = []
    }

    struct Unplannable: Error, CustomStringConvertible { let description: String }

    /// An expression of a recipe: its text, its line (1-based) and the characters of that line it is written in.
    struct Place {
        let text: String
        let line: Int
        let range: Range<Int>
    }

    /// Each recipe a shipped profile replays alone (not in a mix), by its path, with the profile; a recipe no profile names is planned with
    /// the profile whose recipe has its name (`recipe: order-changes`), on that profile's recording, by push (not
    /// broadcast, which plans one push per channel).
    static func profilesByRecipe(under root: URL) throws -> [String: URL] {
        var byPath: [String: URL] = [:]
        var byName: [String: URL] = [:]
        for file in try ShippedFileMutations.yamlFiles(under: root) {
            guard let tree = try Yams.compose(yaml: try String(contentsOf: file, encoding: .utf8)), tree["name"] != nil,
                  let config = try? ReplayRun.configuration(RunRequest(profilePath: file.path)), config.workload.mix == nil else { continue }
            for part in config.workload.parts {
                guard let recipe = part.recipe else { continue }
                let path = URL(fileURLWithPath: recipe).standardizedFileURL.path
                if byPath[path] == nil { byPath[path] = file }
                if config.deliveryMode != .broadcast, let name = try? RecipeLoader.load(path: path).name, byName[name] == nil { byName[name] = file }
            }
        }
        var out = byPath
        for file in try ShippedFileMutations.yamlFiles(under: root) where out[file.standardizedFileURL.path] == nil {
            if let name = try? RecipeLoader.load(path: file.path).name, let profile = byName[name] { out[file.standardizedFileURL.path] = profile }
        }
        return out
    }

    static let linesPlanned = 600

    /// Lines appended to a recording (by its file name), each a copy of the recording's last kept line of its kind
    /// with these values, at that last kept line's time: store 1 has followers from the recording's 22nd line to past its 600th.
    static let edgeLines: [String: [(kind: String, values: [String: Int])]] = [
        "order-changes.ndjson": [
            ("order.change", ["store_id": 1, "totalOrders": -1, "lateOrders": 0, "totalItems": 1]),
            ("order.change", ["store_id": 1, "totalOrders": 0, "lateOrders": 3, "totalItems": 0]),
        ],
    ]

    /// Each recording under `root` cut to its first ``linesPlanned`` lines, with its ``edgeLines``.
    static func prepareRecordings(under root: URL) throws {
        let all = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in all where file.pathExtension == "ndjson" {
            var lines = Array(try String(contentsOf: file, encoding: .utf8).split(separator: "\n").prefix(linesPlanned).map(String.init))
            let lastAt = lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["at"]
            for edge in edgeLines[file.lastPathComponent] ?? [] {
                guard let template = lines.last(where: { $0.contains("\"kind\":\"\(edge.kind)\"") }),
                      var object = try JSONSerialization.jsonObject(with: Data(template.utf8)) as? [String: Any] else {
                    throw Unplannable(description: "\(file.path) has no \(edge.kind) line in its first \(linesPlanned)")
                }
                object.merge(edge.values) { $1 }
                object["at"] = lastAt
                lines.append(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
            }
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        }
    }

    /// The recipe's expressions: every scalar the loader compiles as one.
    static func places(in file: URL, _ text: String) throws -> [Place] {
        guard let tree = try Yams.compose(yaml: text), tree["events"] != nil else { return [] }
        let lines = text.components(separatedBy: "\n")
        var out: [Place] = []
        for node in scalars(tree) {
            guard let value = node.string, let mark = node.mark, !Builder.isName(value), Double(value) == nil, !value.contains("{{"),
                  let place = locate(value, lines: lines, line: mark.line, column: mark.column) else { continue }
            if case let .failure(error) = load(file, writing: "1 +", at: place, in: text), "\(error)".contains("in \"1 +\"") {
                out.append(place)
            }
        }
        return out
    }

    static func scalars(_ node: Node) -> [Node] {
        switch node {
        case .scalar: return [node]
        case .mapping(let m): return m.flatMap { scalars($0.value) }
        case .sequence(let s): return s.flatMap(scalars)
        default: return []
        }
    }

    /// Where `value` is written on its line: plain, or in double quotes.
    static func locate(_ value: String, lines: [String], line: Int, column: Int) -> Place? {
        guard line >= 1, line <= lines.count else { return nil }
        let chars = Array(lines[line - 1])
        let start = column - 1
        for written in [value, "\"\(value)\""] where start + written.count <= chars.count {
            if String(chars[start ..< start + written.count]) == written { return Place(text: value, line: line, range: start ..< start + written.count) }
        }
        return nil
    }

    /// The recipe's text with `expression` written at `place` (in double quotes), loaded as `run` loads it.
    static func load(_ file: URL, writing expression: String, at place: Place, in text: String) -> Result<Recipe, Error> {
        var lines = text.components(separatedBy: "\n")
        var chars = Array(lines[place.line - 1])
        let quoted = "\"" + expression.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        chars.replaceSubrange(place.range, with: Array(quoted))
        lines[place.line - 1] = String(chars)
        return Result { try RecipeLoader.load(yaml: lines.joined(separator: "\n"), file: file.path) }
    }

    /// The plan of `recipe` over the recording of the profile whose configuration is `config`: its lines, tokens shown.
    static func plan(_ recipe: Recipe, config: RunConfig, scratch: URL) throws -> Data {
        let out = scratch.appendingPathComponent("plan.ndjson").path
        let lines = try PlanLineWriter(path: out, config: config, recipes: [recipe], showTokens: true)
        _ = try PushPlan.walk(try PushPlan.source(config, recipes: [recipe]), lines: lines)
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    /// The column an error names (`column N`), nil when it names none.
    static func column(in message: String) -> Int? {
        guard let range = message.range(of: "column [0-9]+", options: .regularExpression) else { return nil }
        return Int(message[range].dropFirst("column ".count))
    }

    static func mutateEveryExpression(of file: URL, profiles: [String: URL], scratch: URL, into tally: inout Tally) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let places = try places(in: file, text)
        guard !places.isEmpty else { return }
        guard let profile = profiles[file.standardizedFileURL.path] else {
            throw Unplannable(description: "\(file.path) has expressions, but no shipped profile replays it or a recipe of its name")
        }
        // The profile is the same for every variant: read once, not once per variant planned.
        let config = try ReplayRun.configuration(RunRequest(profilePath: profile.path))
        let baseline = try plan(try RecipeLoader.load(yaml: text, file: file.path), config: config, scratch: scratch)
        tally.files += 1
        for place in places {
            tally.expressions += 1
            for variant in try ExpressionVariants.variants(of: place.text) {
                tally.variants += 1
                let label = "\(file.lastPathComponent):\(place.line): \(variant.kind): \"\(place.text)\" → \"\(variant.text)\""
                switch load(file, writing: variant.text, at: place, in: text) {
                case .failure(let error):
                    let message = "\(error)"
                    if message.contains("\(file.path):\(place.line): "), let column = column(in: message), (1 ... variant.text.count + 1).contains(column) {
                        tally.errors += 1
                    } else {
                        tally.unnamed.append("\(label): \(message)")
                    }
                case .success(let recipe):
                    let same = try plan(recipe, config: config, scratch: scratch) == baseline
                    switch (variant.kind == ExpressionVariants.identityDropped, same) {
                    case (false, false): tally.documented += 1
                    case (true, true): tally.unchanged += 1
                    case (false, true): tally.silent.append(label)
                    case (true, false): tally.silent.append(label + " (an identity dropped, yet planned otherwise)")
                    }
                }
            }
        }
    }
}
