/// The fixed-width integer types `JSONDecoder` decodes from a JSON number.
enum IntegerKind: String, Sendable, CaseIterable {
    case int = "Int", int8 = "Int8", int16 = "Int16", int32 = "Int32", int64 = "Int64"
    case uint = "UInt", uint8 = "UInt8", uint16 = "UInt16", uint32 = "UInt32", uint64 = "UInt64"

    var isSigned: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .int64: return true
        case .uint, .uint8, .uint16, .uint32, .uint64: return false
        }
    }

    var bitWidth: Int {
        switch self {
        case .int8, .uint8: return 8
        case .int16, .uint16: return 16
        case .int32, .uint32: return 32
        case .int, .uint: return Int.bitWidth
        case .int64, .uint64: return 64
        }
    }

    /// The largest magnitude a negative value may have (0 for unsigned types).
    var maxNegativeMagnitude: UInt64 {
        isSigned ? UInt64(1) << UInt64(bitWidth - 1) : 0
    }

    /// The largest positive value.
    var maxPositive: UInt64 {
        isSigned ? (UInt64(1) << UInt64(bitWidth - 1)) - 1 : (bitWidth == 64 ? UInt64.max : (UInt64(1) << UInt64(bitWidth)) - 1)
    }

    func holds(_ value: IntegerValue) -> Bool {
        value.negative ? value.magnitude <= maxNegativeMagnitude : value.magnitude <= maxPositive
    }
}

/// An integer up to 64 bits of magnitude with a sign. Zero is never negative.
struct IntegerValue: Hashable, Sendable, CustomStringConvertible {
    let negative: Bool
    let magnitude: UInt64

    init(negative: Bool, magnitude: UInt64) {
        self.negative = negative && magnitude != 0
        self.magnitude = magnitude
    }

    var description: String { negative ? "-\(magnitude)" : "\(magnitude)" }

    /// The next value (for an enum case without an explicit raw value), or nil past UInt64.max.
    var successor: IntegerValue? {
        if negative { return IntegerValue(negative: magnitude > 1, magnitude: magnitude - 1) }
        return magnitude == .max ? nil : IntegerValue(negative: false, magnitude: magnitude + 1)
    }
}
