import APNsCore

/// An expression in a recipe: compiled once when the recipe is loaded, with the value source of each name it
/// reads (a field, a kept field, the recipient's, the event's time) and the key it is written under, for the
/// message when it fails on an event.
struct RecipeExpression: Sendable {
    var compiled: CompiledExpr
    /// By ``ExprVariable/id``: the value each of its names reads.
    var inputs: [Recipe.Source]
    /// Where it is written (`events.status.push.when`).
    var key: String
    /// A let's (`let:`): its place in the run's cache of let values, and whether that value is the recipient's.
    var named: Named?
    var readsRecipient: Bool { inputs.contains(where: \.readsRecipient) }

    struct Named: Sendable {
        var slot: Int
        var perRecipient: Bool
    }
}

extension ExprValue {
    /// A recipe's value as an expression reads it: absent is null, a time a timestamp.
    init(_ v: RecipeValue) {
        switch v {
        case .absent, .omit: self = .null
        case let .int(n): self = .int(n)
        case let .number(d): self = .double(d)
        case let .bool(b): self = .bool(b)
        case let .string(s): self = .string(s)
        case let .ints(l): self = .list(l.map { .int($0) })
        case let .strings(l): self = .list(l.map { .string($0) })
        case let .time(ms): self = .timestamp(ms)
        }
    }

    /// The value a recipe keeps or writes: null is absent, a timestamp a time, a duration its whole seconds.
    var recipeValue: RecipeValue {
        switch self {
        case .null: return .absent
        case let .bool(b): return .bool(b)
        case let .int(n): return .int(n)
        case let .double(d): return .number(d)
        case let .string(s): return .string(s)
        case let .timestamp(ms): return .time(ms)
        case let .duration(ms): return .int(Int(ms.floorDiv(1000)))
        case let .list(items):
            let ints = items.compactMap { if case let .int(n) = $0 { return n } else { return nil } }
            if ints.count == items.count { return .ints(ints) }
            return .strings(items.compactMap { if case let .string(s) = $0 { return s } else { return nil } })
        }
    }
}

extension ExprType {
    /// The field type of a recipe value of this type (nil: a time, or not known until run time).
    var fieldType: Recipe.FieldType? {
        switch self {
        case .int: return .int
        case .double: return .number
        case .string: return .string
        case .bool: return .bool
        case .list(.int): return .ints
        case .list(.string): return .strings
        default: return nil
        }
    }
}
