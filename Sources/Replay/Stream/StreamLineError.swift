/// One bad line of a recorded stream: where (`line`, 1-based) and why (`cause`).
///
/// The run policy decides whether a bad line skips or stops the run; reports count bad lines by
/// `cause.key`, a short stable string (bounded cardinality: it never contains the line's data).
/// `description` is for people: `line 17: missing field 'request_id'`.
public struct StreamLineError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The physical line number in the file, 1-based (blank lines count).
    public let line: Int
    /// What is wrong with it.
    public let cause: Cause

    public init(line: Int, cause: Cause) {
        self.line = line
        self.cause = cause
    }

    /// The stable report key of `cause`, e.g. `missing_field`.
    public var key: String { cause.key }

    public var description: String { "line \(line): \(cause)" }

    /// Why a line is bad. Each case has a stable `key` for reports; the associated values are for
    /// the human-readable `description` only.
    public enum Cause: Equatable, Sendable, CustomStringConvertible {
        /// The line is not a JSON object the parser accepts. The detail names the problem and its
        /// byte position (1-based, within the line), e.g. `unterminated string at byte 41`.
        /// Duplicate keys and too-deep nesting are reported here too.
        case notJSON(String)
        /// A required field is absent.
        case missingField(String)
        /// A field (or an array element, named like `store_ids[2]`) has the wrong JSON type.
        case wrongType(field: String, expected: FlatJSON.ValueType, found: FlatJSON.ValueType)
        /// The `kind` is not one the workload knows (checked by the workload, not by the reader).
        case unknownKind(String)
        /// A timestamp field is not an RFC 3339 timestamp with a zone (`Z` or `±HH:MM`).
        case badTimestamp(field: String, value: String)
        /// A time field written as an epoch number (`unit`: `seconds` or `milliseconds`) lies
        /// outside 0000-01-01 … 9999-12-31. Reported under the key `bad_timestamp`.
        case badEpochTime(field: String, unit: String, value: String)
        /// The line's `at` is earlier than the latest `at` seen, by more than the tolerance;
        /// `byMillis` is how far behind the latest it is (milliseconds, > 0).
        case timeBackwards(byMillis: Int64)
        /// A field has the right type but an unusable value (e.g. an integer out of range).
        case badValue(field: String, why: String)
        /// The line is longer than the reader's limit and was skipped without being read whole.
        case lineTooLong

        /// Every key `key` can return, in declaration order (for report schemas).
        public static let allKeys: [String] = [
            "not_json", "missing_field", "wrong_type", "unknown_kind",
            "bad_timestamp", "time_backwards", "bad_value", "line_too_long",
        ]

        /// The short, stable key used in reports.
        public var key: String {
            switch self {
            case .notJSON: return "not_json"
            case .missingField: return "missing_field"
            case .wrongType: return "wrong_type"
            case .unknownKind: return "unknown_kind"
            case .badTimestamp, .badEpochTime: return "bad_timestamp"
            case .timeBackwards: return "time_backwards"
            case .badValue: return "bad_value"
            case .lineTooLong: return "line_too_long"
            }
        }

        public var description: String {
            switch self {
            case let .notJSON(detail):
                return "not JSON (\(detail))"
            case let .missingField(name):
                return "missing field '\(Self.clip(name))'"
            case let .wrongType(field, expected, found):
                return "field '\(Self.clip(field))' should be \(expected.phrase), found \(found.phrase)"
            case let .unknownKind(kind):
                return "unknown kind '\(Self.clip(kind))'"
            case let .badTimestamp(field, value):
                return "field '\(Self.clip(field))' is not an RFC 3339 timestamp: '\(Self.clip(value))'"
            case let .badEpochTime(field, unit, value):
                return "field '\(Self.clip(field))' is not epoch \(unit): '\(Self.clip(value))'"
            case let .timeBackwards(byMillis):
                return "time goes backwards by \(byMillis) ms"
            case let .badValue(field, why):
                return "bad value in field '\(Self.clip(field))': \(why)"
            case .lineTooLong:
                return "line too long"
            }
        }

        /// Keeps messages one short line: values from the input are cut at 60 characters and
        /// control characters (a decoded `\n`, say) are shown as `?`.
        static func clip(_ text: String) -> String {
            let limit = 60
            var out = String.UnicodeScalarView()
            var count = 0
            for scalar in text.unicodeScalars {
                if count == limit {
                    out.append("…")
                    break
                }
                count += 1
                out.append(scalar.value < 0x20 || scalar.value == 0x7F ? "?" : scalar)
            }
            return String(out)
        }
    }
}
