/// One reason a payload would not decode on the device.
public struct DecodeFailure: Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable, CaseIterable {
        /// A non-optional property's key is absent (`DecodingError.keyNotFound`).
        case missingKey
        /// `null` where the property is not optional (`valueNotFound`; for `Bool`, JSONDecoder
        /// reports `typeMismatch`).
        case nullForNonOptional
        /// A value of the wrong JSON type, a number that does not fit the integer, floating-point or
        /// `Decimal` type, or an enum without a raw type given no key, or several, naming its cases.
        case typeMismatch
        /// A raw value none of the enum's cases has (`dataCorrupted`).
        case badEnumValue
        /// A value of the right JSON type that the type cannot be made from (`dataCorrupted`): a string
        /// that is not a URL or UUID, a `Data` string that is not base64, a range whose lower bound is above
        /// its upper bound.
        case invalidValue
        /// A `Date` value the date strategy cannot read: the wrong JSON type, an ISO 8601 string the
        /// parser rejects, or a number outside `Double`.
        case badDate
        /// `aps`, `aps.content-state` or `aps.attributes` is absent, `null`, or not a JSON object;
        /// or the payload itself is not an object.
        case missingContainer
        /// Text JSONDecoder rejects as not valid JSON: a syntax error anywhere in the payload, or a
        /// malformed number, bad escape or invalid UTF-8 in a key or in a value that is decoded.
        case invalidJSON
    }

    /// Where: `content-state.responseTime`, `attributes.items[2].name`, `content-state.tags.k`;
    /// empty for the payload as a whole.
    public let path: String
    public let reason: Reason
    /// Expected versus found, e.g. `expected Date (a number of seconds since 2001-01-01), found string "2025-04-16T10:04:52Z"`.
    public let message: String

    public init(path: String, reason: Reason, message: String) {
        self.path = path
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(path.isEmpty ? "payload" : path): \(reason.rawValue): \(message)" }
}
