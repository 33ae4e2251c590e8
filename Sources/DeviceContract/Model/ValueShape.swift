/// What synthesized `Decodable` expects at one place in the JSON, after type names are resolved.
indirect enum ValueShape: Sendable, Equatable {
    case string
    case bool
    case integer(IntegerKind)
    case double
    case float
    /// `Date`: a number or a string, depending on the ``DateStrategy``.
    case date
    /// `URL`: a string `URL(string:)` accepts.
    case url
    /// `UUID`: a string `UUID(uuidString:)` accepts.
    case uuid
    /// `T?`, `Optional<T>` or `T!`: `null` and (for a property) a missing key decode as `nil`.
    case optional(ValueShape)
    case array(ValueShape)
    case dictionary(key: DictionaryKeyKind, value: ValueShape)
    /// A struct: an index into ``ActivityModel/objects``.
    case object(Int)
    /// A raw-value enum: an index into ``ActivityModel/enums``.
    case enumeration(Int)

    var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}

/// The key type of a dictionary property. `Dictionary<String, V>` and `Dictionary<Int, V>` decode
/// from a JSON object; an `Int` key must be a string that `Int(_:)` reads.
enum DictionaryKeyKind: Sendable, Equatable {
    case string
    case int
}

/// A struct's decoded properties, in the order synthesized `init(from:)` decodes them.
struct ObjectShape: Sendable {
    /// The qualified Swift name, e.g. `LeaveRequestAttributes.ContentState`.
    let typeName: String
    var fields: [FieldShape]
}

/// One decoded property: its JSON key (the property name, or its `CodingKeys` raw value) and shape.
struct FieldShape: Sendable {
    let key: String
    let keyUTF8: [UInt8]
    let keyIsASCII: Bool
    let property: String
    let shape: ValueShape
    let line: Int

    init(key: String, property: String, shape: ValueShape, line: Int) {
        self.key = key
        self.keyUTF8 = Array(key.utf8)
        self.keyIsASCII = self.keyUTF8.allSatisfy { $0 < 0x80 }
        self.property = property
        self.shape = shape
        self.line = line
    }
}

/// A `String`- or integer-backed enum: the raw values its cases accept.
struct EnumShape: Sendable {
    enum RawValues: Sendable {
        case strings([String])
        case integers(IntegerKind, [IntegerValue])
    }

    let typeName: String
    let rawValues: RawValues
    /// The string raw values' UTF-8, for byte comparison when both sides are ASCII.
    let stringRawUTF8: [[UInt8]]
    let stringRawValuesAreASCII: Bool

    init(typeName: String, rawValues: RawValues) {
        self.typeName = typeName
        self.rawValues = rawValues
        if case .strings(let values) = rawValues {
            stringRawUTF8 = values.map { Array($0.utf8) }
        } else {
            stringRawUTF8 = []
        }
        stringRawValuesAreASCII = stringRawUTF8.allSatisfy { $0.allSatisfy { $0 < 0x80 } }
    }
}
