import APNsCore
import APNsSimulator
import Foundation
@testable import Harness
import Replay
import RunOptions
import TestSupport
import XCTest
import Yams

/// Every key of every shipped profile, recipe and simulator configuration (profiles/*.yaml, profiles/recipes,
/// profiles/examples, profiles/ci-simulator.yaml) and of the APNs model file docs/tuning.md shows (its YAML block
/// that starts with `# NAME.yaml` and holds `simulator:`), changed one way at a time: removed, duplicated, emptied,
/// given a value of the wrong kind, misspelled by one letter. Each variant must be refused with an error naming
/// the file and the key, load to the same meaning, or load with a behaviour the docs state
/// (``ShippedFileMutations/documented``, each with the docs' sentence). A variant that loads silently with another
/// meaning fails the test. Loaded in process as `run` checks a profile before anything starts
/// (``ReplayRun/configuration(_:)``; a model file as `--apns-model` over profiles/order-changes.yaml), and a
/// simulator configuration as `simulate --config` reads it (``SimulatorConfigFile``), nothing run.
final class ShippedFileMutationTests: XCTestCase {
    func testEveryVariantOfEveryShippedKeyIsRefusedNamingItOrDocumented() throws {
        let (scratch, root) = try ShippedProfilesCopy.make("mutants", for: self)
        let files = try ShippedFileMutations.yamlFiles(under: root) + [try ShippedFileMutations.tuningModelFile(in: scratch)]
        XCTAssertGreaterThanOrEqual(files.count, 24, "the shipped profiles, recipes, simulator configuration and model file: \(files)")
        var tally = ShippedFileMutations.Tally()
        for file in files {
            try ShippedFileMutations.mutateEveryKey(of: file, root: root, into: &tally)
        }
        XCTAssertEqual(Set(tally.kinds), Set(ShippedFileMutations.Kind.allCases), "every kind of shipped file walked")
        let summary = "mutation test: \(tally.files) files, \(tally.keys) keys, \(tally.variants) variants: \(tally.errors) errors naming file and key, "
            + "\(tally.unchanged) same meaning, \(tally.documented) documented behaviours, \(tally.silent.count) silent, \(tally.unnamed.count) "
            + "errors not naming the key"
        print(summary)
        tally.assertEveryVariantJudged(silentHeading: "loaded silently with another meaning", unnamedHeading: "refused without naming the file and the key")
        XCTAssertGreaterThan(tally.errors, tally.variants / 2, summary)
    }
}

/// The variants, how each is loaded and judged, and what the docs say loads.
enum ShippedFileMutations {
    enum Variant: String, CaseIterable {
        case removed, duplicated, emptied, wrongKind = "wrong kind", misspelled
    }

    struct Unloadable: Error, CustomStringConvertible { let description: String }

    /// What a shipped YAML file is, told by its top-level keys: a recipe has `events:`, a profile `name:`, an APNs
    /// model file `simulator:` (and `source:`) only; anything else is a simulator configuration.
    enum Kind: CaseIterable {
        case recipe, profile, modelFile, simulatorConfig

        init(_ tree: Node) {
            let keys = tree.mapping?.keys.compactMap(\.string) ?? []
            if keys.contains("events") {
                self = .recipe
            } else if keys.contains("name") {
                self = .profile
            } else if keys.contains("simulator"), keys.allSatisfy(APNsLatencyModelFile.keys.contains) {
                self = .modelFile
            } else {
                self = .simulatorConfig
            }
        }
    }

    struct Tally: ShippedMutationTally {
        var kinds: [Kind] = []
        var files = 0, keys = 0, variants = 0, errors = 0, unchanged = 0, documented = 0
        var silent: [String] = []
        var unnamed: [String] = []
    }

    /// A variant that loads with another meaning the docs state: the key (the last component of its path,
    /// or `*` for any), the variant, and the docs' sentence.
    struct Documented {
        let key: String
        let variant: Variant
        let sentence: String
    }

    /// docs/tuning.md's model file, written into `scratch` under the name its first line gives.
    static func tuningModelFile(in scratch: URL) throws -> URL {
        let doc = try String(contentsOf: RepoFiles.root.appendingPathComponent("docs/tuning.md"), encoding: .utf8)
        let blocks = doc.components(separatedBy: "```yaml\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let models = blocks.filter { $0.hasPrefix("# ") && $0.contains("\nsimulator:") }
        guard models.count == 1, let name = models[0].split(separator: "\n").first?.dropFirst(2), name.hasSuffix(".yaml") else {
            throw Unloadable(description: "docs/tuning.md shows \(models.count) model files (a YAML block starting '# NAME.yaml' with simulator:), not 1")
        }
        let file = scratch.appendingPathComponent("docs").appendingPathComponent(String(name))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try models[0].write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func yamlFiles(under root: URL) throws -> [URL] {
        let all = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return all.filter { $0.pathExtension == "yaml" && !$0.path.contains("/models/") && !$0.path.contains("/streams/") && !$0.path.contains("/templates/") }
            .sorted { $0.path < $1.path }
    }

    /// A key of the file: where its mapping is (indices from the root), its index in that mapping, and its
    /// dotted path for messages.
    struct KeyPlace {
        let route: [Int]
        let index: Int
        let key: String
        let path: String
        /// The key whose value is the mapping holding this key ("" at the top level).
        let parent: String
    }

    static func places(_ node: Node, route: [Int] = [], path: String = "", parent: String = "") -> [KeyPlace] {
        switch node {
        case .mapping(let m):
            var out: [KeyPlace] = []
            for (i, pair) in m.enumerated() {
                let key = pair.key.string ?? "?"
                let here = path.isEmpty ? key : "\(path).\(key)"
                out.append(KeyPlace(route: route, index: i, key: key, path: here, parent: parent))
                out += places(pair.value, route: route + [i], path: here, parent: key)
            }
            return out
        case .sequence(let s):
            return s.enumerated().flatMap { i, item in places(item, route: route + [i], path: "\(path)[\(i)]", parent: parent) }
        default:
            return []
        }
    }

    /// `node` with the mapping at `route` changed by `change`.
    static func changing(_ node: Node, at route: ArraySlice<Int>, _ change: (inout [(Node, Node)]) -> Void) -> Node {
        switch node {
        case .mapping(let m):
            var pairs = m.map { ($0.key, $0.value) }
            if let first = route.first {
                pairs[first].1 = changing(pairs[first].1, at: route.dropFirst(), change)
            } else {
                change(&pairs)
            }
            return .mapping(Node.Mapping(pairs, m.tag, m.style))
        case .sequence(let s):
            var items = Array(s)
            if let first = route.first { items[first] = changing(items[first], at: route.dropFirst(), change) }
            return .sequence(Node.Sequence(items, s.tag, s.style))
        default:
            return node
        }
    }

    /// The key misspelled by one letter: its middle letter dropped (a one-letter key gets a letter added).
    static func misspelled(_ key: String) -> String {
        guard key.count > 1 else { return key + "x" }
        var chars = Array(key)
        chars.remove(at: chars.count / 2)
        return String(chars)
    }

    static func mutated(_ root: Node, _ place: KeyPlace, _ variant: Variant) -> Node {
        changing(root, at: place.route[...]) { pairs in
            let (key, value) = pairs[place.index]
            switch variant {
            case .removed: pairs.remove(at: place.index)
            case .duplicated: pairs.insert((key, value), at: place.index + 1)
            case .emptied:
                switch value {
                case .mapping: pairs[place.index].1 = .mapping([:])
                case .sequence: pairs[place.index].1 = .sequence([])
                default: pairs[place.index].1 = Node("", Tag(.str), .doubleQuoted)
                }
            case .wrongKind:
                switch value {
                case .scalar: pairs[place.index].1 = .sequence([value])
                default: pairs[place.index].1 = Node("text", Tag(.str), .plain)
                }
            case .misspelled: pairs[place.index].0 = Node(misspelled(place.key))
            }
        }
    }

    /// What `file` (its text `yaml`, a `kind`) loads as (its meaning, as text), or the error it is refused with. A
    /// recipe and a simulator configuration are read from the text; a profile and a model file from the file, as
    /// `run` reads them.
    static func load(_ file: URL, _ yaml: String, _ kind: Kind, root: URL) -> Result<String, Error> {
        do {
            switch kind {
            case .recipe:
                let recipe = try RecipeLoader.load(yaml: yaml, file: file.path)
                var text = ""
                dump(recipe, to: &text, maxDepth: 12)
                return .success(text)
            case .simulatorConfig:
                var configuration = SimulatorConfiguration()
                try SimulatorConfigFile.apply(yaml: yaml, file: file.path, to: &configuration)
                var text = ""
                dump(configuration, to: &text, maxDepth: 12)
                return .success(text)
            case .profile, .modelFile:
                var request = RunRequest(profilePath: kind == .profile ? file.path : root.appendingPathComponent("order-changes.yaml").path)
                if kind == .modelFile { request.overrides.apnsModel = file.path }
                let config = try ReplayRun.configuration(request)
                _ = try Workloads.recipes(for: config)
                // Keys sorted: two equal dictionaries may list their keys in different orders.
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                let json = try encoder.encode(config) + encoder.encode(config.simulator.modelFileSettings)
                return .success(String(decoding: json, as: UTF8.self))
            }
        } catch {
            return .failure(error)
        }
    }

    static func mutateEveryKey(of file: URL, root: URL, into tally: inout Tally) throws {
        let original = try String(contentsOf: file, encoding: .utf8)
        defer { try? original.write(to: file, atomically: true, encoding: .utf8) }
        guard let tree = try Yams.compose(yaml: original) else { return }
        let kind = Kind(tree)
        let fromFile = kind == .profile || kind == .modelFile
        // The file as the emitter writes it back: the baseline every variant is compared with.
        let written = try Yams.serialize(node: tree)
        if fromFile { try written.write(to: file, atomically: true, encoding: .utf8) }
        let baseline: String
        switch load(file, written, kind, root: root) {
        case .success(let meaning): baseline = meaning
        case .failure(let error): throw Unloadable(description: "\(file.path) does not load once written back by the YAML emitter: \(error)")
        }
        let name = file.path.replacingOccurrences(of: root.deletingLastPathComponent().path + "/", with: "")
        tally.files += 1
        tally.kinds.append(kind)
        // A simulator configuration is what a profile's `simulator:` section holds.
        for place in places(tree, parent: kind == .simulatorConfig ? "simulator" : "") {
            tally.keys += 1
            for variant in Variant.allCases {
                tally.variants += 1
                let yaml = try Yams.serialize(node: mutated(tree, place, variant))
                // Written in place, not atomically: an atomic write syncs the disk and renames, the slowest part of a variant.
                if fromFile { try yaml.write(to: file, atomically: false, encoding: .utf8) }
                let label = "\(name): \(place.path): \(variant.rawValue)"
                switch load(file, yaml, kind, root: root) {
                case .failure(let error):
                    let text = "\(error)"
                    let keys = [place.key, misspelled(place.key)] + place.path.split(whereSeparator: { ".[]".contains($0) }).map(String.init)
                    if text.contains(file.lastPathComponent), keys.contains(where: { text.contains($0) }) {
                        tally.errors += 1
                    } else {
                        tally.unnamed.append("\(label): \(text)")
                    }
                case .success(let meaning):
                    if meaning == baseline {
                        tally.unchanged += 1
                    } else if documented.contains(where: { ($0.key == place.key || $0.key == "\(place.parent).*") && $0.variant == variant }) {
                        tally.documented += 1
                    } else {
                        tally.silent.append(label)
                    }
                }
            }
        }
    }

    /// What loads with another meaning, as the docs say it does: a profile's run setting left out takes its
    /// default (each stated in `--help` from ``RunSettings``); a recipe's optional key left out, or a name the
    /// recipe chooses (an event's, a field's, a kept field's, a table's value) spelled otherwise, means what
    /// docs/recipes.md says. `PARENT.*` stands for any key of the mapping under PARENT.
    static let documented: [Documented] = settingDefaults + recipeSentences

    static let settingDefaults: [Documented] = RunSettings.all.compactMap { s in
        guard let key = s.profileKey?.split(separator: ".").last.map(String.init), key != "name" else { return nil }
        return Documented(key: key, variant: .removed, sentence: "--help: " + RunSettingHelp.flagHelp(s))
    } + [
        Documented(key: "simulator", variant: .removed, sentence: "docs/simulator.md: "
            + "the embedded simulator answers at once with no faults unless the profile's simulator: section says otherwise"),
        Documented(key: "simulator.*", variant: .removed, sentence: "docs/simulator.md: ## Configuration keys: every one optional, each with its default"),
        Documented(key: "faults.*", variant: .removed, sentence: "docs/simulator.md: every fault is off unless the section names it"),
        Documented(key: "devices.*", variant: .removed, sentence: "docs/simulator.md: ## Configuration keys: every one optional, each with its default"),
    ]

    static let recipeSentences: [Documented] = [
        Documented(key: "description", variant: .removed, sentence: "docs/recipes.md: `recipe:` and `events:` are what a recipe needs; "
            + "a description is a comment for people"),
        Documented(key: "events.*", variant: .removed, sentence: "docs/recipes.md: A line that matches no event is a bad line (`unknown_kind`), "
            + "counted and shown by `plan`."),
        Documented(key: "events.*", variant: .misspelled, sentence: "docs/recipes.md: the event's name: reports count events by it"),
        Documented(key: "fields.*", variant: .removed, sentence: "docs/recipes.md: "
            + "`fields:` maps each name the event uses to its type and where it is read from"),
        Documented(key: "fields.*", variant: .misspelled, sentence: "docs/recipes.md: required, read from the top-level key of the same name"),
        Documented(key: "set.*", variant: .removed, sentence: "docs/recipes.md: `set: [a, b]` or `set: {entity_field: SOURCE}`: fields kept on the entity"),
        Documented(key: "set.*", variant: .misspelled, sentence: "docs/recipes.md: `set: {entity_field: SOURCE}`: fields kept on the entity"),
        Documented(key: "remember.*", variant: .removed, sentence: "docs/recipes.md: `remember`: kept on each recipient entity when its push is planned"),
        Documented(key: "map.*", variant: .removed, sentence: "docs/recipes.md: `{from: SOURCE, map: {a: b}, default: VALUE}`: a value mapped through a table"),
        Documented(key: "map.*", variant: .misspelled, sentence: "docs/recipes.md: `{from: SOURCE, map: {a: b}, default: VALUE}`: "
            + "a value mapped through a table"),
        Documented(key: "match.*", variant: .misspelled, sentence: "docs/recipes.md: `match: {FIELD: VALUE}`: the line's top-level `FIELD` equals `VALUE`"),
        Documented(key: "token", variant: .removed, sentence: "docs/recipes.md: `token: FIELD`: the entity's push token. Absent on the event: "
            + "the entity keeps the one it has, or has none yet"),
        Documented(key: "set", variant: .removed, sentence: "docs/recipes.md: `set: [a, b]` or `set: {entity_field: SOURCE}`: fields kept on the entity"),
        Documented(key: "push", variant: .removed, sentence: "docs/recipes.md: the report counts … the state-only events"),
        Documented(key: "name", variant: .removed, sentence: "docs/recipes.md: in a list, a rule without one is named by its place (`1`, `2`, …)"),
        Documented(key: "priority", variant: .removed, sentence: "docs/recipes.md: | `priority` | … absent: the profile's |"),
        Documented(key: "when", variant: .removed, sentence: "docs/recipes.md: | `when` | the condition (below); absent: always |"),
        Documented(key: "where", variant: .removed, sentence: "docs/recipes.md: "
            + "| `to` | … `{group: G, key: SOURCE}` every current member of the group (… `where: \"recipient.platform == 'ios'\"` only the members for which "
            + "it holds) |"),
        Documented(key: "require", variant: .removed, sentence: "docs/recipes.md: Without `require:`, "
            + "each rule that reaches the missing entity counts its own `unknown_target`."),
        Documented(key: "expiration_at", variant: .removed, sentence: "docs/recipes.md: | `expiration_seconds`, `collapse_id` | … default: "
            + "the profile's | (expiration_at is the absolute form of the same header)"),
        Documented(key: "default", variant: .removed, sentence: "docs/recipes.md: A slot that reads a missing link gets an absent value (`null`, "
            + "or what its `absent:`/`default:` says)"),
        Documented(key: "one_of", variant: .removed, sentence: "docs/recipes.md: | `one_of: [a, b]` | allowed values; "
            + "anything else is a bad line naming the value and the set |"),
        Documented(key: "non_empty", variant: .removed, sentence: "docs/recipes.md: | `non_empty: true` | an empty string is a bad line |"),
        Documented(key: "empty_is_absent", variant: .removed, sentence: "docs/recipes.md: | `empty_is_absent: true` | an empty string counts as absent |"),
        Documented(key: "nullable", variant: .removed, sentence: "docs/recipes.md: | `{type: T, nullable: true}` | present but maybe null: "
            + "the key must be on the line |"),
        Documented(key: "min", variant: .removed, sentence: "docs/recipes.md: | `min: N` | an integer below N is a bad line |"),
        Documented(key: "after_end", variant: .removed, sentence: "docs/recipes.md: | `after_end` | `remove_recipient`: "
            + "an `end` push removes the recipient entity |"),
        Documented(key: "remember", variant: .removed, sentence: "docs/recipes.md: | `remember` | `[a, b]` or `{field: SOURCE}`: "
            + "kept on each recipient entity when its push is planned |"),
        Documented(key: "member_of", variant: .removed, sentence: "docs/recipes.md: `member_of: {GROUP: FIELD}`: the groups the entity follows, "
            + "replaced by each registration"),
        Documented(key: "subscribe", variant: .removed, sentence: "docs/recipes.md: `subscribe: FIELD`: "
            + "the key of the broadcast group whose channel the entity's activity subscribed to"),
        Documented(key: "time", variant: .removed, sentence: "docs/recipes.md: time: {field: at, format: iso8601}  # the default"),
        Documented(key: "from", variant: .removed, sentence: "docs/recipes.md: required, read from the top-level key of the same name"),
        Documented(key: "slots.*", variant: .removed, sentence: "docs/recipes.md: a slot not listed reads the event field of its own name"),
        Documented(key: "absent", variant: .removed, sentence: "docs/recipes.md: what an absent value writes: JSON `null` (the default)"),
        Documented(key: "if_absent", variant: .removed, sentence: "docs/recipes.md: a kept key that is absent, for a group, `no_recipients`"),
        Documented(key: "separator", variant: .removed, sentence: "docs/recipes.md: "
            + "| `{join: [S1, S2], separator: \" \", if_empty: S3}` | the present values joined; none present: `S3` |"),
        Documented(key: "if_empty", variant: .removed, sentence: "docs/recipes.md: "
            + "| `{join: [S1, S2], separator: \" \", if_empty: S3}` | the present values joined; none present: `S3` |"),
        Documented(key: "separator", variant: .emptied, sentence: "docs/recipes.md: the present values joined (without `separator`, or with `separator: \"\"`, "
            + "they run together)"),
        Documented(key: "broadcast", variant: .removed, sentence: "docs/recipes.md: broadcast: {group: stores}  # with `delivery: broadcast`, "
            + "a push to this group is one broadcast"),
        Documented(key: "devices", variant: .emptied, sentence: "docs/simulator.md: device: "
            + "{ offline_share: 0.1, throttle: drop }   # {} for every default below"),
        Documented(key: "faults", variant: .emptied, sentence: "docs/simulator.md: `faults: {}`, like no `faults:`, injects no fault."),
    ]
}
