/// How the app's `JSONDecoder` decodes `Date` values (its `dateDecodingStrategy`).
///
/// ActivityKit decodes with a default `JSONDecoder`, so a device uses ``deferredToDate``.
public enum DateStrategy: String, Sendable, CaseIterable {
    /// `Date(from:)`: a JSON number of seconds since 2001-01-01 00:00:00 UTC.
    case deferredToDate
    /// A JSON number of seconds since 1970-01-01 00:00:00 UTC.
    case secondsSince1970
    /// A JSON number of milliseconds since 1970-01-01 00:00:00 UTC.
    case millisecondsSince1970
    /// A JSON string that `Date.ISO8601FormatStyle().parse(_:)` accepts, the parser `JSONDecoder`
    /// uses on Apple platforms since iOS 15 / macOS 12 and in swift-corelibs-foundation on Linux.
    case iso8601
}
