import YAMLReading

/// Kept lists edited item by item: `set: {riders: {add: rider_id}}` adds the event's value to the list kept on
/// the entity (unless it holds it already), `{remove: rider_id}` takes it out.
extension Builder {
    /// Whether a `set:` entry is a list edit (`{add: …}` or `{remove: …}`).
    func isListEdit(_ e: Entry) -> Bool {
        guard case .mapping = e.node, let m = try? reader.map(e) else { return false }
        return m["add"] != nil || m["remove"] != nil
    }

    /// The list edits of a `set:` mapping, in order; each item an int or a string.
    mutating func listEdits(_ e: Entry, entity: Int, event: Recipe.EventRule) throws -> [Recipe.ListEdit] {
        guard case .mapping = e.node else { return [] }
        var edits: [Recipe.ListEdit] = []
        for entry in try reader.map(e).entries where isListEdit(entry) {
            let m = try reader.map(entry)
            let kind = try reader.check(m, RecipeForms.listEdit, at: entry)
            let adds = kind.lead == "add"
            let itemEntry = m[adds ? "add" : "remove"]!
            let item = try source(itemEntry, event: event, recipient: nil)
            let list: Recipe.FieldType
            switch exprType(item, event: event, recipient: nil).0 {
            case .int: list = .ints
            case .string: list = .strings
            case let other:
                throw fail(itemEntry, "\(adds ? "adds" : "removes") a value of type \(other): a kept list holds ints or strings, one item at a time")
            }
            let field = entities[entity].fields.firstIndex(of: entry.key)!
            if let known = keptKinds[entity]?[field]?.type, known != list {
                throw fail(entry, "edits '\(entry.key)' as a list of \(list == .ints ? "int" : "string"), but the \(entities[entity].name) keeps it "
                    + "as \(known.rawValue)")
            }
            keptKinds[entity, default: [:]][field] = (time: false, type: list)
            edits.append(Recipe.ListEdit(field: field, adds: adds, item: item, key: entry.path))
        }
        return edits
    }
}
