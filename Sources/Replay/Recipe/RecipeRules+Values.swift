import APNsCore

/// Reading a value source (``Recipe/Source``) for the event being planned, and writing a value into a slot.
extension RecipeRules {
    func text(_ source: Recipe.Source) -> String? { value(source, recipient: nil).text }

    /// - Parameter recipient: the recipient's place in the state.
    func value(_ source: Recipe.Source, recipient: Int?, key: EntityKey? = nil) -> RecipeValue {
        switch source {
        case let .field(i): return values[i]
        case let .related(r): return follow(r).value
        case let .recipient(i): return recipient.map { state.field($0, i) } ?? .absent
        case let .recipientRelated(_, field, hops):
            guard let recipient else { return .absent }
            return follow(state.field(recipient, field), hops).value
        case .recipientKey: return key?.value ?? .absent
        case .time: return .time(at)
        case .timeUnix: return .int(Int(at / 1000))
        case .activityTimestamp: return .int(state.timestamps.next(for: phase.token, recordedSeconds: Int(at / 1000)))
        case .liveActivityEvent: return .string(phase.liveEvent)
        case let .orElse(inner, otherwise):
            let v = value(inner, recipient: recipient, key: key)
            return v.isAbsent ? otherwise : v
        case let .entityExists(start, type):
            return entityPlace(start, type) == nil ? .absent : .bool(true)
        case let .entityToken(start, type):
            guard let place = entityPlace(start, type), let token = state.token(place), !token.isEmpty else { return .absent }
            return .string(token)
        case let .expression(x):
            if let named = x.named { return letValue(x, named, recipient: recipient, key: key) }
            return evaluate(x, recipient: recipient, key: key)
        }
    }

    /// The value at the end of a relation, and whether a link was missing: an entity it names that the
    /// state does not hold (absent kept fields on the way are absent values, not missing links).
    func follow(_ r: Recipe.Relation) -> (value: RecipeValue, missing: Bool) { follow(values[r.start], r.hops) }

    /// The value at the end of `hops`, starting from the key `start`.
    func follow(_ start: RecipeValue, _ hops: [Recipe.Relation.Hop]) -> (value: RecipeValue, missing: Bool) {
        var v = start
        for hop in hops {
            guard let key = v.key else { return (.absent, false) }
            guard let place = state.place(hop.entity, key) else { return (.absent, true) }
            v = state.field(place, hop.field)
        }
        return (v, false)
    }

    /// Whether a key source read through a relation found an entity missing.
    func linkMissing(_ source: Recipe.Source) -> Bool {
        switch source {
        case let .related(r): return follow(r).missing
        case let .orElse(inner, _): return linkMissing(inner)
        case let .expression(x): return x.reads.map(linkMissing) ?? false
        default: return false
        }
    }

    func templateValue(_ v: RecipeValue, _ slot: Recipe.Slot) -> PayloadTemplate.Value {
        switch v {
        case .omit: return .omit
        case .absent: return .null
        case let .int(n): return .integer(n)
        case let .string(s): return .string(s)
        case let .bool(b): return .string(b ? "true" : "false")
        case let .number(d): return .fixedPoint(Int64((d * 1000).rounded()), places: 3)
        case .ints, .strings: return .null
        case let .time(ms):
            switch slot.format {
            case .referenceDate?: return .fixedPoint(ms - Self.referenceDateMillis, places: 3)
            case .unix?: return .fixedPoint(ms, places: 3)
            case .unixMillis?: return .integer(Int(ms))
            case .orEmpty?, nil: return .string(iso8601(ms))
            }
        }
    }

    private func iso8601(_ ms: Int64) -> String {
        if let lastTime, lastTime.millis == ms { return lastTime.text }
        let text = Timestamp.iso8601(millis: ms)
        lastTime = (ms, text)
        return text
    }

    /// 2001-01-01T00:00:00Z in epoch milliseconds: Foundation's reference date.
    static var referenceDateMillis: Int64 { 978_307_200_000 }
}
