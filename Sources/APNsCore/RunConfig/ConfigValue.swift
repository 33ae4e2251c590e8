import Foundation

/// A section of configuration kept as written, as a JSON value: the profile's `simulator:` section,
/// whose keys belong to the simulator (`apnsbench simulate --config`), not to the run. It travels in
/// ``RunConfig`` to the report, where `compare` sees it key by key like any other setting, and back to
/// the simulator, which reads it with the same strict reader as a configuration file.
public indirect enum ConfigValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([ConfigValue])
    case object([String: ConfigValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([ConfigValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: ConfigValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case let .bool(b): try c.encode(b)
        case let .int(i): try c.encode(i)
        case let .double(d): try c.encode(d)
        case let .string(s): try c.encode(s)
        case let .array(a): try c.encode(a)
        case let .object(o): try c.encode(o)
        }
    }

    /// The value as JSON text, keys sorted (JSON is YAML, so a YAML reader takes it as it is), written by
    /// Foundation's encoder: its escaping, not one of our own.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // YAML's .inf and .nan come back as strings, which the simulator's reader refuses naming the key.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: ".inf", negativeInfinity: "-.inf", nan: ".nan")
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The object's value at `key`; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> ConfigValue? {
        guard case let .object(o) = self else { return nil }
        return o[key]
    }
}
