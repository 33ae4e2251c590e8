import APNsCore
import YAMLReading

/// A push rule's expiration after the run's start: `expiration`, a duration (`expiration: 1h`, `0`: now or
/// never), or its former name `expiration_seconds`, a number of seconds, still read with a one-line notice. A
/// value read from each event (a field, `{from: FIELD}`, an expression) is int seconds under either name.
extension Builder {
    /// The key of a push rule's expiration; the header row's key (``APNsHeaders/expiration``) is its former name,
    /// and the plan's lines keep it.
    static let expirationKey = "expiration"

    /// The rule's expiration entry and whether it is written as a duration (under ``expirationKey``); a rule
    /// that gives it by its former name gets a notice, one that gives both names is refused.
    mutating func expirationEntry(_ m: StrictYAML.Mapping) throws -> (entry: Entry, duration: Bool)? {
        let former = APNsHeaders.expiration.key
        if let entry = m[Self.expirationKey] {
            if let old = m[former] { throw fail(old, "is the former name of '\(Self.expirationKey)': give one of them") }
            return (entry, true)
        }
        guard let entry = m[former] else { return nil }
        let now = entry.node.int.map { "'\(Self.expirationKey): \(DurationText.text(.seconds($0)))'" }
            ?? "'\(Self.expirationKey)' (a value read from each event is int seconds under either name)"
        deprecations.append("\(file):\(entry.line.map { "\($0):" } ?? "") '\(former)' is deprecated: write \(now)")
        return (entry, false)
    }

    /// A constant expiration in seconds: a duration in whole seconds under ``expirationKey`` (`1h`, `90s`, `0`),
    /// an int under the former name; nil when the value is read from each event or is a table.
    func constantExpiration(_ entry: Entry, duration: Bool) throws -> Int? {
        guard case .scalar = entry.node, case let .seconds(range) = APNsHeaders.expiration.value else { return nil }
        guard duration else { return entry.node.int != nil ? try reader.int(entry, range) : nil }
        let text = try reader.text(entry)
        if text == "0" { return 0 }
        if DurationText.isBareNumber(text) { throw fail(entry, "must be a duration: \(DurationText.refusal(text))") }
        guard let d = DurationText.parse(text) else { return nil }
        return try Self.expirationSeconds(d, text: text, range: range) { fail(entry, $0) }
    }

    /// A table's value under ``expirationKey``: a duration as int seconds (`1h` is 3600); a bare number other
    /// than 0 is refused with the units to write.
    func expirationTableValue(_ value: RecipeValue, _ entry: Entry) throws -> RecipeValue {
        guard case let .seconds(range) = APNsHeaders.expiration.value else { return value }
        switch value {
        case .int(0): return value
        case let .int(n): throw fail(entry, "must be a duration: \(DurationText.refusal(String(n)))")
        case let .number(x): throw fail(entry, "must be a duration: \(DurationText.refusal(String(x)))")
        case let .string(text):
            guard let d = DurationText.parse(text) else { throw fail(entry, "must be a duration like 1h or 90s, found '\(text)'") }
            return .int(try Self.expirationSeconds(d, text: text, range: range) { fail(entry, $0) })
        default: return value
        }
    }

    /// `d` in whole seconds within `range` (APNs' expiration is a number of seconds).
    static func expirationSeconds(_ d: Duration, text: String, range: ClosedRange<Int>, fail: (String) -> Error) throws -> Int {
        let ms = d.millis
        guard ms % 1000 == 0, range.contains(Int(ms / 1000)) else {
            throw fail("must be whole seconds from 0 to \(DurationText.text(.seconds(range.upperBound))) (APNs' expiration), found '\(text)'")
        }
        return Int(ms / 1000)
    }
}
