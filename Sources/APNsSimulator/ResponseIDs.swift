/// Lowercase canonical UUIDs (8-4-4-4-12) for `apns-id` and `apns-unique-id`, from a per-connection
/// generator: cheaper than Foundation's UUID on the hot path, unique enough for a simulator.
struct ResponseIDs {
    private var random: SeededRandom

    init() { random = SeededRandom(seed: UInt64.random(in: .min ... .max)) }

    /// Version 4 (random), variant 10xx.
    mutating func next() -> String {
        let hi = random.next() & ~0xF000 | 0x4000
        let lo = random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { out in
            let digits: StaticString = "0123456789abcdef"
            let d = digits.utf8Start
            // Nibbles from the top of `hi` then `lo`; a dash before nibbles 8, 12, 16 and 20.
            var n = 0
            var shift = 60
            for i in 0..<16 {
                if i == 8 || i == 12 { out[n] = UInt8(ascii: "-"); n += 1 }
                out[n] = d[Int(truncatingIfNeeded: hi >> UInt64(shift)) & 0xF]
                n += 1
                shift -= 4
            }
            shift = 60
            for i in 0..<16 {
                if i == 0 || i == 4 { out[n] = UInt8(ascii: "-"); n += 1 }
                out[n] = d[Int(truncatingIfNeeded: lo >> UInt64(shift)) & 0xF]
                n += 1
                shift -= 4
            }
            return n
        }
    }
}
