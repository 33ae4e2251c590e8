import APNsCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The string forms of `Date` (under ``DateStrategy/iso8601``), `URL` and `UUID`, judged by the same
/// Foundation code `JSONDecoder` calls, so that no hand-written grammar can drift from it.
enum FoundationValues {
    private static let iso8601 = Date.ISO8601FormatStyle()

    /// `JSONDecoder`'s `.iso8601` strategy: `Date.ISO8601FormatStyle().parse(_:)`. It is more lenient
    /// than `ISO8601DateFormatter` with default options: fractional seconds, `+0700`, `+07`, `GMT`,
    /// out-of-range days (rolled over) and trailing text after the time zone are accepted.
    static func isISO8601Date(_ string: String) -> Bool {
        (try? iso8601.parse(string)) != nil
    }

    /// The `Date` the `.iso8601` strategy reads from `string`, or nil.
    static func iso8601Date(_ string: String) -> Date? {
        try? iso8601.parse(string)
    }

    /// `Data(base64Encoded:)`, which `JSONDecoder` uses for `Data` under the default strategy: padding is
    /// required, and whitespace or line breaks are not accepted.
    static func isBase64(_ string: String) -> Bool {
        Data(base64Encoded: string) != nil
    }

    /// `Decimal(string:)` on a JSON number's text: nil where `JSONDecoder` finds the number outside
    /// `Decimal`'s range (an exponent beyond about ±128 once the digits past 38 are dropped).
    static func decimal(_ text: String) -> Decimal? {
        Decimal(string: text)
    }

    /// `URL(string:)`, which `JSONDecoder` uses for `URL`: it percent-encodes most invalid characters,
    /// and rejects the empty string and malformed authorities such as `http://a b`.
    static func isURL(_ string: String) -> Bool {
        URL(string: string) != nil
    }

    /// `UUID(uuidString:)`. Foundation parses with
    /// `sscanf(s, "%2hhx%2hhx%2hhx%2hhx-%2hhx%2hhx-%2hhx%2hhx-%2hhx%2hhx-%2hhx%2hhx%2hhx%2hhx%2hhx%2hhx%n")`
    /// and requires 36 characters consumed and nothing after (the C string ends at a NUL). So besides
    /// the canonical form it accepts any case, whitespace before a field, a sign in a field and fields
    /// of one digit, as long as the total is 36 characters: `"E0D62919-9EF2-49C6-A108-85A227AF30 4"`.
    /// `0x` inside a field is read as Apple's libc reads it (the `x` is left unread, so the parse fails);
    /// glibc, on Linux, consumes it.
    static func isUUID(_ utf8: [UInt8]) -> Bool {
        let length = utf8.firstIndex(of: 0) ?? utf8.count
        var position = 0
        for (group, fields) in [4, 2, 2, 2, 6].enumerated() {
            for _ in 0..<fields {
                guard let next = scanHexByte(utf8, from: position, length: length) else { return false }
                position = next
            }
            if group < 4 {
                guard position < length, utf8[position] == UInt8(ascii: "-") else { return false }
                position += 1
            }
        }
        return position == 36 && position == length
    }

    /// One `%2hhx` conversion: leading whitespace, then at most two characters of sign and hex digits.
    private static func scanHexByte(_ utf8: [UInt8], from start: Int, length: Int) -> Int? {
        var position = start
        while position < length, utf8[position] == 0x20 || (0x09...0x0D).contains(utf8[position]) { position += 1 }
        var width = 2
        var digits = 0
        if position < length, utf8[position] == UInt8(ascii: "+") || utf8[position] == UInt8(ascii: "-") {
            position += 1
            width -= 1
        }
        while width > 0, position < length, DeviceToken.isHexDigit(utf8[position]) {
            let isZero = utf8[position] == UInt8(ascii: "0")
            position += 1
            width -= 1
            digits += 1
            // A "0x" prefix: Apple's libc leaves the x unread.
            if isZero, digits == 1, position < length, utf8[position] == UInt8(ascii: "x") || utf8[position] == UInt8(ascii: "X") { break }
        }
        return digits > 0 ? position : nil
    }
}
