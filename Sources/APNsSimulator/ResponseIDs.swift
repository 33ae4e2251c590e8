/// Lowercase canonical UUIDs (8-4-4-4-12) for `apns-id` and `apns-unique-id`, from a per-connection
/// generator: cheaper than Foundation's UUID on the hot path, unique enough for a simulator.
struct ResponseIDs {
    private var random: SeededRandom

    init() { random = SeededRandom(seed: UInt64.random(in: .min ... .max)) }

    mutating func next() -> String {
        let hi = random.next(), lo = random.next()
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { out in
            var n = 0
            for i in 0..<32 {
                if i == 8 || i == 12 || i == 16 || i == 20 { out[n] = UInt8(ascii: "-"); n += 1 }
                var nibble = (i < 16 ? hi >> (60 - 4 * UInt64(i)) : lo >> (60 - 4 * UInt64(i - 16))) & 0xF
                if i == 12 { nibble = 4 }  // version 4
                if i == 16 { nibble = 8 | (nibble & 0x3) }  // variant 10xx
                out[n] = digits.utf8Start[Int(nibble)]
                n += 1
            }
            return n
        }
    }
}
