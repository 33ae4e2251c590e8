import APNsCore

/// A kept list edited by an event (`set: {riders: {add: rider_id}}`), and memberships joined and left (`join:`, `leave:`).
extension RecipeRules {
    /// Adds the edit's item to the kept list (a list not kept yet starts empty; an item it holds stays once) or
    /// removes it; an absent item changes nothing. Journaled with the event's other changes.
    func edit(_ edit: Recipe.ListEdit, on place: Int) throws {
        let item = value(edit.item, recipient: nil)
        let kept = state.field(place, edit.field)
        let edited: RecipeValue
        switch (kept, item) {
        case (_, .absent), (_, .omit): return
        case (.absent, _) where !edit.adds: return
        case let (.ints(list), .int(n)): edited = .ints(Self.edited(list, n, adds: edit.adds))
        case let (.strings(list), .string(s)): edited = .strings(Self.edited(list, s, adds: edit.adds))
        case let (.absent, .int(n)): edited = .ints([n])
        case let (.absent, .string(s)): edited = .strings([s])
        default:
            let verb = edit.adds ? "added to" : "removed from"
            throw StreamLineError(line: line, cause: .badValue(field: edit.key, why: "'\(item.text ?? "?")' cannot be \(verb) "
                + "the kept \(kept.isList ? "list, whose items are of another type" : "value, which is not a list")"))
        }
        if edited != kept { state.setField(place, edit.field, edited) }
    }

    private static func edited<T: Equatable>(_ list: [T], _ item: T, adds: Bool) -> [T] {
        if adds { return list.contains(item) ? list : list + [item] }
        return list.filter { $0 != item }
    }
}

extension RecipeRules {
    /// `join:` or `leave:` of the group key `v` (a key, or each key of a list; absent: none).
    func join(_ place: Int, _ group: Int, _ v: RecipeValue, joins: Bool) {
        func one(_ key: EntityKey) {
            if joins { state.join(place, GroupKey(group: group, key: key)) } else { state.leaveGroup(place, GroupKey(group: group, key: key)) }
        }
        switch v {
        case let .ints(list): for n in list { one(.int(n)) }
        case let .strings(list): for s in list { one(.string(s)) }
        default: if let k = v.key { one(k) }
        }
    }
}
