import APNsCore

/// One key of the simulator's configuration (a `simulate --config` file, a run profile's `simulator:`
/// section, an APNs model file): its dotted path, what its value must be, its default, its help, and how
/// it applies to a ``SimulatorConfiguration``.
///
/// ``SimulatorKeys/all`` is the one list of them. The configuration file reader takes its known keys,
/// types and ranges from it, `simulate --help` and docs/simulator.md their key table, and `model fit` the
/// keys it writes (``SimulatorKeys/settings(of:always:)``).
public struct SimulatorKey: Sendable {
    /// What a value must be.
    public enum Kind: Sendable {
        /// An integer in the range.
        case integer(ClosedRange<Int>)
        /// A number in the range.
        case number(ClosedRange<Double>)
        /// A number from the value of the named sibling key (read before this one) up to the bound.
        case numberFrom(String, upTo: Double)
        case bool
        /// A string, one of these.
        case choice([String])
        /// A non-empty string.
        case text
        /// A list of non-empty strings.
        case texts
        /// A mapping of names to lists of non-empty strings.
        case textsByName
        /// `[min, max]`: two numbers in the range, the second at least the first.
        case pair(ClosedRange<Double>)
        /// A mapping of the keys under this one.
        case section(Section)
        /// A duration (`250ms`, `20m`, `0`), kept as a number of the unit (`unitMillis` milliseconds each) in the range.
        case duration(ClosedRange<Double>, unitMillis: Double)
    }

    /// What a mapping must hold besides known keys (its keys that are ``required``).
    public struct Section: Sendable {
        /// Whether it must have exactly one of its keys.
        public var exactlyOne = false
        /// A mapping that has what it needs, for the message when it has not.
        public var example: String?
        public init(exactlyOne: Bool = false, example: String? = nil) {
            self.exactlyOne = exactlyOne
            self.example = example
        }
    }

    /// A value as its kind reads it; a section is `.section`, and `~` for a key that takes it `.null`.
    public enum Value: Sendable, Equatable {
        case int(Int), number(Double), bool(Bool), text(String), texts([String]), pair(Double, Double), section, null
        case textsByName([Named])

        public var int: Int? { if case let .int(v) = self { v } else { nil } }
        public var number: Double? { if case let .number(v) = self { v } else { nil } }
        public var bool: Bool? { if case let .bool(v) = self { v } else { nil } }
        public var text: String? { if case let .text(v) = self { v } else { nil } }
        public var texts: [String]? { if case let .texts(v) = self { v } else { nil } }
    }

    /// A name and its strings (`topics: {TEAM: [com.a]}`).
    public struct Named: Sendable, Equatable {
        public var name: String
        public var texts: [String]
        public init(name: String, texts: [String]) {
            self.name = name
            self.texts = texts
        }
    }

    /// A value the reader read but the key refuses; the reader names the key's line (or its child `key`'s).
    public struct Problem: Error, Sendable {
        public let message: String
        /// The key under a section the problem is about; nil: the key itself.
        public let key: String?
        public init(_ message: String, at key: String? = nil) {
            self.message = message
            self.key = key
        }
    }

    public typealias Apply = @Sendable (inout SimulatorConfiguration, Value, _ file: String) throws -> Void
    public typealias Finish = @Sendable (inout SimulatorConfiguration, [String: Value]) throws -> Void

    /// The dotted key path (`faults.capacity.overload_after_ms`).
    public let path: String
    public let kind: Kind
    /// The default, as docs and help state it; for a key under a section that ``finish`` builds, the value
    /// the reader gives it when absent.
    public let defaultText: String
    /// What the key does.
    public let help: String
    /// Whether `~` is a value (`device: ~` is the device model's defaults).
    public var nullable = false
    /// Whether its section must have it.
    public var required = false
    /// The key's former name, which named its unit (`goaway_after_seconds`): still read, a number of the
    /// unit, with a one-line notice; reports keep it as the value's name.
    public var former: String?
    /// Sets the value read; for a section, before its keys (a new value for them to fill in). Nil for a key
    /// only its section's ``finish`` reads.
    let apply: Apply?
    /// A section: after its keys, with their values by key (absent ones at their default).
    var finish: Finish?
    /// The value in a configuration, as a file writes it; nil when the key has none there.
    var write: (@Sendable (SimulatorConfiguration) -> ConfigValue?)?

    init(_ path: String, _ kind: Kind, default defaultText: String = "", _ help: String, apply: Apply? = nil) {
        self.path = path
        self.kind = kind
        self.defaultText = defaultText
        self.help = help
        self.apply = apply
    }

    /// The last component of the path.
    public var key: String { path.split(separator: ".").last.map(String.init) ?? path }

    /// The path of the section holding this key, "" at the top level.
    public var parent: String {
        guard let dot = path.lastIndex(of: ".") else { return "" }
        return String(path[..<dot])
    }

    public var isSection: Bool { if case .section = kind { true } else { false } }

    /// The name reports give the key's value: its former path, for a key renamed as a duration, so reports
    /// stay as they were.
    public var reportPath: String { former.map { parent.isEmpty ? $0 : "\(parent).\($0)" } ?? path }

    /// The milliseconds of one unit of a duration key's value; nil for other keys.
    public var unitMillis: Double? { if case let .duration(_, unit) = kind { unit } else { nil } }

    /// Sets `value` in `configuration`; `file` anchors relative paths (`devices.file`).
    public func set(_ value: Value, in configuration: inout SimulatorConfiguration, file: String) throws {
        try apply?(&configuration, value, file)
    }

    /// Finishes a section read with its keys' `values`.
    public func finish(_ values: [String: Value], in configuration: inout SimulatorConfiguration) throws {
        try finish?(&configuration, values)
    }

    /// The value the reader gives this key when its section omits it: its default, when it is a number.
    public var defaultValue: Value? {
        switch kind {
        case .integer: Int(defaultText).map(Value.int)
        case .number: Double(defaultText).map(Value.number)
        case let .duration(_, unit): DurationText.parseMillis(defaultText).map { Value.number($0 / unit) }
        default: nil
        }
    }

    func finishing(_ f: @escaping Finish) -> SimulatorKey {
        var k = self
        k.finish = f
        return k
    }

    func writing(_ w: @escaping @Sendable (SimulatorConfiguration) -> ConfigValue?) -> SimulatorKey {
        var k = self
        k.write = w
        return k
    }

    /// A duration key, read by its former name `name` too (a number of the unit).
    func formerly(_ name: String) -> SimulatorKey {
        var k = self
        k.former = name
        return k
    }

    func needed() -> SimulatorKey {
        var k = self
        k.required = true
        return k
    }

    func orNull() -> SimulatorKey {
        var k = self
        k.nullable = true
        return k
    }
}

extension SimulatorKey {
    typealias C = SimulatorConfiguration

    /// A key kept at `place` in the configuration: read as `read` turns a value into one, written as `write` shows it.
    static func leaf<V>(_ path: String, _ kind: Kind, _ place: WritableKeyPath<C, V> & Sendable, default d: String, _ help: String,
                        read: @escaping @Sendable (Value) -> V, write: @escaping @Sendable (V) -> ConfigValue?) -> SimulatorKey {
        SimulatorKey(path, kind, default: d, help) { c, v, _ in c[keyPath: place] = read(v) }.writing { write($0[keyPath: place]) }
    }

    static func integer(_ path: String, _ range: ClosedRange<Int>, _ place: WritableKeyPath<C, Int> & Sendable, default d: String,
                        _ help: String) -> SimulatorKey {
        leaf(path, .integer(range), place, default: d, help, read: { $0.int ?? 0 }, write: { .int($0) })
    }

    /// An integer that may be unset (`~` unsets it when the key is ``orNull()``).
    static func integer(_ path: String, _ range: ClosedRange<Int>, _ place: WritableKeyPath<C, Int?> & Sendable, default d: String,
                        _ help: String) -> SimulatorKey {
        leaf(path, .integer(range), place, default: d, help, read: { $0.int }, write: { $0.map(ConfigValue.int) })
    }

    static func number(_ path: String, _ range: ClosedRange<Double>, _ place: WritableKeyPath<C, Double> & Sendable, default d: String,
                       _ help: String) -> SimulatorKey {
        leaf(path, .number(range), place, default: d, help, read: { $0.number ?? 0 }, write: { .double($0) })
    }

    static func number(_ path: String, _ range: ClosedRange<Double>, _ place: WritableKeyPath<C, Double?> & Sendable, default d: String,
                       _ help: String) -> SimulatorKey {
        leaf(path, .number(range), place, default: d, help, read: { $0.number }, write: { $0.map(ConfigValue.double) })
    }

    /// A duration kept as a number of seconds (`unitMillis` 1000) or milliseconds (1), formerly read as that number
    /// under `former`.
    static func duration(_ path: String, formerly former: String, _ range: ClosedRange<Double>, unitMillis: Double,
                         _ place: WritableKeyPath<C, Double> & Sendable, default d: String, _ help: String) -> SimulatorKey {
        leaf(path, .duration(range, unitMillis: unitMillis), place, default: d, help, read: { $0.number ?? 0 }, write: { .double($0) }).formerly(former)
    }

    static func duration(_ path: String, formerly former: String, _ range: ClosedRange<Double>, unitMillis: Double,
                         _ place: WritableKeyPath<C, Double?> & Sendable, default d: String, _ help: String) -> SimulatorKey {
        leaf(path, .duration(range, unitMillis: unitMillis), place, default: d, help, read: { $0.number }, write: { $0.map(ConfigValue.double) })
            .formerly(former)
    }

    static func flag(_ path: String, _ place: WritableKeyPath<C, Bool> & Sendable, default d: String, _ help: String) -> SimulatorKey {
        leaf(path, .bool, place, default: d, help, read: { $0.bool ?? false }, write: { .bool($0) })
    }

    /// A seed: any integer from 0.
    static func seed(_ path: String, _ place: WritableKeyPath<C, UInt64> & Sendable, _ help: String) -> SimulatorKey {
        leaf(path, .integer(0...Int.max), place, default: "0", help, read: { UInt64($0.int ?? 0) }, write: { .int(Int($0)) })
    }

    /// One of an enumeration's raw values.
    static func choice<E: RawRepresentable & CaseIterable & Sendable>(_ path: String, _ place: WritableKeyPath<C, E> & Sendable, default d: String,
                                                           _ help: String) -> SimulatorKey where E.RawValue == String {
        leaf(path, .choice(E.allCases.map(\.rawValue)), place, default: d, help,
             read: { v in E(rawValue: v.text ?? "") ?? E.allCases.first! }, write: { .string($0.rawValue) })
    }
}
