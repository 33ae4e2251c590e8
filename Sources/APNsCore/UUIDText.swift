/// A UUID as text in its canonical form: `8-4-4-4-12` hex digits of either case, as `apns-id` and
/// `apns-request-id` must be.
public enum UUIDText {
    /// Whether `bytes` is a canonical UUID.
    @inlinable
    public static func isCanonical<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard bytes.count == 36 else { return false }
        for (i, c) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return false }
            } else if !DeviceToken.isHexDigit(c) {
                return false
            }
        }
        return true
    }
}
