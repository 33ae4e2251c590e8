import YAMLReading
import Yams

extension Builder {
    /// `when:`: an expression, or the mapping form, sugar expanded here into the expression it means
    /// (``conditionText(_:event:)``) and compiled as one: every condition is one expression.
    func condition(_ e: Entry, event: Recipe.EventRule) throws -> RecipeExpression {
        let text = try conditionText(e, event: event)
        let x = try condition(text, e, event: event, recipient: nil, what: "a condition")
        if x.readsRecipient {
            throw fail(e, "reads the recipient, but a condition is tested once per event, "
                + "before its recipients are known (filter them with 'to: {…, where: …}')")
        }
        return x
    }

    /// The expression a `when:` means: its text as written, or the mapping form expanded: a mapping of
    /// values to tests, all of which must hold (`&&`), `all: […]` (`&&`) and `any: […]` (`||`).
    func conditionText(_ e: Entry, event: Recipe.EventRule) throws -> String {
        if case .scalar = e.node { return try reader.text(e) }
        let m = try reader.map(e)
        guard !m.entries.isEmpty else { throw fail(e, "tests nothing: give {FIELD: VALUE}, {FIELD: {one_of: […]}}, all: […] or any: […]") }
        var parts: [String] = []
        for entry in m.entries {
            switch entry.key {
            case "all", "any":
                let items = try reader.list(entry)
                guard !items.isEmpty else { throw fail(entry, "lists no condition") }
                let inner = try items.map { try conditionText($0, event: event) }
                parts.append(Self.joined(inner, entry.key == "all" ? "&&" : "||"))
            default:
                parts.append(contentsOf: try tests(entry, event: event))
            }
        }
        return Self.joined(parts, "&&")
    }

    /// Conditions joined by `op`, each in brackets unless it is one test without `&&`, `||` or `?`.
    static func joined(_ parts: [String], _ op: String) -> String {
        guard parts.count > 1 else { return parts[0] }
        return parts.map { p in ["&&", "||", "?"].contains(where: p.contains) ? "(\(p))" : p }.joined(separator: " \(op) ")
    }

    /// `FIELD: VALUE` (equals) or `FIELD: {equals, one_of, not, present, absent, gt, ge, lt, le}`, each test
    /// expanded (``RecipeSugar``).
    private func tests(_ entry: Entry, event: Recipe.EventRule) throws -> [String] {
        if entry.key.hasPrefix("recipient.") {
            throw fail(entry, "reads the recipient, but a condition is tested once per event, before its recipients are known")
        }
        let keyEntry = Entry(key: entry.key, path: entry.path, line: entry.line, node: .scalar(.init(entry.key)))
        let src = try source(keyEntry, event: event, recipient: nil)
        let fieldType = type(of: src, event: event, recipient: nil)
        let (exprType, nullable) = self.exprType(src, event: event, recipient: nil)
        let sugar = RecipeSugar(name: entry.key, type: exprType, nullable: nullable)
        let allowed = fieldRule(src, event: event)?.oneOf
        guard case .mapping = entry.node else {
            return [try sugar.equals(try value(entry, allowed: allowed, key: entry.key), at: entry, self)]
        }
        let m = try reader.map(entry)
        try reader.check(m, RecipeForms.test, at: entry)
        try refuseNeverHolding(m, entry)
        return try m.entries.map { t -> String in
            switch t.key {
            case "equals": return try sugar.equals(try value(t, allowed: allowed, key: entry.key), at: t, self)
            case "one_of": return try sugar.oneOf(try reader.list(t).map { try value($0, allowed: allowed, key: entry.key) }, at: t, self)
            case "not":
                if case .sequence = t.node { return try sugar.noneOf(try reader.list(t).map { try value($0, allowed: allowed, key: entry.key) }, at: t, self) }
                return try sugar.noneOf([try value(t, allowed: allowed, key: entry.key)], at: t, self)
            case "present", "absent":
                let wanted = try reader.bool(t) == (t.key == "present")
                return wanted ? "\(entry.key) != null" : "\(entry.key) == null"
            default:
                if let fieldType, fieldType != .int, fieldType != .number {
                    throw fail(t, "compares '\(entry.key)', a \(fieldType.rawValue) field, with a number: \(t.key) goes with an int or a number")
                }
                return try sugar.compare(Recipe.Comparison(rawValue: t.key)!, try reader.number(t), at: t, self)
            }
        }
    }

    /// One field's value tests that no value could pass together: an empty `one_of`, an `equals` that
    /// `one_of` or `not` excludes, a `one_of` whose every value `not` excludes, bounds that leave no number.
    private func refuseNeverHolding(_ m: StrictYAML.Mapping, _ entry: Entry) throws {
        func texts(_ e: Entry) throws -> [String] {
            if case .sequence = e.node { return try reader.list(e).map(reader.text) }
            return [try reader.text(e)]
        }
        let excluded = try m["not"].map(texts) ?? []
        if let one = m["one_of"] {
            let values = try texts(one)
            guard !values.isEmpty else { throw fail(one, "lists no value: the test can never hold") }
            if values.allSatisfy(excluded.contains) { throw fail(one, "can never hold: 'not' excludes every value of 'one_of'") }
            if let eq = m["equals"], !values.contains(try reader.text(eq)) { throw fail(eq, "can never hold: '\(try reader.text(eq))' is not one of 'one_of'") }
        }
        if let eq = m["equals"], excluded.contains(try reader.text(eq)) { throw fail(eq, "can never hold: 'not' excludes '\(try reader.text(eq))'") }
        if let n = m["not"], case .sequence = n.node, excluded.isEmpty { throw fail(n, "lists no value: give the values the field must not have") }
        var low = -Double.infinity, high = Double.infinity, lowOpen = false, highOpen = false
        for t in m.entries {
            guard let c = Recipe.Comparison(rawValue: t.key) else { continue }
            let v = try reader.number(t)
            switch c {
            case .gt: if v >= low { low = v; lowOpen = true }
            case .ge: if v > low { low = v; lowOpen = false }
            case .lt: if v <= high { high = v; highOpen = true }
            case .le: if v < high { high = v; highOpen = false }
            }
        }
        if low > high || (low == high && (lowOpen || highOpen)) {
            let bounds = m.entries.filter { Recipe.Comparison(rawValue: $0.key) != nil }.map { "\($0.key) \($0.node.string ?? "")" }
            throw fail(entry, "can never hold: no number is \(bounds.joined(separator: " and "))")
        }
    }

    /// A constant a test compares with; one the field's `one_of` does not allow could never be equal.
    private func value(_ e: Entry, allowed: [RecipeValue]?, key: String) throws -> RecipeValue {
        let v = try constant(e)
        if let allowed, !allowed.contains(where: { $0 == v || $0.text == v.text }) {
            throw fail(e, "can never hold: '\(v.text ?? "null")' is not one of the values '\(key)' allows "
                + "(\(allowed.compactMap(\.text).joined(separator: ", ")))")
        }
        return v
    }

    /// The event field a source reads directly, if it does.
    private func fieldRule(_ s: Recipe.Source, event: Recipe.EventRule) -> Recipe.FieldRule? {
        if case let .field(i) = s { return event.fields[i] }
        return nil
    }
}
