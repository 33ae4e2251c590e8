import Foundation

/// Durations as people write them on a command line or in a profile: `250ms`, `2s`, `1.5s`, `5m`, `1h`. The
/// unit is always written: a bare number (`10`) is refused, since it meant seconds on some flags and
/// milliseconds in profiles; ``refusal(_:)`` says how to write it.
public enum DurationText {
    /// The longest duration accepted: one year. Longer values are typing mistakes, and keeping them under
    /// it keeps every derived count of nanoseconds inside an `Int64`.
    public static let maxMillis: Int64 = 366 * 86_400_000

    private static let units: [(suffix: String, millis: Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]

    /// Milliseconds, or nil when the text is not a positive duration with its unit of at most `maxMillis`.
    public static func millis(_ text: String) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        // "ms" is tried before "m" and "s".
        guard let (suffix, scale) = units.first(where: { t.hasSuffix($0.suffix) }) else { return nil }
        guard let v = Double(t.dropLast(suffix.count)), v > 0, v.isFinite else { return nil }
        let ms = (v * scale).rounded()
        guard ms <= Double(maxMillis) else { return nil }
        return Int64(ms)
    }

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
}
