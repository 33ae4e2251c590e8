import APNsCore

/// Handing out the event's planned pushes, entry by entry of its plan: each filled into the engine's reused
/// push (recipient, headers, the payload rendered from the rule's slots).
extension RecipeRules {
    public func nextPlanned(into push: inout OutgoingPush) -> PullResult? {
        while plan.current < plan.entries.count {
            let e = plan.current
            if !plan.entries[e].done { return take(e, into: &push) }
            plan.current += 1
        }
        return nil
    }

    /// The entry being handed out stays current until its last push was taken and the next is asked for.
    public var lastPushRule: String? {
        guard plan.current < plan.entries.count, plan.entries[plan.current].rule != EventPlan.Entry.noRule else { return nil }
        return rules[plan.entries[plan.current].rule].name
    }

    public var namesPushRules: Bool { rules.contains { $0.name != nil } }

    /// Every rule's event and name, then each event's `require` (the pushes of ``missingWithoutRule``).
    public var pushRuleNames: [(kind: String, rule: String)] {
        recipe.events.flatMap { e in e.pushes.map { (e.name, $0.name ?? "1") } } + recipe.events.map { ($0.name, Self.requireRule) }
    }

    public var lastPushRuleIndex: Int {
        guard plan.current < plan.entries.count else { return -1 }
        let rule = plan.entries[plan.current].rule
        return rule == EventPlan.Entry.noRule ? rules.count + event : rule
    }

    /// The rule name the pushes of ``missingWithoutRule`` are counted under in ``pushesByRule``.
    static let requireRule = "require"

    public var pushesByRule: [String: [String: Int]] {
        var out: [String: [String: Int]] = [:]
        for event in recipe.events {
            for rule in event.pushes { out[event.name, default: [:]][rule.name ?? "1", default: 0] += plannedByRule[rule.index] }
        }
        for (i, n) in missingWithoutRule.enumerated() where n > 0 { out[recipe.events[i].name, default: [:]][Self.requireRule, default: 0] += n }
        return out
    }

    /// The next push of entry `e`, which has one left.
    private func take(_ e: Int, into push: inout OutgoingPush) -> PullResult {
        let n = plan.entries[e].next
        plan.entries[e].next = n + 1
        let rule = plan.entries[e].rule
        switch plan.entries[e].recipients {
        case .members:
            let place = plan.entries[e].members[n]
            if !filterFailures[rule].isEmpty, let failure = filterFailures[rule][n] {
                // Its `where:` failed for this recipient: its push alone is not sent.
                return failedPush(failure, e, &push)
            }
            guard rules[rule].recipientEntity != nil, state.isLive(place) else {
                // Planned for an entity that is gone: counted, never dropped silently.
                return notSent(.unknownTarget, e, &push)
            }
            guard let token = state.token(place), !token.isEmpty else { return notSent(.noToken, e, &push) }
            fill(&push, e, token: token, recipient: place)
        case let .notSent(cause):
            return notSent(cause, e, &push)
        case let .token(token):
            fill(&push, e, token: token, recipient: nil)
        case let .entity(place):
            // An earlier rule's push of this event may have removed it.
            guard state.isLive(place) else { return notSent(.unknownTarget, e, &push) }
            fill(&push, e, token: state.token(place) ?? "", recipient: place)
        case let .broadcast(channel, reach):
            fill(&push, e, token: channel.id, recipient: nil, broadcast: true)
            push.channel = channel.index
            push.reach = Int32(clamping: reach)
        }
        if let failure = phase.pushFailure {
            // An expression read per push failed: the push is not sent, and counted.
            return failedPush(failure, e, &push)
        }
        return .push
    }

    /// A push not sent because a value read for its recipient failed (`bad_line`); ``lastPushFailure`` says why.
    private func failedPush(_ failure: RecipeEventState.Failure, _ e: Int, _ push: inout OutgoingPush) -> PullResult {
        let rule = rules[plan.entries[e].rule].name.map { "push rule '\($0)'" } ?? "the push rule"
        lastPushFailure = "\(rule) of event '\(recipe.events[event].name)': one recipient's push not sent: '\(failure.key)' "
            + "column \(failure.fault.column): \(failure.fault.message)"
        return notSent(.badLine, e, &push)
    }

    private func notSent(_ cause: NotSentCause, _ e: Int, _ push: inout OutgoingPush) -> PullResult {
        push.priority = plan.entries[e].priority
        push.intendedNanos = 0
        return .notSent(cause)
    }

    /// - Parameters:
    ///   - recipient: the recipient's place in the state: its fields are read there, not from a copy, so that
    ///     `remember` below writes them in place.
    ///   - broadcast: a push to a channel (`recipient.key` is `""`).
    private func fill(_ push: inout OutgoingPush, _ e: Int, token: String, recipient: Int?, broadcast: Bool = false) {
        let r = plan.entries[e].rule
        phase.fill(token: token, liveEvent: plan.entries[e].liveEvent)
        let key: EntityKey? = broadcast ? .string("") : recipient.flatMap { state.key($0) }
        // The slots that do not depend on the recipient were filled when the event was applied.
        for i in rules[r].perPushSlots {
            let slot = rules[r].slots[i]
            scratch[r][i] = templateValue(value(slot.source, recipient: recipient, key: key), slot)
        }
        rules[r].template.render(into: &push.body, values: scratch[r])
        push.deviceToken = token
        push.priority = plan.entries[e].priority
        if rules[r].priorityPerPush { recipientPriority(&push, r, recipient: recipient, key: key) }
        push.intendedNanos = 0
        push.recordedMillis = at
        push.heldMillis = 0
        push.kind += plan.entries[e].kind
        if rules[r].perPushHeaders != 0 { recipientHeaders(e, r, recipient: recipient, key: key) }
        fillHeaders(&push, e)
        let ends = rules[r].removeRecipientAfterEnd && plan.entries[e].liveEvent == "end"
        if rules[r].recipientEntity != nil, let recipient, rules[r].rememberPerPush { readKept(r, on: recipient, key: key) }
        // A push whose value failed is not sent, and changes nothing.
        guard !phase.pushFailed else { return }
        if let type = rules[r].recipientEntity, let recipient {
            for (field, v) in remembered[r] { if let kept = v.kept { state.setField(recipient, field, kept) } }
            if ends {
                state.remove(type, recipient)
                state.timestamps.forget(token)
            }
        } else if ends {
            state.timestamps.forget(token)
        }
    }

    /// The priority of a rule that reads it per recipient (`"recipient.user.vip ? 10 : 5"`); a value that is
    /// not 10, 5 or 1 fails this push alone.
    private func recipientPriority(_ push: inout OutgoingPush, _ r: Int, recipient: Int?, key: EntityKey?) {
        do {
            let (p, own) = try pushPriority(r, recipient: recipient, key: key)
            push.priority = p
            if own { pushesAtOwnPriority += 1 }
        } catch let error as StreamLineError {
            guard case let .badValue(_, why) = error.cause else { return }
            phase.record(.init(key: rules[r].priorityKey, fault: ExprFault(column: 1, message: why)))
        } catch {
            phase.record(.init(key: rules[r].priorityKey, fault: ExprFault(column: 1, message: "\(error)")))
        }
    }

    /// Reads the rule's `remember` values for the recipient: every kept value is read before any is written,
    /// so each reads the fields as the push found them.
    private func readKept(_ r: Int, on recipient: Int, key: EntityKey?) {
        for (i, kept) in rules[r].remember.enumerated() {
            remembered[r][i] = (kept.field, value(kept.source, recipient: recipient, key: key))
        }
    }
}
