import Foundation

/// Durations as people write them, in one grammar wherever one is written (a flag, a profile key, `sweep --vary`,
/// the expression language's `duration('…')`): an optional `-`, then one or more NUMBER UNIT, NUMBER being digits
/// with an optional fraction and UNIT one of `h`, `m`, `s`, `ms`: `250ms`, `1.5s`, `5m`, `1h30m`. The unit is always
/// written: a bare number (`10`) is refused, since it meant seconds on some flags and milliseconds in profiles;
/// ``refusal(_:)`` says how to write it. Values are kept to the millisecond.
public enum DurationText {
    /// The longest duration a setting accepts: one year. Longer values are typing mistakes, and keeping them under
    /// it keeps every derived count of nanoseconds inside an `Int64`.
    public static let maxMillis: Int64 = 366 * 86_400_000

    /// The largest magnitude ``parse(_:)`` reads, in ms (about ten million years).
    public static let parseLimitMillis = 3.2e17

    private static let units: [Substring: Double] = ["h": 3_600_000, "m": 60_000, "s": 1000, "ms": 1]

    /// The duration `text` writes, signed, rounded to the millisecond; nil when it is not one in the grammar.
    public static func parse(_ text: String) -> Duration? {
        parseMillis(text).map { .milliseconds(Int64($0.rounded())) }
    }

    /// The milliseconds `text` writes, signed, with their fraction (`0.5ms`, `1.25s`); nil when it is not a
    /// duration in the grammar.
    public static func parseMillis(_ text: String) -> Double? {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { ("0"..."9").contains($0) || $0 == "." }
            guard !number.isEmpty, let n = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isASCII && $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let scale = units[unit] else { return nil }
            total += n * scale
        }
        guard total < parseLimitMillis else { return nil }
        return negative ? -total : total
    }

    /// A setting's duration: `text` (spaces around it ignored) in the grammar, above 0 and at most ``maxMillis``.
    public static func setting(_ text: String) -> Duration? {
        guard let d = parse(text.trimmingCharacters(in: .whitespaces)), d > .zero, d.millis <= maxMillis else { return nil }
        return d
    }

    /// A setting's duration in milliseconds (``setting(_:)``).
    public static func millis(_ text: String) -> Int64? { setting(text)?.millis }

    /// Whether `text` is a number without a unit.
    public static func isBareNumber(_ text: String) -> Bool {
        Double(text.trimmingCharacters(in: .whitespaces)) != nil
    }

    /// What is wrong with a text that is not a duration, to follow "must be a duration": a bare number is
    /// told to write its unit (`write 10s or 10ms`).
    public static func refusal(_ text: String) -> String {
        let t = text.trimmingCharacters(in: .whitespaces)
        if isBareNumber(t) { return "'\(t)' has no unit: write \(t)s or \(t)ms" }
        return "found '\(text)'"
    }

    /// The duration as a setting writes it: `0`, `250ms`, `10s`, `5m`, `2h` (the largest unit it is a whole
    /// number of), read back by ``parse(_:)`` as the same duration.
    public static func text(_ d: Duration) -> String {
        let ms = d.millis
        if ms == 0 { return "0" }
        for (unit, scale) in [("h", Int64(3_600_000)), ("m", 60_000), ("s", 1000)] where ms % scale == 0 { return "\(ms / scale)\(unit)" }
        return "\(ms)ms"
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded toward zero.
    public var millis: Int64 {
        let (s, atto) = components
        return s * 1000 + atto / 1_000_000_000_000_000
    }

    /// The duration in seconds, as a number with a fraction.
    public var secondsValue: Double { Double(millis) / 1000 }

    /// A duration of `s` seconds, rounded to the millisecond.
    public static func secondsRounded(_ s: Double) -> Duration { .milliseconds(Int64((s * 1000).rounded())) }
}
