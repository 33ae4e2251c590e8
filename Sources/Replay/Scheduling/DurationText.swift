import Foundation

/// Durations as people write them on a command line or in a profile: `250ms`, `2s`, `1.5s`, `5m`;
/// a bare number is milliseconds.
public enum DurationText {
    /// Milliseconds, or nil when the text is not a positive duration.
    public static func millis(_ text: String) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        for (suffix, scale) in units where t.hasSuffix(suffix) {
            guard let v = Double(t.dropLast(suffix.count)), v > 0, v.isFinite else { return nil }
            return Int64((v * scale).rounded())
        }
        guard let v = Double(t), v > 0, v.isFinite else { return nil }
        return Int64(v.rounded())
    }
}
