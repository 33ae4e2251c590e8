import Foundation

/// A small deterministic generator (SplitMix64): the same seed gives the same sequence on every
/// platform, so fault injection and dead-token fractions repeat from run to run.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A double in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A standard normal sample (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = max(unit(), .leastNonzeroMagnitude)
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    /// The SplitMix64 finalizer: a good 64-bit hash of one word.
    @inline(__always)
    public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A hash of bytes and a seed (FNV-1a folded through `mix`), case-insensitive for ASCII hex.
    public static func hash<C: Collection>(_ bytes: C, seed: UInt64) -> UInt64 where C.Element == UInt8 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        for b in bytes {
            h ^= UInt64(b >= 0x41 && b <= 0x46 ? b | 0x20 : b)
            h &*= 0x0000_0100_0000_01B3
        }
        return mix(h)
    }
}
