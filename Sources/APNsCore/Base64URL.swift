import Foundation

/// base64url without padding, as JWS uses it, and a lenient decoder that also takes
/// standard base64 with padding (APNs accepts both).
public enum Base64URL {
    public static func encode<D: DataProtocol>(_ data: D) -> String {
        var s = Data(data).base64EncodedString()
        s = s.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while s.hasSuffix("=") { s.removeLast() }
        return s
    }

    /// Decodes base64url or standard base64, padded or not. Nil if it is neither.
    public static func decode<S: StringProtocol>(_ text: S) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.hasSuffix("=") { s.removeLast() }
        let rem = s.utf8.count % 4
        if rem == 1 { return nil }
        if rem > 0 { s += String(repeating: "=", count: 4 - rem) }
        return Data(base64Encoded: s)
    }
}
