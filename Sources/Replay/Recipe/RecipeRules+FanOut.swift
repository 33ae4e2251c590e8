import APNsCore

/// A push rule that reaches several group keys (a list key, `ride.riders`, or `to: {groups: […]}`): its
/// recipients are the members of each key in turn, each reached once. The keys are taken in the order
/// written (a list in its own order, the targets of `groups:` in theirs), each key's members in registration
/// order; a recipient reached again (by a later key, or another group) keeps its first place and gets no
/// second push. Each key is one index lookup and each member one step, so the cost is in proportion to the
/// recipients reached, whatever the number of entities the state holds.
extension RecipeRules {
    func fanOut(_ target: Recipe.Target, rule: Int, into entry: inout EventPlan.Entry) {
        fanned[rule].removeAll(keepingCapacity: true)
        if reachedBy.count < state.entities.count { reachedBy.append(contentsOf: repeatElement(0, count: state.entities.count - reachedBy.count)) }
        fanOutMark &+= 1
        if fanOutMark == 0 {
            // The marks wrapped around: none may look like this fan-out's.
            for i in reachedBy.indices { reachedBy[i] = 0 }
            fanOutMark = 1
        }
        var missing = false
        gather(target, rule: rule, missing: &missing)
        guard !fanned[rule].isEmpty else { return entry.recipients = .notSent(missing ? .unknownTarget : .noRecipients) }
        if let filter = rules[rule].recipientFilter { return keep(fanned[rule], passing: filter, rule: rule, into: &entry) }
        entry.recipients = .members
        entry.members = fanned[rule]
        entry.count = fanned[rule].count
    }

    /// Adds the members `target` reaches that no earlier key reached; `missing`: a key read through an entity
    /// the recording never created.
    private func gather(_ target: Recipe.Target, rule: Int, missing: inout Bool) {
        switch target {
        case let .groups(parts):
            for part in parts { gather(part, rule: rule, missing: &missing) }
        case let .group(group, keySource, ifAbsent):
            switch value(keySource, recipient: nil) {
            case let .ints(keys): for k in keys { add(GroupKey(group: group, key: .int(k)), rule: rule) }
            case let .strings(keys): for k in keys { add(GroupKey(group: group, key: .string(k)), rule: rule) }
            case let v:
                if let k = v.key {
                    add(GroupKey(group: group, key: k), rule: rule)
                } else if let ifAbsent {
                    gather(ifAbsent, rule: rule, missing: &missing)
                } else if linkMissing(keySource) {
                    missing = true
                }
            }
        case .token, .entity:
            break
        }
    }

    private func add(_ key: GroupKey, rule: Int) {
        fanOutSteps += 1
        for place in state.members(of: key) {
            fanOutSteps += 1
            guard reachedBy[place] != fanOutMark else { continue }
            reachedBy[place] = fanOutMark
            fanned[rule].append(place)
        }
    }
}
