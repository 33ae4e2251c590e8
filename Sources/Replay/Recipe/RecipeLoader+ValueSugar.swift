import YAMLReading

/// The value sources that are sugar (docs/recipes.md, "Value sources"): `{from: S, default: D}`, `absent: empty`
/// and `{join: […]}`, each expanded at load into the expression it means, compiled and evaluated like any other.
extension Builder {
    /// The value `from:` (or `expr:`, or a part of `join:`) reads, as an expression writes it: a name as it is,
    /// an expression in parentheses, a value source written as a mapping by the expression it expanded to (nil:
    /// none is given, or its source is no expression, like `{via: …}`).
    func sugarName(_ from: Entry?, _ source: Recipe.Source? = nil) throws -> String? {
        guard let from else { return nil }
        guard case .scalar = from.node else {
            if case let .expression(x)? = source { return "(\(x.compiled.text))" }
            return nil
        }
        if reader.isNull(from) { return "null" }
        let text = try reader.text(from)
        return Self.isName(text) ? text : "(\(text))"
    }

    /// `{from: S, default: D}` and `absent: empty` (D is `''`), sugar expanded into the expression it means,
    /// `S != null ? S : D`, D the constant as written. Its type is S's: a default of another type is refused,
    /// with the expression that converts one of them. A value no expression's name reads (`{via: [FIELD,
    /// ENTITY.FIELD, …]}`, from any field) is bound to the name `value`: `value != null ? value : D`.
    func defaulted(_ inner: Recipe.Source, _ name: String?, _ d: RecipeValue, at e: Entry, event: Recipe.EventRule,
                   recipient: Int?, liveEvent: Bool) throws -> Recipe.Source {
        let bound = name == nil ? ["value": inner] : [:]
        let name = name ?? "value"
        let (type, _) = exprType(inner, event: event, recipient: recipient)
        let literal = RecipeSugar.natural(d)
        let given: ExprType? = switch d {
        case .int: .int
        case .number: .double
        case .bool: .bool
        case .string: .string
        default: nil
        }
        if let given, type != .dyn, given != type {
            let converted = type == .string ? "string(\(literal))" : "string(\(name))"
            throw fail(e, "is \(given), but '\(name)' is \(type): write the value as one type, "
                + "like {expr: \"\(name) != null ? \(type == .string ? name : converted) : \(type == .string ? converted : literal)\"}")
        }
        var x = try expression("\(name) != null ? \(name) : \(literal)", e, event: event, recipient: recipient, liveEvent: liveEvent,
                               bound: bound)
        x.reads = inner
        return .expression(x)
    }
}

extension Builder {
    /// `{join: [A, B], separator: S, if_empty: E}`, sugar expanded into the expression it means,
    /// `size([A, B].filter(p, p != null && p != '')) > 0 ? [A, B].filter(p, p != null && p != '').join(S) : E`: the
    /// parts present and not empty, joined, and without `if_empty:` null. A part that is not a string is written
    /// as its text, `(n != null ? string(n) : null)`.
    func joined(_ j: Entry, _ m: StrictYAML.Mapping, event: Recipe.EventRule, recipient: Int?, liveEvent: Bool) throws -> Recipe.Source {
        let entries = try reader.list(j)
        guard !entries.isEmpty else { throw fail(j, "joins nothing: list the values to join") }
        var parts: [String] = []
        for entry in entries {
            let src = try source(entry, event: event, recipient: recipient, liveEvent: liveEvent)
            guard let name = try sugarName(entry, src) else {
                throw fail(entry, "is a part of 'join', which is an expression's list: write it as a name or an expression (ENTITY.FIELD for a kept field)")
            }
            let (type, _) = exprType(src, event: event, recipient: recipient)
            parts.append(type == .string ? name : "(\(name) != null ? string(\(name)) : null)")
        }
        let separator = try m["separator"].map { e -> String in
            guard case let .scalar(sc) = e.node else { throw fail(e, "must be text") }
            return sc.string
        } ?? ""
        var otherwise = "null"
        if let e = m["if_empty"] {
            let src = try source(e, event: event, recipient: recipient, liveEvent: liveEvent)
            guard let name = try sugarName(e, src) else { throw fail(e, "must be a name or an expression (ENTITY.FIELD for a kept field)") }
            otherwise = name
        }
        let present = "[\(parts.joined(separator: ", "))].filter(p, p != null && p != '')"
        return .expression(try expression("size(\(present)) > 0 ? \(present).join(\(RecipeSugar.quoted(separator))) : \(otherwise)", j,
                                          event: event, recipient: recipient, liveEvent: liveEvent))
    }
}
