/// A small deterministic random generator (SplitMix64, Steele, Lea and Flood 2014): the same seed gives
/// the same sequence on every platform, so a scaled recording's clones are byte-for-byte reproducible and
/// the simulator's injected faults and dead-token fractions repeat from run to run. The one copy: Replay's
/// recording scaler, the simulator's dice and device registry use it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The golden-ratio increment added to the state per draw (2^64 / φ, odd).
    public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    @usableFromInline
    var state: UInt64

    @inlinable
    public init(seed: UInt64) { state = seed }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    /// A uniform double in [0, 1): the top 53 bits.
    @inlinable
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// The SplitMix64 finalizer: a good 64-bit hash of one word (a bijection; 0 maps to 0).
    @inlinable
    public static func mix(_ x: UInt64) -> UInt64 {
        var z = x
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
