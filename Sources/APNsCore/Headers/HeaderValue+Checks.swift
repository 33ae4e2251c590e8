/// How a header's value is checked: the messages a bad recipe or a bad line gets.
extension APNsHeader.Value {
    /// Why a push's own text is refused (the detail of a bad line), or nil when APNs takes it.
    public func refusal(text bytes: [UInt8]) -> String? {
        switch self {
        case let .text(maxBytes, _):
            guard bytes.count > maxBytes else { return nil }
            let shown = String(decoding: bytes.prefix(24), as: UTF8.self)
            return "'\(shown)…' is \(bytes.count) bytes; APNs takes at most \(maxBytes)"
        case .seconds:
            return nil
        case let .oneOf(texts):
            let text = String(decoding: bytes, as: UTF8.self)
            return texts.contains(text) ? nil : "'\(text)' is not one of \(texts.joined(separator: ", "))"
        case .uuid:
            guard !UUIDText.isCanonical(bytes) else { return nil }
            let shown = String(decoding: bytes.prefix(40), as: UTF8.self) + (bytes.count > 40 ? "…" : "")
            return "'\(shown)' is not a UUID (8-4-4-4-12 hex digits, like 123e4567-e89b-12d3-a456-426614174000)"
        }
    }

    /// Why a push's own number of seconds is refused, or nil; `shown` is the value as read.
    public func refusal(seconds: Int?, shown: String) -> String? {
        guard case let .seconds(range) = self else { return nil }
        if let seconds, range.contains(seconds) { return nil }
        return "\(shown) is not a number of seconds from \(range.lowerBound) to \(range.upperBound)"
    }

    /// Why a recipe's constant (a default or a table's value; nil: neither text nor a number) is refused, or nil.
    public func refusal(constant: HeaderConstant?) -> String? {
        switch (self, constant) {
        case let (.text(maxBytes, _), .text(t)?) where t.utf8.count <= maxBytes: return nil
        case let (.seconds(range), .number(n)?) where range.contains(n): return nil
        case let (.oneOf(texts), c?) where texts.contains(c.text): return nil
        case let (.uuid, .text(t)?) where UUIDText.isCanonical(t.utf8): return nil
        default: return refusalText
        }
    }

    /// Writes a value made for one push from `seed` into `bytes`, emptied first (a row whose sources include
    /// ``APNsHeader/Source/perPush``); the same seed makes the same value. Allocates nothing once `bytes` has
    /// room for ``maxBytes``.
    public func generate(seed: UInt64, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        switch self {
        case .text, .seconds, .oneOf: break
        case .uuid:
            var random = SplitMix64(seed: seed)
            Self.appendUUID(hi: random.next() & ~0xF000 | 0x4000, lo: random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000, to: &bytes)
        }
    }

    /// The 128 bits `hi` then `lo` as a lowercase canonical UUID, most significant digit first.
    private static func appendUUID(hi: UInt64, lo: UInt64, to bytes: inout [UInt8]) {
        for digit in 0 ..< 32 {
            if digit == 8 || digit == 12 || digit == 16 || digit == 20 { bytes.append(UInt8(ascii: "-")) }
            let word = digit < 16 ? hi : lo
            let nibble = Int(truncatingIfNeeded: word >> UInt64(60 - 4 * (digit & 15))) & 0xF
            bytes.append(nibble < 10 ? UInt8(48 + nibble) : UInt8(87 + nibble))
        }
    }

    /// What a constant must be.
    private var refusalText: String {
        switch self {
        case let .text(maxBytes, _): return "must be text of at most \(maxBytes) bytes (APNs' limit)"
        case let .seconds(range): return "must be a number of seconds from \(range.lowerBound) to \(range.upperBound)"
        case let .oneOf(texts): return "must be one of \(texts.joined(separator: ", "))"
        case .uuid: return "must be a UUID (8-4-4-4-12 hex digits)"
        }
    }

    /// One value in words, for messages: "a collapse id".
    public var noun: String {
        switch self {
        case let .text(_, noun): return noun
        case .seconds: return "a number of seconds"
        case .oneOf: return "a value"
        case .uuid: return "a UUID"
        }
    }

    /// The most bytes a value takes (a text's limit; 20 digits of seconds).
    public var maxBytes: Int {
        switch self {
        case let .text(maxBytes, _): return maxBytes
        case .seconds: return 20
        case let .oneOf(texts): return texts.map(\.utf8.count).max() ?? 0
        case .uuid: return 36
        }
    }
}
