extension Recipe {
    /// A push rule's `when:`: tests of values the event carries or keeps (its fields, fields kept on entities
    /// it names), combined with all / any.
    indirect enum Condition: Sendable {
        case test(Source, Test)
        case all([Condition])
        case any([Condition])
        /// A bool expression (`when: "status == 'delivered' && has(order.token)"`).
        case expression(RecipeExpression)
    }

    /// One test of a value. Every constant was typed against the value's field when the recipe was loaded.
    enum Test: Sendable {
        case equals(RecipeValue)
        case oneOf([RecipeValue])
        /// Holds when the value is none of these (an absent value included).
        case noneOf([RecipeValue])
        case present
        case absent
        /// A number compared with a constant; an absent or non-numeric value fails.
        case compare(Comparison, Double)
    }

    enum Comparison: String, Sendable, CaseIterable {
        case gt, ge, lt, le

        func holds(_ a: Double, _ b: Double) -> Bool {
            switch self {
            case .gt: return a > b
            case .ge: return a >= b
            case .lt: return a < b
            case .le: return a <= b
            }
        }
    }

    /// A field kept on an entity that an event field names, reached hop by hop: the event field's value is the
    /// key of the first hop's entity, each hop's field the key of the next hop's entity, and the last hop's
    /// field is the value.
    struct Relation: Sendable {
        struct Hop: Sendable {
            var entity: Int
            var field: Int
        }

        /// The event field holding the first entity's key.
        var start: Int
        var hops: [Hop]
    }
}

extension Recipe.Test {
    /// Whether `v` passes.
    func holds(_ v: RecipeValue) -> Bool {
        switch self {
        case let .equals(c): return Self.same(v, c)
        case let .oneOf(list): return list.contains { Self.same(v, $0) }
        case let .noneOf(list): return !list.contains { Self.same(v, $0) }
        case .present: return !v.isAbsent
        case .absent: return v.isAbsent
        case let .compare(op, n):
            switch v {
            case let .int(i): return op.holds(Double(i), n)
            case let .number(d): return op.holds(d, n)
            case let .time(ms): return op.holds(Double(ms), n)
            default: return false
            }
        }
    }

    /// Equal values; an int and a number compare as numbers; a kept value of another type by its text.
    private static func same(_ v: RecipeValue, _ c: RecipeValue) -> Bool {
        if v == c { return true }
        switch (v, c) {
        case let (.int(a), .number(b)), let (.number(b), .int(a)): return Double(a) == b
        case (.absent, _), (.omit, _), (.ints, _), (.strings, _): return false
        case (.string, .string), (.int, .int), (.bool, .bool), (.number, .number): return false
        default: return v.text == c.text
        }
    }
}
