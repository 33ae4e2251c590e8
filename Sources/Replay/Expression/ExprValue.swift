/// A value an expression computes: CEL's null, bool, int (64 bits), double, string, list, timestamp and
/// duration (both in milliseconds).
enum ExprValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list([ExprValue])
    /// Milliseconds since 1970.
    case timestamp(Int64)
    /// Milliseconds.
    case duration(Int64)

    var type: ExprType {
        switch self {
        case .null: return .null
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .string: return .string
        case let .list(items): return .list(items.first?.type ?? .dyn)
        case .timestamp: return .timestamp
        case .duration: return .duration
        }
    }
}

/// The type of an expression's value, known when the recipe is loaded. `dyn` is a value whose type is only
/// known at run time (a kept field set from sources that disagree); an entity is a name that holds no value
/// of its own, compared with `null` (does it exist?) or read through (`order.status`).
indirect enum ExprType: Hashable, Sendable, CustomStringConvertible {
    case null, bool, int, double, string, timestamp, duration, dyn
    case list(ExprType)
    case entity(String)

    /// Whether it is, or holds, a list whose items' type is not known (`list(dyn)`).
    var hasUnknownList: Bool {
        if case let .list(t) = self { return t == .dyn || t.hasUnknownList }
        return false
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .timestamp: return "timestamp"
        case .duration: return "duration"
        case .dyn: return "dyn"
        case let .list(t): return "list(\(t))"
        case let .entity(name): return name
        }
    }

    var isNumber: Bool { self == .int || self == .double }

    /// A list's item type; nil for any other type.
    var element: ExprType? {
        if case let .list(t) = self { return t }
        return nil
    }

    /// The one type two types share: their own when they are equal, and for two lists, the list whose items'
    /// type is both's, where items of unknown type (`dyn`, as in an empty list `[]`) take the other's:
    /// `list(dyn)` and `list(int)` share `list(int)`. Nil when they share none.
    static func unified(_ a: ExprType, _ b: ExprType) -> ExprType? {
        if a == b { return a }
        guard case let .list(x) = a, case let .list(y) = b else { return nil }
        if y == .dyn { return a }
        if x == .dyn { return b }
        return unified(x, y).map { .list($0) }
    }

    /// Whether values of the two types can be compared for equality (CEL compares ints and doubles as numbers).
    func comparable(with other: ExprType) -> Bool {
        if self == other || self == .dyn || other == .dyn || self == .null || other == .null { return true }
        if isNumber, other.isNumber { return true }
        if case let .list(a) = self, case let .list(b) = other { return a.comparable(with: b) }
        return false
    }
}

/// What an expression reads: the type of a name, resolved when the recipe is loaded, and the number by which
/// ``ExprInput`` reads its value per event.
struct ExprVariable: Sendable {
    var id: Int
    var type: ExprType
    /// Whether it may be null at run time (an optional field, a kept field, a missing entity).
    var nullable: Bool
}

/// The names an expression may use, for the checker: a path of names resolves to a variable or is a mistake
/// (an ``ExprError`` whose message says what the names are).
protocol ExprNames {
    func variable(_ path: [String], column: Int) throws -> ExprVariable
}

/// The values of an expression's variables for the event (and push) being planned.
protocol ExprInput: AnyObject {
    func read(_ variable: Int) -> ExprValue
}

/// A failure while evaluating (integer overflow, division by zero, a null where a value is needed), at the
/// column of the operation that failed.
struct ExprFault: Error, Equatable, Sendable {
    var column: Int
    var message: String
}
