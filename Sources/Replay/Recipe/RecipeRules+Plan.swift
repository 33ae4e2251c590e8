import APNsCore

/// Planning an event's pushes: each push rule whose condition held gets an entry in the event's plan (whom it
/// pushes to, its priority, Live Activity event and push kind), and the slots and kept values that are the
/// same for all of its pushes are filled then. Every rule reads the state as the event left it, before any
/// of the event's pushes is handed out.
extension RecipeRules {
    /// Adds the rule's entry to the event's plan; returns how many pushes it planned.
    func planRule(_ index: Int) throws -> Int {
        let liveEvent = rules[index].liveActivityEvent.flatMap(text) ?? ""
        phase.planRule(liveEvent: liveEvent)
        // A priority read per recipient is the profile's until each push reads its own.
        let (priority, own) = rules[index].priorityPerPush ? (profilePriority, false) : try pushPriority(index)
        var entry = EventPlan.Entry(rule: index, recipients: .notSent(.noRecipients), priority: priority,
                                    liveEvent: liveEvent, kind: kind(index))
        entry.ownPriority = own
        recipients(rules[index].to, rule: index, into: &entry)
        // A header that reads the recipient is read for each push instead.
        let perPush = rules[index].perPushHeaders
        if let source = rules[index].expiration, perPush & Recipe.PushRule.expirationBit == 0 {
            entry.expirationSeconds = try rules[index].expirationAt ? expirationAfterEvent(source) : expirationSeconds(source)
        }
        for t in rules[index].texts.indices {
            guard case let .perEvent(format) = rules[index].texts[t].value, perPush & (1 << UInt16(t)) == 0 else { continue }
            if try writeHeaderText(format, rule: index, t) { entry.textsPresent |= 1 << UInt8(t) }
        }
        fillPerEvent(index)
        plan.entries.append(entry)
        return entry.count
    }

    /// Whom the rule pushes to, as the state is now.
    private func recipients(_ target: Recipe.Target, rule: Int, into entry: inout EventPlan.Entry) {
        switch target {
        case let .token(field):
            guard case let .string(token) = values[field], !token.isEmpty else { return entry.recipients = .notSent(.noToken) }
            entry.recipients = .token(token)
        case let .entity(type, keySource):
            guard let key = value(keySource, recipient: nil).key, let place = state.place(type, key) else {
                return entry.recipients = .notSent(.unknownTarget)
            }
            guard let token = state.token(place), !token.isEmpty else { return entry.recipients = .notSent(.noToken) }
            entry.recipients = .entity(place)
        case .groups:
            fanOut(target, rule: rule, into: &entry)
        case let .group(group, keySource, ifAbsent):
            let keyValue = value(keySource, recipient: nil)
            if keyValue.isList { return fanOut(target, rule: rule, into: &entry) }
            guard let groupKey = keyValue.key else {
                if let ifAbsent { return recipients(ifAbsent, rule: rule, into: &entry) }
                // A key read through an entity the recording never created names no group.
                return entry.recipients = .notSent(linkMissing(keySource) ? .unknownTarget : .noRecipients)
            }
            let members = state.members(of: GroupKey(group: group, key: groupKey))
            if let channels, group == recipe.broadcastGroup, let type = rules[rule].recipientEntity {
                return broadcast(groupKey, members: members, channels: channels, entityType: type, into: &entry)
            }
            guard !members.isEmpty else { return entry.recipients = .notSent(.noRecipients) }
            if let filter = rules[rule].recipientFilter {
                return keep(members, passing: filter, rule: rule, into: &entry)
            }
            entry.recipients = .members
            entry.members = members
            entry.count = members.count
        }
    }

    /// One broadcast to the key's channel, or one push not sent when nobody subscribed or it has no channel.
    private func broadcast(_ key: EntityKey, members: [Int], channels: [EntityKey: BroadcastChannels.Channel], entityType: Int,
                           into entry: inout EventPlan.Entry) {
        let subscribed = state.subscribers(of: key)
        followersNotSubscribed += members.reduce(0) { $0 + (subscribed.contains($1) ? 0 : 1) }
        guard !subscribed.isEmpty else { return entry.recipients = .notSent(.noRecipients) }
        guard let channel = channels[key] else {
            return entry.recipients = .notSent(refusedChannels.contains(key) ? .channelLimit : .unknownTarget)
        }
        entry.recipients = .broadcast(channel, reach: subscribed.count)
        if entry.liveEvent == "end" { state.endSubscriptions(of: key) }
    }

    /// The rule's push priority, and whether it is the rule's or the event's own (false: the profile's).
    func pushPriority(_ rule: Int, recipient: Int? = nil, key: EntityKey? = nil) throws -> (Priority, own: Bool) {
        switch rules[rule].priority {
        case .profile: return (profilePriority, false)
        case let .fixed(p): return (p, true)
        case let .mapped(source, table, otherwise):
            if let p = value(source, recipient: recipient, key: key).text.flatMap({ table[$0] }) ?? otherwise { return (p, true) }
            return (profilePriority, false)
        case let .computed(source):
            let v = value(source, recipient: recipient, key: key)
            guard case let .int(n) = v else { return (profilePriority, false) }
            guard let p = Priority(rawValue: n) else {
                throw StreamLineError(line: line, cause: .badValue(field: expressionKey(source) ?? "priority", why: "\(n) is not 10, 5 or 1"))
            }
            return (p, true)
        case let .field(i):
            guard case let .int(n) = values[i] else { return (profilePriority, false) }
            guard let p = Priority(rawValue: n) else {
                throw StreamLineError(line: line, cause: .badValue(field: recipe.events[event].fields[i].shownAs, why: "\(n) is not 10, 5 or 1"))
            }
            return (p, true)
        }
    }

    private func kind(_ rule: Int) -> Int32 {
        switch rules[rule].kind {
        case let .fixed(i): return i
        case let .mapped(source, table, otherwise): return text(source).flatMap { table[$0] } ?? otherwise
        }
    }

    /// Fills the rule's slots and `remember` values that are the same for every push of the event.
    private func fillPerEvent(_ index: Int) {
        for i in rules[index].perEventSlots {
            let slot = rules[index].slots[i]
            scratch[index][i] = templateValue(value(slot.source, recipient: nil), slot)
        }
        if !rules[index].rememberPerPush {
            for (i, kept) in rules[index].remember.enumerated() {
                remembered[index][i] = (kept.field, value(kept.source, recipient: nil))
            }
        }
    }

    /// Whether a condition holds for the event, as the state is now.
    func holds(_ condition: RecipeExpression) -> Bool {
        evaluate(condition, recipient: nil, key: nil) == .bool(true)
    }
}
