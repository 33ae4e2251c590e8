/// How a profile's one-value key is read (its YAML type) and laid onto the configuration; a value the
/// setter refuses throws a ``RunConfigError`` naming the key, which the reader gives the key's line.
public struct ProfileRead: Sendable {
    /// What the YAML value must be.
    public enum Kind: Sendable, Equatable {
        /// An integer.
        case int
        /// A number.
        case number
        /// A non-empty scalar, as written.
        case text
        /// `true` or `false`.
        case bool
        /// A duration (`250ms`, `1s`, `1h30m`), at most a year.
        case duration
        /// A duration of whole seconds (`10s`, `1m`); `0` turns the setting off when allowed.
        case wholeSeconds(zeroTurnsOff: Bool)
    }

    /// A value read as its kind says.
    public enum Value: Sendable {
        case int(Int), number(Double), text(String), bool(Bool), duration(Duration)
    }

    public let kind: Kind
    /// Lays the value onto the configuration.
    public let apply: @Sendable (inout RunConfig, Value) throws -> Void

    public static func int(_ set: @escaping @Sendable (inout RunConfig, Int) throws -> Void) -> ProfileRead {
        ProfileRead(kind: .int) { c, v in if case let .int(n) = v { try set(&c, n) } }
    }

    public static func number(_ set: @escaping @Sendable (inout RunConfig, Double) throws -> Void) -> ProfileRead {
        ProfileRead(kind: .number) { c, v in if case let .number(n) = v { try set(&c, n) } }
    }

    public static func text(_ set: @escaping @Sendable (inout RunConfig, String) throws -> Void) -> ProfileRead {
        ProfileRead(kind: .text) { c, v in if case let .text(t) = v { try set(&c, t) } }
    }

    public static func bool(_ set: @escaping @Sendable (inout RunConfig, Bool) throws -> Void) -> ProfileRead {
        ProfileRead(kind: .bool) { c, v in if case let .bool(b) = v { try set(&c, b) } }
    }

    public static func duration(_ set: @escaping @Sendable (inout RunConfig, Duration) throws -> Void) -> ProfileRead {
        ProfileRead(kind: .duration) { c, v in if case let .duration(d) = v { try set(&c, d) } }
    }

    public static func wholeSeconds(zeroTurnsOff: Bool, _ set: @escaping @Sendable (inout RunConfig, Duration) throws -> Void) -> ProfileRead {
        ProfileRead(kind: .wholeSeconds(zeroTurnsOff: zeroTurnsOff)) { c, v in if case let .duration(d) = v { try set(&c, d) } }
    }
}
