extension Builder {
    /// `ENTITY.FIELD`: the field kept on the entity the event names by its key field (the field named as
    /// the events that create the entity name its `key:`); nil when `text` does not start with an entity.
    func relation(_ text: String, _ e: Entry, event: Recipe.EventRule) throws -> Recipe.Relation? {
        guard let dot = text.firstIndex(of: "."), let type = entities.firstIndex(where: { $0.name == text[..<dot] }) else { return nil }
        let name = entities[type].name
        let keys = keyNames[type] ?? []
        guard let start = event.fields.firstIndex(where: { keys.contains($0.name) }) else {
            throw fail(e, "reads '\(text)', but event '\(event.name)' has no field naming a \(name) (its key: \(keys.joined(separator: ", "))): "
                + "say which field does, {via: [FIELD, \(text)]}")
        }
        return Recipe.Relation(start: start, hops: [try hop(text, e)])
    }

    /// `{via: [FIELD, ENTITY.FIELD, …]}`: from an event field, through each entity in turn.
    func relation(via v: Entry, event: Recipe.EventRule) throws -> Recipe.Relation {
        let items = try reader.list(v)
        guard items.count >= 2 else { throw fail(v, "must list an event field, then one or more ENTITY.FIELD hops") }
        let first = try reader.text(items[0])
        guard let start = event.fields.firstIndex(where: { $0.name == first }) else {
            throw unknownField(items[0], first, event: event.name, fields: event.fields.map(\.name))
        }
        return Recipe.Relation(start: start, hops: try items.dropFirst().map { try hop(try reader.text($0), $0) })
    }

    /// `ENTITY.FIELD`: an entity type and a field kept on it.
    func hop(_ text: String, _ e: Entry) throws -> Recipe.Relation.Hop {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let type = entities.firstIndex(where: { $0.name == parts[0] }) else {
            throw fail(e, "must be ENTITY.FIELD, an entity and a field kept on it "
                + "(entities: \(entities.isEmpty ? "none" : entities.map(\.name).joined(separator: ", "))); found '\(text)'")
        }
        guard let field = entities[type].fields.firstIndex(of: parts[1]) else {
            let kept = entities[type].fields
            throw fail(e, "names '\(text)', which no event keeps on a \(parts[0]) (kept: \(kept.isEmpty ? "none" : kept.joined(separator: ", ")))")
        }
        return Recipe.Relation.Hop(entity: type, field: field)
    }
}

extension Builder {
    /// `recipient.ENTITY.FIELD`: a field kept on the entity the recipient names by a field it keeps (the field
    /// named as the events that create the entity name its `key:`), read per recipient: a device's owner's
    /// `recipient.user.tier`.
    func recipientRelation(_ text: String, _ e: Entry, recipient: Int) throws -> Recipe.Source {
        let rest = String(text.dropFirst("recipient.".count))
        let hopText = rest
        guard let dot = rest.firstIndex(of: "."), let type = entities.firstIndex(where: { $0.name == rest[..<dot] }) else {
            throw fail(e, "reads '\(text)': past 'recipient.' comes a field the \(entities[recipient].name) keeps, or ENTITY.FIELD of an entity "
                + "it names (entities: \(entities.map(\.name).joined(separator: ", ")))")
        }
        let keys = keyNames[type] ?? []
        guard let field = entities[recipient].fields.firstIndex(where: { keys.contains($0) }) else {
            throw fail(e, "reads '\(text)', but a \(entities[recipient].name) keeps no field naming a \(entities[type].name) (its key: "
                + "\(keys.joined(separator: ", "))): keep it on the \(entities[recipient].name), set: [\(keys.first ?? "KEY")]")
        }
        return .recipientRelated(entity: recipient, field: field, hops: [try hop(hopText, e)])
    }
}
