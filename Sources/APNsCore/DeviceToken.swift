/// Device tokens are the hex of the token bytes. Apple says not to assume a size: 64-hex tokens are
/// usual, 108 and 160 have been seen, Live Activity tokens are about 160.
public enum DeviceToken {
    /// Shortest and longest hex length accepted.
    public static let hexLengthRange = 64...200

    /// Whether the bytes are an even-length hex string of 64 to 200 characters.
    public static func isValid<C: Collection>(hex bytes: C) -> Bool where C.Element == UInt8 {
        let n = bytes.count
        guard hexLengthRange.contains(n), n % 2 == 0 else { return false }
        return bytes.allSatisfy(isHexDigit)
    }

    public static func isValid(_ token: String) -> Bool { isValid(hex: token.utf8) }

    @inline(__always)
    public static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
    }

    /// A token shortened for reports and logs: first 8 hex characters and the length, e.g. `80b356f4…(160)`.
    public static func redacted(_ token: String) -> String {
        let prefix = token.prefix(8)
        return "\(prefix)…(\(token.utf8.count))"
    }
}
