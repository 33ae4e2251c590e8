/// Which fields of a recorded line give its time and its kind, and how the time is written.
///
/// The default is the shape of the project's own recordings: `at` holds an RFC 3339 timestamp and
/// `kind` a non-empty string. Other recordings (an app's logged API calls, say) name their time
/// field differently, write epoch numbers, or have no kind field at all.
public struct RecordShape: Sendable, Equatable, CustomStringConvertible {
    /// How the time field is written.
    public enum TimeFormat: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A JSON string with an RFC 3339 timestamp, see `Timestamp`.
        case iso8601
        /// A JSON integer or number: seconds since 1970-01-01T00:00:00Z. A fraction is allowed;
        /// digits beyond milliseconds are truncated, like `Timestamp`'s.
        case unixSeconds = "unix_seconds"
        /// A JSON integer: milliseconds since 1970-01-01T00:00:00Z.
        case unixMillis = "unix_millis"

        public var description: String { rawValue }
    }

    /// The top-level field that holds the record's time. Default `at`.
    public var timeField: String
    /// How `timeField` is written. Default `.iso8601`.
    public var timeFormat: TimeFormat
    /// The top-level field that holds the record's kind, a non-empty string; nil when the lines
    /// have no kind (every record's kind is then ""). Default `kind`.
    public var kindField: String?

    /// The project's own recordings: `at` (RFC 3339) and `kind`.
    public static let standard = RecordShape()

    public init(timeField: String = "at", timeFormat: TimeFormat = .iso8601, kindField: String? = "kind") {
        self.timeField = timeField
        self.timeFormat = timeFormat
        self.kindField = kindField
    }

    /// E.g. `time 'at' (iso8601), kind 'kind'` or `time 'ts' (unix_millis), no kind`.
    public var description: String {
        "time '\(timeField)' (\(timeFormat)), " + (kindField.map { "kind '\($0)'" } ?? "no kind")
    }
}
