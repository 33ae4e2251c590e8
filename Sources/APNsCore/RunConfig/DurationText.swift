import Foundation

/// Durations as people write them on a command line or in a profile: `250ms`, `2s`, `1.5s`, `5m`;
/// a bare number is milliseconds.
public enum DurationText {
    /// The longest duration accepted: one year. Longer values are typing mistakes, and keeping them under
    /// it keeps every derived count of nanoseconds inside an `Int64`.
    public static let maxMillis: Int64 = 366 * 86_400_000

    /// Milliseconds, or nil when the text is not a positive duration of at most `maxMillis`.
    public static func millis(_ text: String) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        var number = Substring(t), scale = 1.0
        if let (suffix, s) = units.first(where: { t.hasSuffix($0.0) }) {
            number = t.dropLast(suffix.count)
            scale = s
        }
        guard let v = Double(number), v > 0, v.isFinite else { return nil }
        let ms = (v * scale).rounded()
        guard ms <= Double(maxMillis) else { return nil }
        return Int64(ms)
    }
}
