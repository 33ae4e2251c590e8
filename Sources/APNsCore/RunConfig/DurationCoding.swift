/// How a duration of ``RunConfig`` is kept in JSON (report.json's `configuration`): in the unit and number type
/// its key has always named (`pushTimeoutMillis`: whole ms, `failFastSeconds`: seconds, `tokenRefreshMinutes`:
/// minutes), so that reports keep their schema while the configuration holds a `Duration`.
public protocol DurationUnit: Sendable {
    static func encode(_ d: Duration, to c: inout SingleValueEncodingContainer) throws
    static func decode(from c: SingleValueDecodingContainer) throws -> Duration
}

/// Whole milliseconds: `30000`.
public enum InMillis: DurationUnit {
    public static func encode(_ d: Duration, to c: inout SingleValueEncodingContainer) throws { try c.encode(d.millis) }
    public static func decode(from c: SingleValueDecodingContainer) throws -> Duration { .milliseconds(try c.decode(Int64.self)) }
}

/// Whole seconds: `10`.
public enum InWholeSeconds: DurationUnit {
    public static func encode(_ d: Duration, to c: inout SingleValueEncodingContainer) throws { try c.encode(Int(d.millis / 1000)) }
    public static func decode(from c: SingleValueDecodingContainer) throws -> Duration { .seconds(try c.decode(Int.self)) }
}

/// Seconds, with a fraction when there is one: `10`, `1.5`.
public enum InSeconds: DurationUnit {
    public static func encode(_ d: Duration, to c: inout SingleValueEncodingContainer) throws { try c.encode(d.secondsValue) }
    public static func decode(from c: SingleValueDecodingContainer) throws -> Duration { .secondsRounded(try c.decode(Double.self)) }
}

/// Minutes, with a fraction when there is one: `50`.
public enum InMinutes: DurationUnit {
    public static func encode(_ d: Duration, to c: inout SingleValueEncodingContainer) throws { try c.encode(d.minutesValue) }
    public static func decode(from c: SingleValueDecodingContainer) throws -> Duration { .secondsRounded(try c.decode(Double.self) * 60) }
}

/// A duration kept in JSON in `Unit`.
@propertyWrapper
public struct Kept<Unit: DurationUnit>: Codable, Equatable, Sendable {
    public var wrappedValue: Duration
    public init(wrappedValue: Duration) { self.wrappedValue = wrappedValue }
    public init(from decoder: Decoder) throws { wrappedValue = try Unit.decode(from: decoder.singleValueContainer()) }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try Unit.encode(wrappedValue, to: &c)
    }
}

/// A duration that may be unset, kept in JSON in `Unit`, its key left out when unset (as an optional number's is).
@propertyWrapper
public struct KeptIfSet<Unit: DurationUnit>: Codable, Equatable, Sendable {
    public var wrappedValue: Duration?
    public init(wrappedValue: Duration?) { self.wrappedValue = wrappedValue }
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try Unit.decode(from: c)
    }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        if let d = wrappedValue { try Unit.encode(d, to: &c) } else { try c.encodeNil() }
    }
}

extension KeyedEncodingContainer {
    /// An unset duration leaves its key out.
    public mutating func encode<U>(_ value: KeptIfSet<U>, forKey key: Key) throws {
        guard let d = value.wrappedValue else { return }
        try encode(Kept<U>(wrappedValue: d), forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// A missing key is an unset duration.
    public func decode<U>(_ type: KeptIfSet<U>.Type, forKey key: Key) throws -> KeptIfSet<U> {
        KeptIfSet(wrappedValue: try decodeIfPresent(Kept<U>.self, forKey: key)?.wrappedValue)
    }
}

extension Duration {
    /// The duration in minutes, as a number with a fraction.
    public var minutesValue: Double { Double(millis) / 60_000 }
}
