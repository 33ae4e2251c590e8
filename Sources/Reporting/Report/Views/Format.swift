import Foundation

/// Number and text formatting shared by the text renderers.
enum Format {
    /// `x` with exactly `places` decimals (`12.50`); non-finite values as `-`.
    static func fixed(_ x: Double, places: Int) -> String {
        guard x.isFinite else { return "-" }
        return String(format: "%.\(Swift.max(0, places))f", x)
    }

    /// A latency in microseconds, humanized: `512 µs`, `3.21 ms`, `1.50 s`.
    static func micros(_ us: Int) -> String {
        if us < 1_000 { return "\(us) µs" }
        if us < 1_000_000 { return fixed(Double(us) / 1_000, places: 2) + " ms" }
        return fixed(Double(us) / 1_000_000, places: 2) + " s"
    }

    /// Keys of a count table, largest count first, then by key.
    static func byCount(_ counts: [String: Int]) -> [(key: String, count: Int)] {
        counts.map { (key: $0.key, count: $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
    }

    /// Text safe inside a Markdown table cell: pipes escaped, line breaks flattened.
    static func cell(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "|": out += "\\|"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(ch)
            }
        }
        return out
    }

    /// Text safe inside Markdown inline code: backticks replaced by `'`.
    static func code(_ text: String) -> String {
        "`" + cell(text).replacingOccurrences(of: "`", with: "'") + "`"
    }
}
