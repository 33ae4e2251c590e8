/// Keeps device tokens and oversized text out of reports.
public enum Redaction {
    /// Runs of this many hex digits or more are taken for tokens (device tokens are 64 hex digits,
    /// Live Activity tokens longer; UUIDs are broken up by dashes and stay).
    public static let tokenMinimumHexDigits = 32
    public static let replacement = "<token>"

    /// `text` with every run of at least ``tokenMinimumHexDigits`` hex digits replaced by `<token>`,
    /// then cut to `limit` characters (with `…` when cut).
    public static func sanitize(_ text: String, limit: Int) -> String {
        var out = ""
        var run = ""
        func flush() {
            out += run.count >= tokenMinimumHexDigits ? replacement : run
            run = ""
        }
        for ch in text {
            if ch.isHexDigit {
                run.append(ch)
            } else {
                flush()
                // Control characters (a raw newline or tab from a line) would break the Markdown table.
                out.append(ch.isNewline || ch == "\t" ? " " : ch)
            }
        }
        flush()
        guard out.count > limit else { return out }
        return String(out.prefix(Swift.max(0, limit - 1))) + "…"
    }
}
