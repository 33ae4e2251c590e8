import Yams

extension Builder {
    static let testKeys = ["equals", "one_of", "not", "present", "absent"] + Recipe.Comparison.allCases.map(\.rawValue)

    /// `when:`: a mapping of values to tests, all of which must hold, or `all: […]` / `any: […]` of such mappings.
    func condition(_ e: Entry, event: Recipe.EventRule) throws -> Recipe.Condition {
        if case .scalar = e.node {
            let x = try condition(try reader.text(e), e, event: event, recipient: nil, what: "a condition")
            if x.readsRecipient {
                throw fail(e, "reads the recipient, but a condition is tested once per event, before its recipients are known (filter them with 'to: {…, where: …}')")
            }
            return .expression(x)
        }
        let m = try reader.map(e)
        guard !m.entries.isEmpty else { throw fail(e, "tests nothing: give {FIELD: VALUE}, {FIELD: {one_of: […]}}, all: […] or any: […]") }
        var parts: [Recipe.Condition] = []
        for entry in m.entries {
            switch entry.key {
            case "all", "any":
                let items = try reader.list(entry)
                guard !items.isEmpty else { throw fail(entry, "lists no condition") }
                let inner = try items.map { try condition($0, event: event) }
                parts.append(entry.key == "all" ? .all(inner) : .any(inner))
            default:
                parts.append(contentsOf: try tests(entry, event: event))
            }
        }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    /// `FIELD: VALUE` (equals) or `FIELD: {equals, one_of, not, present, absent, gt, ge, lt, le}`.
    private func tests(_ entry: Entry, event: Recipe.EventRule) throws -> [Recipe.Condition] {
        if entry.key.hasPrefix("recipient.") {
            throw fail(entry, "reads the recipient, but a condition is tested once per event, before its recipients are known")
        }
        let keyEntry = Entry(key: entry.key, path: entry.path, line: entry.line, node: .scalar(.init(entry.key)))
        let src = try source(keyEntry, event: event, recipient: nil)
        let fieldType = type(of: src, event: event, recipient: nil)
        let allowed = fieldRule(src, event: event)?.oneOf
        guard case .mapping = entry.node else {
            return [.test(src, .equals(try value(entry, allowed: allowed, key: entry.key)))]
        }
        let m = try reader.map(entry)
        try reader.only(m, Self.testKeys)
        return try m.entries.map { t -> Recipe.Condition in
            switch t.key {
            case "equals": return .test(src, .equals(try value(t, allowed: allowed, key: entry.key)))
            case "one_of": return .test(src, .oneOf(try reader.list(t).map { try value($0, allowed: allowed, key: entry.key) }))
            case "not":
                if case .sequence = t.node { return .test(src, .noneOf(try reader.list(t).map { try value($0, allowed: allowed, key: entry.key) })) }
                return .test(src, .noneOf([try value(t, allowed: allowed, key: entry.key)]))
            case "present", "absent":
                let wanted = try reader.bool(t) == (t.key == "present")
                return .test(src, wanted ? .present : .absent)
            default:
                if let fieldType, fieldType != .int, fieldType != .number {
                    throw fail(t, "compares '\(entry.key)', a \(fieldType.rawValue) field, with a number: \(t.key) goes with an int or a number")
                }
                return .test(src, .compare(Recipe.Comparison(rawValue: t.key)!, try reader.number(t)))
            }
        }
    }

    /// A constant a test compares with; one the field's `one_of` does not allow could never be equal.
    private func value(_ e: Entry, allowed: [RecipeValue]?, key: String) throws -> RecipeValue {
        let v = try constant(e)
        if let allowed, !allowed.contains(where: { $0 == v || $0.text == v.text }) {
            throw fail(e, "can never hold: '\(v.text ?? "null")' is not one of the values '\(key)' allows (\(allowed.compactMap(\.text).joined(separator: ", ")))")
        }
        return v
    }

    /// The event field a source reads directly, if it does.
    private func fieldRule(_ s: Recipe.Source, event: Recipe.EventRule) -> Recipe.FieldRule? {
        if case let .field(i) = s { return event.fields[i] }
        return nil
    }
}
