/// FNV-1a, 64-bit (Fowler, Noll, Vo): a byte-at-a-time hash with no state beyond one word. Its low bits
/// are weak on their own (the lowest is the parity of the bytes' lowest bits), so callers fold the
/// result through a finalizer (`SplitMix64.mix`, or MurmurHash3's fmix64) before using it. The one copy:
/// the engine's worker partition and the simulator's dead-token fraction use it.
public enum FNV1a {
    /// The 64-bit offset basis.
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The 64-bit FNV prime.
    public static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// Which ASCII capitals are hashed as their lowercase letter, so that two spellings of one device
    /// token hash alike.
    public enum CaseFolding: Sendable {
        /// Bytes as they are.
        case none
        /// `A`–`F` (hex digits) only.
        case hexDigits
        /// `A`–`Z`.
        case letters
    }

    /// The hash of `bytes`, starting from `basis` (callers that seed the hash XOR the seed into it).
    @inlinable
    public static func hash<C: Collection>(_ bytes: C, basis: UInt64 = offsetBasis, folding: CaseFolding = .none) -> UInt64
    where C.Element == UInt8 {
        let upper: UInt8
        switch folding {
        case .none: upper = 0
        case .hexDigits: upper = 0x46 // F
        case .letters: upper = 0x5A // Z
        }
        var h = basis
        for b in bytes {
            h = (h ^ UInt64(b >= 0x41 && b <= upper ? b | 0x20 : b)) &* prime
        }
        return h
    }
}
