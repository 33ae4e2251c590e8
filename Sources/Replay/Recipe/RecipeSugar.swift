import YAMLReading

/// The mapping form of `when:` as the expressions it is sugar for (docs/recipes.md, "The older keys are
/// sugar"): each test of one value, written with the value's name, its type and whether it may be null, so
/// that it means what it meant when it was evaluated apart. A constant is written as a literal of the value's
/// type (`5` compared with a string field is `'5'`: such values compared by their text); one that no literal
/// of that type stands for is compared by text, `string(v) == '…'`.
struct RecipeSugar {
    /// The value as an expression reads it (`status`, `order.total`).
    var name: String
    var type: ExprType
    var nullable: Bool

    /// `v == c`.
    func equals(_ c: RecipeValue, at e: StrictYAML.Entry, _ b: Builder) throws -> String {
        try refuseList(c, at: e, b)
        if let lit = literal(c) { return "\(name) == \(lit.text)" }
        return "\(nullable ? "\(name) != null && " : "")string(\(name)) == \(Self.quoted(c.text ?? ""))"
    }

    /// `v in [a, b]`, or the equalities joined by `||` when no one list holds the constants.
    func oneOf(_ cs: [RecipeValue], at e: StrictYAML.Entry, _ b: Builder) throws -> String {
        if cs.count == 1 { return try equals(cs[0], at: e, b) }
        if let list = try list(cs, at: e, b) { return "\(name) in \(list)" }
        return Builder.joined(try cs.map { try equals($0, at: e, b) }, "||")
    }

    /// None of them: `v != c`, `!(v in [a, b])` (an absent value is none of them).
    func noneOf(_ cs: [RecipeValue], at e: StrictYAML.Entry, _ b: Builder) throws -> String {
        if cs.count == 1, let lit = literal(cs[0]) {
            try refuseList(cs[0], at: e, b)
            return "\(name) != \(lit.text)"
        }
        return "!(\(try oneOf(cs, at: e, b)))"
    }

    /// `v > n` (`>=`, `<`, `<=`): an absent value fails, so a nullable one is tested first.
    func compare(_ op: Recipe.Comparison, _ n: Double, at e: StrictYAML.Entry, _ b: Builder) throws -> String {
        let symbol = [Recipe.Comparison.gt: ">", .ge: ">=", .lt: "<", .le: "<="][op]!
        let number = n == n.rounded() && abs(n) < 9e15 ? String(Int(n)) : String(n)
        guard type == .int || type == .double else {
            throw b.fail(e, "compares '\(name)', whose type is \(type), with a number, which the mapping form no longer does: "
                + "write the test as an expression with the type it needs, like when: \"\(name) != null && int(\(name)) \(symbol) \(number)\"")
        }
        return "\(nullable ? "\(name) != null && " : "")\(name) \(symbol) \(number)"
    }

    /// A list of the constants as literals of one type, or nil.
    private func list(_ cs: [RecipeValue], at e: StrictYAML.Entry, _ b: Builder) throws -> String? {
        for c in cs { try refuseList(c, at: e, b) }
        let lits = cs.map(literal)
        guard let first = lits.first??.type, first != .null, lits.allSatisfy({ $0?.type == first }) else { return nil }
        return "[\(lits.map { $0!.text }.joined(separator: ", "))]"
    }

    /// A list compared with one value was never equal: that test is retired.
    private func refuseList(_ c: RecipeValue, at e: StrictYAML.Entry, _ b: Builder) throws {
        guard case .list = type, !c.isAbsent else { return }
        throw b.fail(e, "compares the list '\(name)' with one value, which is never equal: test membership with an expression, "
            + "like when: \"\(Self.quoted(c.text ?? "")) in \(name)\"")
    }

    /// The constant as a literal that compares with the value as the mapping form compared it (nil: by text).
    func literal(_ c: RecipeValue) -> (text: String, type: ExprType)? {
        if c.isAbsent { return ("null", .null) }
        switch (type, c) {
        case (.string, _): return c.text.map { (Self.quoted($0), .string) }
        case let (.int, .int(n)), let (.double, .int(n)): return (String(n), .int)
        case let (.int, .number(d)), let (.double, .number(d)): return (String(d), .double)
        case let (.int, .string(s)):
            guard let n = Int(s), String(n) == s else { return nil }
            return (s, .int)
        case let (.bool, .bool(v)): return (v ? "true" : "false", .bool)
        case let (.bool, .string(s)) where s == "true" || s == "false": return (s, .bool)
        default: return nil
        }
    }

    /// Text as an expression's literal: in single quotes, with `\`, `'`, newlines and tabs escaped.
    static func quoted(_ s: String) -> String {
        var out = "'"
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(ch)
            }
        }
        return out + "'"
    }
}
