import APNsCore

/// A value a recipe reads from an event or keeps on an entity.
enum RecipeValue: Equatable, Sendable {
    case absent
    case int(Int)
    case number(Double)
    case bool(Bool)
    case string(String)
    case ints([Int])
    case strings([String])
    /// A time, epoch milliseconds: written as the slot's format says.
    case time(Int64)
    /// No value, and the slot's member is left out of the payload (`absent: omit`).
    case omit

    var isAbsent: Bool {
        switch self {
        case .absent, .omit: return true
        default: return false
        }
    }

    /// The value as a key of an entity or a group (nil for a list or an absent value).
    var key: EntityKey? {
        switch self {
        case let .int(n): return .int(n)
        case let .string(s): return .string(s)
        case let .bool(b): return .string(b ? "true" : "false")
        case .absent, .omit, .number, .ints, .strings, .time: return nil
        }
    }

    /// The value as text, for maps and messages.
    var text: String? {
        switch self {
        case let .int(n): return String(n)
        case let .string(s): return s
        case let .bool(b): return b ? "true" : "false"
        case let .number(d): return String(d)
        case let .time(ms): return Timestamp.iso8601(millis: ms)
        case .absent, .omit, .ints, .strings: return nil
        }
    }
}

/// The key of an entity (a device, a request) or of a group (a store, a family).
enum EntityKey: Hashable, CustomStringConvertible, Sendable {
    case int(Int)
    case string(String)

    var description: String {
        switch self {
        case let .int(n): return String(n)
        case let .string(s): return "'\(s)'"
        }
    }

    var value: RecipeValue {
        switch self {
        case let .int(n): return .int(n)
        case let .string(s): return .string(s)
        }
    }
}

/// An entity's group and the key it follows there (store 7, family 111).
struct GroupKey: Hashable {
    var group: Int
    var key: EntityKey
}
