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

    /// A kept field's value written `null` (`set: {driver_id: null}`, or `absent: null`): no value, and
    /// writing it clears the kept field (the same case as ``omit``, which a kept value never is otherwise).
    static let clear = RecipeValue.omit

    /// What writing this value to a kept field (`set:`, `remember:`) does: nil leaves the field as it was (an
    /// absent value), ``absent`` clears it (``clear``), any other value replaces it.
    var kept: RecipeValue? {
        switch self {
        case .absent: return nil
        case .omit: return .absent
        default: return self
        }
    }

    var isAbsent: Bool {
        switch self {
        case .absent, .omit: return true
        default: return false
        }
    }

    /// Whether it is a list (of keys, when a recipient's key reads it).
    var isList: Bool {
        switch self {
        case .ints, .strings: return true
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
