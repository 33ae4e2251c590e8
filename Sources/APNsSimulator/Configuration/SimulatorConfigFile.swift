import APNsCore
import Foundation
import YAMLReading
import Yams

/// Reads a simulator configuration file (`apnsbench simulate --config sim.yaml`), a run profile's
/// `simulator:` section or an APNs model file's into a `SimulatorConfiguration`, strictly, as
/// `ProfileLoader` reads profiles: an unknown key or a value of the wrong type or range is an error naming
/// the file, the line and the key path, so a typo never falls back to a default silently. The file is YAML
/// (JSON is YAML too). Its keys, their types, ranges and defaults are the table `SimulatorKeys`
/// (`apnsbench simulate --help` lists them), which this reader walks.
///
/// A scalar has the type YAML gives it (`Yams.load`'s): `count: "10"` is a string, not a number.
public enum SimulatorConfigFile {
    /// Every top-level key.
    public static var knownKeys: [String] { SimulatorKeys.children(of: "").map(\.key) }

    /// Reads the file at `path` and applies it to `configuration`.
    public static func load(path: String, into configuration: inout SimulatorConfiguration) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SimulatorConfigError(file: path, line: nil, key: "(file)", message: "cannot be read (no such file, or not readable)")
        }
        try apply(yaml: String(decoding: data, as: UTF8.self), file: path, to: &configuration)
    }

    /// Applies `yaml` to `configuration` (left unchanged when an error is thrown). `file` names the file in
    /// errors and anchors relative paths (`devices.file`). An empty document changes nothing.
    public static func apply(yaml: String, file: String, to configuration: inout SimulatorConfiguration) throws {
        guard let root = try reader(file).document(yaml, syntaxPath: "(file)")?.node else { return }
        try apply(node: root, file: file, keyPath: "", to: &configuration)
    }

    /// Applies a run profile's `simulator:` section (kept in `RunConfig.simulator.settings`) to
    /// `configuration`, as if it were a configuration file; errors name `profile` and the key path
    /// `simulator.…`. A profile's section is checked where it is loaded (``check(profile:)``), with lines.
    public static func apply(settings: ConfigValue, profile: String, to configuration: inout SimulatorConfiguration) throws {
        let root: Node?
        do { root = try Yams.compose(yaml: settings.json) } catch {
            throw SimulatorConfigError(file: profile, line: nil, key: "simulator", message: "cannot be read back: \(error)")
        }
        guard let root else { return }
        // The section read back has no lines; the profile's check (``check(profile:)``) says its notices.
        try apply(node: root, file: profile, keyPath: "simulator", to: &configuration, sayingNotices: false)
    }

    /// Checks a run's simulator settings before it starts: the profile's `simulator:` section with its
    /// lines (``check(profile:)``), then the APNs model with the section laid over it.
    public static func check(run config: RunConfig) throws {
        if config.simulator.settings != nil { try check(profile: config.profilePath) }
        if config.simulator.model != nil, let settings = config.simulator.effectiveSettings {
            var scratch = SimulatorConfiguration()
            try apply(settings: settings, profile: config.profilePath, to: &scratch)
        }
    }

    /// Checks the `simulator:` section of the profile at `profile` against the simulator's rules, so that a
    /// wrong key or value fails before the run, naming the profile's line and the key path.
    public static func check(profile: String) throws {
        guard let data = FileManager.default.contents(atPath: profile),
              case let .mapping(top)? = try? Yams.compose(yaml: String(decoding: data, as: UTF8.self)),
              let section = top.first(where: { $0.key.string == "simulator" })?.value else { return }
        var scratch = SimulatorConfiguration()
        try apply(node: section, file: profile, keyPath: "simulator", to: &scratch, ignoring: Set(RunConfig.Simulator.runKeys))
    }

    /// Applies the mapping `root` (at `keyPath` in `file`: "" for a whole file); keys in `ignoring` are
    /// taken as known and skipped (a profile's `simulator.fast` and `simulator.model` are the run's).
    static func apply(node root: Node, file: String, keyPath: String, to configuration: inout SimulatorConfiguration,
                      ignoring: Set<String> = [], sayingNotices: Bool = true) throws {
        let notices = try deprecations(node: root, file: file, keyPath: keyPath, to: &configuration, ignoring: ignoring)
        if sayingNotices { for line in notices { DeprecationNotice.say(line) } }
    }

    /// Reads `yaml` as ``apply(yaml:file:to:)`` does, without saying its notices: one line for each key given by
    /// its former name (`sim.yaml:4: 'goaway_after_seconds' is deprecated: write 'goaway_after: 10s'`).
    public static func deprecations(yaml: String, file: String) throws -> [String] {
        guard let root = try reader(file).document(yaml, syntaxPath: "(file)")?.node else { return [] }
        var scratch = SimulatorConfiguration()
        return try deprecations(node: root, file: file, keyPath: "", to: &scratch, ignoring: [])
    }

    private static func deprecations(node root: Node, file: String, keyPath: String, to configuration: inout SimulatorConfiguration,
                                     ignoring: Set<String>) throws -> [String] {
        let r = reader(file)
        var top = try r.map(Entry(path: keyPath, line: root.mark?.line, node: root))
        top.entries.removeAll { ignoring.contains($0.key) }
        var c = configuration
        let notices = Notices()
        _ = try section("", top, r, &c, notices)
        configuration = c
        return notices.lines
    }

    /// Refuses a key of `m` that is none of `keys` nor a former name of one; an error lists the current names.
    private static func only(_ m: Mapping, _ keys: [SimulatorKey], _ r: Reader) throws {
        var current = m
        current.entries.removeAll { e in keys.contains { $0.former == e.key } }
        try r.only(current, keys.map(\.key))
    }

    /// The notices of former key names found while reading.
    private final class Notices {
        var lines: [String] = []
    }

    /// `key`'s entry in `m`: by its name, or by its former name with a notice; both is refused.
    private static func entry(of key: SimulatorKey, in m: Mapping, _ r: Reader, _ notices: Notices) throws -> (Entry, formerly: Bool)? {
        guard let former = key.former, let old = m[former] else { return m[key.key].map { ($0, false) } }
        if m[key.key] != nil { throw r.fail(old, "is the former name of '\(key.key)': give one of them") }
        let now = (try? r.number(old)).map { " \(SimulatorKeys.duration($0 * (key.unitMillis ?? 1)))" } ?? ""
        notices.lines.append("\(r.file):\(old.line.map { "\($0):" } ?? "") '\(former)' is deprecated: write '\(key.key):\(now)'")
        return (old, true)
    }

    /// Reads the keys of the section at `path` (their mapping `m`) in the table's order and applies them;
    /// their values by key, absent ones at their default.
    private static func section(_ path: String, _ m: Mapping, _ r: Reader, _ c: inout SimulatorConfiguration,
                                _ notices: Notices) throws -> [String: Value] {
        let keys = SimulatorKeys.children(of: path)
        try only(m, keys, r)
        var values: [String: Value] = [:]
        for key in keys {
            guard let (e, formerly) = try entry(of: key, in: m, r, notices) else {
                values[key.key] = key.defaultValue
                continue
            }
            let value: Value
            if formerly, case let .duration(range, _) = key.kind {
                value = .number(try r.number(e, range))  // the former name: a number of the unit
            } else {
                value = try read(key, e, r, siblings: values)
            }
            do { try key.set(value, in: &c, file: r.file) } catch let p as SimulatorKey.Problem { throw r.fail(e, p.message) }
            if key.isSection, value != .null { try readSection(key, e, r, &c, notices) }
            values[key.key] = value
        }
        return values
    }

    /// Reads the keys of section `key` (at `e`), checks what it requires, and finishes it.
    private static func readSection(_ key: SimulatorKey, _ e: Entry, _ r: Reader, _ c: inout SimulatorConfiguration, _ notices: Notices) throws {
        guard case let .section(rules) = key.kind else { return }
        let m = try r.map(e), keys = SimulatorKeys.children(of: key.path)
        try only(m, keys, r)
        if rules.exactlyOne ? m.entries.count != 1 : keys.contains(where: { $0.required && m[$0.key] == nil && $0.former.flatMap { m[$0] } == nil }) {
            throw r.fail(e, SimulatorKeys.needs(key.path))
        }
        let values = try section(key.path, m, r, &c, notices)
        do { try key.finish(values, in: &c) } catch let p as SimulatorKey.Problem {
            throw r.fail(p.key.flatMap { m[$0] } ?? e, p.message)
        }
    }

    /// The value at `e` as `key`'s kind reads it; `siblings` are the values read before it in its section.
    private static func read(_ key: SimulatorKey, _ e: Entry, _ r: Reader, siblings: [String: Value]) throws -> Value {
        if key.nullable, r.isNull(e) { return .null }
        switch key.kind {
        case let .integer(range): return .int(try r.int(e, range))
        case let .number(range): return .number(try r.number(e, range))
        case let .numberFrom(sibling, upper): return .number(try r.number(e, (siblings[sibling]?.number ?? 0)...upper))
        case .bool: return .bool(try r.bool(e))
        case let .choice(values):
            let s = try r.string(e)
            guard values.contains(s) else { throw r.fail(e, "must be \(values.joined(separator: " or ")), found '\(s)'") }
            return .text(s)
        case .text: return .text(try r.string(e))
        case .texts: return .texts(try r.list(e).map { try r.string($0) })
        case .textsByName:
            return .textsByName(try r.map(e).entries.map { SimulatorKey.Named(name: $0.key, texts: try r.list($0).map { try r.string($0) }) })
        case let .pair(range):
            let b = try r.list(e)
            guard b.count == 2 else { throw r.fail(e, "must be [min, max]") }
            let lo = try r.number(b[0], range)
            return .pair(lo, try r.number(b[1], lo...range.upperBound))
        case .section:
            _ = try r.map(e)
            return .section
        case let .duration(range, unit): return try duration(e, r, range, unitMillis: unit)
        }
    }

    /// A duration key's value, in the grammar of durations (`250ms`, `20m`, `0`), as a number of its unit.
    private static func duration(_ e: Entry, _ r: Reader, _ range: ClosedRange<Double>, unitMillis unit: Double) throws -> Value {
        guard case let .scalar(s) = e.node else { throw r.fail(e, "must be a duration like 250ms or 20m") }
        let text = s.string.trimmingCharacters(in: .whitespaces)
        guard let ms = text == "0" ? 0 : DurationText.parseMillis(text) else { throw r.fail(e, "must be a duration: \(DurationText.refusal(text))") }
        guard range.contains(ms / unit) else {
            let lo = SimulatorKeys.duration(range.lowerBound * unit), hi = SimulatorKeys.duration(range.upperBound * unit)
            throw r.fail(e, "must be between \(lo) and \(hi), found '\(text)'")
        }
        return .number(ms / unit)
    }

    private typealias Entry = StrictYAML.Entry
    private typealias Mapping = StrictYAML.Mapping
    private typealias Reader = StrictYAML.Reader
    private typealias Value = SimulatorKey.Value

    /// The shared strict reader, its errors this file's.
    private static func reader(_ file: String) -> Reader {
        Reader(file: file) { file, line, path, message in
            SimulatorConfigError(file: file, line: line, key: path.isEmpty ? "(top level)" : path, message: message)
        }
    }
}

/// A configuration file value that is wrong, named by file, line and key path.
public struct SimulatorConfigError: Error, CustomStringConvertible, Equatable {
    public let file: String
    /// The line of the key (1-based); nil when the error is about the whole file.
    public let line: Int?
    public let key: String
    public let message: String

    public init(file: String, line: Int?, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        "simulator configuration \(file)\(line.map { ":\($0)" } ?? ""): '\(key)' \(message)"
    }
}
