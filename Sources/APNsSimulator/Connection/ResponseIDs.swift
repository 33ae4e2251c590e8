import APNsCore

/// Lowercase canonical UUIDs (8-4-4-4-12) for `apns-id` and `apns-unique-id`, from a per-connection
/// generator: cheaper than Foundation's UUID on the hot path, unique enough for a simulator.
struct ResponseIDs {
    private var random: SplitMix64

    init() { random = SplitMix64(seed: UInt64.random(in: .min ... .max)) }

    /// Two hex digits for each byte value.
    private static let hexPairs: StaticString = """
        000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\
        404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f\
        808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
        """

    /// Version 4 (random), variant 10xx.
    mutating func next() -> String {
        let hi = random.next() & ~0xF000 | 0x4000
        let lo = random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { out in
            let pairs = Self.hexPairs.utf8Start
            // 16 bytes, most significant first, two digits each; a dash after bytes 4, 6, 8 and 10.
            for b in 0..<16 {
                let word = b < 8 ? hi : lo
                let byte = Int(truncatingIfNeeded: word >> UInt64(56 - 8 * (b & 7))) & 0xFF
                var n = 2 * b
                if b >= 4 { n += 1 }
                if b >= 6 { n += 1 }
                if b >= 8 { n += 1 }
                if b >= 10 { n += 1 }
                out[n] = pairs[2 * byte]
                out[n + 1] = pairs[2 * byte + 1]
            }
            out[8] = UInt8(ascii: "-")
            out[13] = UInt8(ascii: "-")
            out[18] = UInt8(ascii: "-")
            out[23] = UInt8(ascii: "-")
            return 36
        }
    }
}
