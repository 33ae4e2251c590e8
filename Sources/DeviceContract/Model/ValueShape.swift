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
    /// `Decimal`: a JSON number `Decimal(string:)` reads (JSONDecoder reads no string as a `Decimal`).
    case decimal
    /// `Data`: a base64 string `Data(base64Encoded:)` accepts (the default data strategy).
    case data
    /// `T?`, `Optional<T>` or `T!`: `null` and (for a property) a missing key decode as `nil`.
    case optional(ValueShape)
    case array(ValueShape)
    /// `Set<T>`: decoded as an array.
    case set(ValueShape)
    /// `Range<T>` / `ClosedRange<T>`: an array `[lower, upper]` (more elements are not read), lower ≤ upper.
    case range(ValueShape, closed: Bool)
    case dictionary(key: DictionaryKeyKind, value: ValueShape)
    /// A struct: an index into ``ActivityKitModel/objects``.
    case object(Int)
    /// An enum (by raw value, or keyed by case name): an index into ``ActivityKitModel/enums``.
    case enumeration(Int)
    /// A value whose decoding cannot be known from the declarations (custom `init(from:)`, a type declared
    /// in another file, a property wrapper): an index into ``ActivityKitModel/unchecked``. Any value present
    /// is left to it, `null` included.
    case unchecked(Int)

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

/// One decoded property (or associated value): its JSON key (the property name, its `CodingKeys` raw value,
/// or an associated value's label or `_0`, `_1`, …) and shape.
struct FieldShape: Sendable {
    let key: String
    let keyUTF8: [UInt8]
    let keyIsASCII: Bool
    let property: String
    let propertyUTF8: [UInt8]
    let shape: ValueShape
    let line: Int

    init(key: String, property: String, shape: ValueShape, line: Int) {
        self.key = key
        self.keyUTF8 = Array(key.utf8)
        self.keyIsASCII = self.keyUTF8.allSatisfy { $0 < 0x80 }
        self.property = property
        self.propertyUTF8 = Array(property.utf8)
        self.shape = shape
        self.line = line
    }
}

/// An enum as synthesized `Decodable` reads it: a `String`- or integer-backed enum by its raw values; one
/// without a raw type as an object with one key, the case's name, whose value is an object holding the
/// associated values (`{"moved": {"_0": 5}}`, `{"idle": {}}`).
struct EnumShape: Sendable {
    enum RawValues: Sendable {
        case strings([String])
        case integers(IntegerKind, [IntegerValue])
        case keyed([KeyedCase])
    }

    /// A case of an enum without a raw type: its name (the key) and associated values (the fields).
    struct KeyedCase: Sendable {
        let name: String
        let nameUTF8: [UInt8]
        let nameIsASCII: Bool
        var fields: [FieldShape]

        init(name: String, fields: [FieldShape]) {
            self.name = name
            self.nameUTF8 = Array(name.utf8)
            self.nameIsASCII = nameUTF8.allSatisfy { $0 < 0x80 }
            self.fields = fields
        }
    }

    let typeName: String
    var rawValues: RawValues
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
