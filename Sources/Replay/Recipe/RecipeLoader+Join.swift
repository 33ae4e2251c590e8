import YAMLReading

/// Memberships kept by their own events: `join: {GROUP: FIELD}` adds the event's entity to a group key (or to
/// each key of a list), `leave: {GROUP: FIELD}` takes it out, and its other memberships stay. A many-to-many
/// relation (a user follows several topics, a topic has several followers) is such a group: a push to
/// `{group: GROUP, key: …}` reaches the entities that joined that key and have not left it.
extension Builder {
    /// The first pass: the groups `join:` names are registered, holding the event's entity type.
    mutating func registerJoined(_ entries: [Entry], entity type: Int) throws {
        for g in entries {
            if let i = groups.firstIndex(of: g.key) {
                guard groupEntity[i] == type else {
                    throw fail(g, "group '\(g.key)' already holds \(entities[groupEntity[i]].name) entities, not \(entities[type].name)")
                }
                joinedGroups.insert(i)
            } else {
                groups.append(g.key)
                groupEntity.append(type)
                joinedGroups.insert(groups.count - 1)
            }
        }
    }

    /// A group is kept one way: `member_of:` replaces an entity's memberships with each registration, which
    /// would undo the joins and leaves of the group's own events.
    func refuseGroupsKeptBothWays(_ events: [Entry]) throws {
        for e in events {
            guard let member = try reader.map(e)["member_of"] else { continue }
            for g in try reader.map(member).entries {
                guard let i = groups.firstIndex(of: g.key), joinedGroups.contains(i) else { continue }
                throw fail(g, "names group '\(g.key)', which events keep with 'join:' and 'leave:': a group is kept one way, "
                    + "replaced by each registration (member_of) or joined and left by its own events")
            }
        }
    }

    /// An event's `join:` and `leave:`, in that order.
    func joins(_ m: StrictYAML.Mapping, event: Recipe.EventRule) throws -> [(group: Int, source: Recipe.Source, joins: Bool)] {
        var out: [(group: Int, source: Recipe.Source, joins: Bool)] = []
        for (key, joins) in [("join", true), ("leave", false)] {
            guard let e = m[key] else { continue }
            let entries = try reader.map(e).entries
            guard !entries.isEmpty else { throw fail(e, "names no group: {GROUP: FIELD}") }
            for g in entries {
                guard let group = groups.firstIndex(of: g.key), joinedGroups.contains(group) else {
                    throw fail(g, "names group '\(g.key)', which no event joins (with 'join:'); "
                        + "joined groups: \(joinedGroups.isEmpty ? "none" : joinedGroups.sorted().map { groups[$0] }.joined(separator: ", "))")
                }
                out.append((group, try source(g, event: event, recipient: nil), joins))
            }
        }
        return out
    }
}
