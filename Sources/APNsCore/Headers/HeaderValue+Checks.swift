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
        }
    }

    /// Why a push's own number of seconds is refused, or nil; `shown` is the value as read.
    public func refusal(seconds: Int?, shown: String) -> String? {
        guard case let .seconds(range) = self else { return nil }
        if let seconds, range.contains(seconds) { return nil }
        return "\(shown) is not a number of seconds from \(range.lowerBound) to \(range.upperBound)"
    }

    /// Why a recipe's constant (a default or a table's value; nil: neither text nor a number) is refused, or nil.
    public func refusal(constant: KindHeaderValue?) -> String? {
        switch (self, constant) {
        case let (.text(maxBytes, _), .text(t)?) where t.utf8.count <= maxBytes: return nil
        case let (.seconds(range), .number(n)?) where range.contains(n): return nil
        case let (.oneOf(texts), c?) where texts.contains(c.text): return nil
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
        }
    }

    /// What a constant must be.
    private var refusalText: String {
        switch self {
        case let .text(maxBytes, _): return "must be text of at most \(maxBytes) bytes (APNs' limit)"
        case let .seconds(range): return "must be a number of seconds from \(range.lowerBound) to \(range.upperBound)"
        case let .oneOf(texts): return "must be one of \(texts.joined(separator: ", "))"
        }
    }

    /// One value in words, for messages: "a collapse id".
    public var noun: String {
        switch self {
        case let .text(_, noun): return noun
        case .seconds: return "a number of seconds"
        case .oneOf: return "a value"
        }
    }

    /// The most bytes a value takes (a text's limit; 20 digits of seconds).
    public var maxBytes: Int {
        switch self {
        case let .text(maxBytes, _): return maxBytes
        case .seconds: return 20
        case let .oneOf(texts): return texts.map(\.utf8.count).max() ?? 0
        }
    }
}
