import APNsCore

extension SimulatorKey {
    /// The value's type, as help and docs state it.
    public var typeText: String {
        switch kind {
        case .integer: "integer"
        case .number, .numberFrom: "number"
        case .bool: "true or false"
        case let .choice(values): values.joined(separator: " or ")
        case .text: "string"
        case .texts: "list of strings"
        case .textsByName: "mapping of lists of strings"
        case .pair: "[min, max]"
        case .section: "mapping"
        case .duration: "duration"
        }
    }

    /// The range a number must lie in (`0 to 1`, `1 or more`); empty for a value without one.
    public var rangeText: String {
        switch kind {
        case let .integer(r): Self.range(Double(r.lowerBound), r.upperBound == Int.max ? nil : Double(r.upperBound))
        case let .number(r), let .pair(r): Self.range(r.lowerBound, r.upperBound)
        case let .numberFrom(sibling, upper): "\(sibling) to \(SimulatorKeys.number(upper))"
        case let .duration(r, unit): "\(SimulatorKeys.duration(r.lowerBound * unit)) to \(SimulatorKeys.duration(r.upperBound * unit))"
        default: nullable ? "or ~" : ""
        }
    }

    private static func range(_ lower: Double, _ upper: Double?) -> String {
        upper.map { "\(SimulatorKeys.number(lower)) to \(SimulatorKeys.number($0))" } ?? "\(SimulatorKeys.number(lower)) or more"
    }

    /// The default as help and docs show it: `required` for a key its section must have.
    public var defaultShown: String { required ? "required" : defaultText }

    /// The key's line in `simulate --help`.
    public var helpLine: String {
        var rule = typeText
        if !rangeText.isEmpty { rule += ", \(rangeText)" }
        if required { rule += "; required" } else if !defaultText.isEmpty { rule += "; default \(defaultText)" }
        return "\(path) (\(rule)): \(help)"
    }

    /// The key's row in docs/simulator.md's table: key, type, range, default, what it is.
    public var markdownRow: String {
        "| `\(path)` | \(typeText) | \(rangeText) | \(defaultShown) | \(help) |"
    }
}

extension SimulatorKeys {
    /// What the section at `path` says when it lacks a key it must have (or, `exactlyOne`, has not one key):
    /// `needs pushes and window_seconds`, `needs exactly one of fixed_ms, uniform_ms, lognormal_ms`.
    public static func needs(_ path: String) -> String {
        guard case let .section(rules)? = self[path]?.kind else { return "" }
        let keys = children(of: path)
        if rules.exactlyOne { return "needs exactly one of " + keys.map(\.key).joined(separator: ", ") }
        return "needs " + keys.filter(\.required).map(\.key).joined(separator: " and ") + (rules.example.map { ", like \($0)" } ?? "")
    }

    /// The header of docs/simulator.md's key table.
    public static let markdownHeader = "| key | type | range | default | what it is |\n| --- | --- | --- | --- | --- |"

    /// docs/simulator.md's key table.
    public static var markdownTable: String { ([markdownHeader] + all.map(\.markdownRow)).joined(separator: "\n") }

    /// `simulate --help`'s list of the configuration file's keys.
    public static var helpText: String { all.map { "  " + $0.helpLine }.joined(separator: "\n") }

    /// A number as help and docs show it: `600000`, `0.001`, `1e9`.
    static func number(_ d: Double) -> String {
        if d >= 1e7, d == d.rounded() {
            var (m, e) = (d, 0)
            while m >= 10, (m / 10) == (m / 10).rounded() { m /= 10; e += 1 }
            if m < 10 { return "\(Int(m))e\(e)" }
        }
        return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }

    /// The keys of `configuration` that differ from a new configuration's, and those at `always` whatever
    /// their value, as a configuration file's mapping: what `model fit` writes.
    public static func settings(of configuration: SimulatorConfiguration, always: Set<String> = []) -> ConfigValue {
        precondition(always.allSatisfy { self[$0] != nil }, "not simulator keys: \(always.filter { self[$0] == nil })")
        let base = SimulatorConfiguration()
        var out = ConfigValue.object([:])
        for key in all {
            guard let write = key.write, var value = write(configuration) else { continue }
            guard always.contains(key.path) || value != write(base) else { continue }
            if let unit = key.unitMillis, case let .double(n) = value { value = .string(duration(n * unit)) }
            var nested = value
            for part in key.path.split(separator: ".").reversed() { nested = .object([String(part): nested]) }
            out = out.overlaid(with: nested)
        }
        return out
    }

    /// `ms` milliseconds as a duration is written: `0`, `250ms`, `20m`, `0.8ms` (a fraction of a millisecond kept).
    public static func duration(_ ms: Double) -> String {
        if ms == ms.rounded(), abs(ms) < 1e15 { return DurationText.text(.milliseconds(Int64(ms))) }
        return "\(number(ms))ms"
    }
}
