import APNsCore

/// Text made safe for `report.html`.
enum HtmlEscape {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references: safe in element content
    /// and in double- or single-quoted attribute values (HTML and the SVG inside it).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// Text taken from a report, escaped, with any run of hex digits long enough to be a device token
    /// replaced by `<token>` (``Redaction``) and anything shaped like a JWT (`eyJ…` base64url, dot,
    /// base64url) by `<jwt>`: reports hold redacted text and no provider token, this makes sure of it.
    static func text(_ text: String) -> String {
        var clean = Redaction.sanitize(text, limit: Int.max)
        if clean.contains("eyJ") { clean = clean.replacing(jwt, with: "<jwt>") }
        return escape(clean)
    }

    /// A JWT (base64url JSON, so `eyJ…`, then up to two more dot-separated parts), or its header alone.
    nonisolated(unsafe) static let jwt = /eyJ[A-Za-z0-9_\-]{8,}(\.[A-Za-z0-9_\-]*){0,2}/
}
