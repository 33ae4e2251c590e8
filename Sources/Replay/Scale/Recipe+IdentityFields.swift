extension Recipe {
    /// Per event (by index), the fields whose values name something the app keeps or pushes to, in field
    /// order: what a scaled recording clones.
    ///
    /// A field is one when the recipe uses its value as
    /// - an entity's key (`key:`), its token (`token:`), a group it joins (`member_of:`) or the broadcast key it
    ///   subscribes to (`subscribe:`);
    /// - a push's recipient: `to: {token: F}`, the key of `to: {entity: …}` or `to: {group: …}`;
    /// - the first field of a relation (`parcel.carrier` names the parcel by the event's key field), or a value
    ///   kept on an entity (`set:`, `remember:`) that a relation later reads as the key of another entity or
    ///   group (`parcel.customer_id` as a `customers` key);
    /// - a capture of an API path (`:requestId`): a path segment names a resource.
    ///
    /// Left out: fields with `one_of` (a closed set of values, not ids), and fields that are not text, integers
    /// or lists of them. A constant key (`{const: all}`) is not in the recording: that group stays one group.
    var identityFields: [[Int]] {
        var marked = events.map { _ in Set<Int>() }
        var keptKeys = Set<KeptField>()
        while true {
            let before = (marked.map(\.count).reduce(0, +), keptKeys.count)
            for e in events.indices {
                var finder = IdentityFinder(marked: marked[e], keptKeys: keptKeys)
                finder.visit(events[e])
                marked[e] = finder.marked
                keptKeys = finder.keptKeys
            }
            if (marked.map(\.count).reduce(0, +), keptKeys.count) == before { break }
        }
        return events.indices.map { e in
            marked[e].sorted().filter { events[e].fields[$0].clonable }
        }
    }

    /// A field kept on an entity type.
    struct KeptField: Hashable {
        var entity: Int
        var field: Int
    }
}

extension Recipe.FieldRule {
    /// Whether a scaled recording may clone its values.
    var clonable: Bool {
        guard oneOf == nil else { return false }
        switch type {
        case .string, .int, .token, .ints, .strings: return true
        case .number, .bool: return false
        }
    }
}

/// One pass of ``Recipe/identityFields`` over one event: marks its identity fields, and the kept fields its
/// relations read as keys.
private struct IdentityFinder {
    var marked: Set<Int>
    var keptKeys: Set<Recipe.KeptField>

    mutating func visit(_ event: Recipe.EventRule) {
        for (i, f) in event.fields.enumerated() where f.capture != nil { marked.insert(i) }
        if let s = event.state {
            marked.insert(s.key)
            if let t = s.token { marked.insert(t) }
            if let t = s.subscribe { marked.insert(t) }
            for (_, source) in s.memberOf ?? [] { key(source) }
            for (_, source, _) in s.joins { key(source) }
            for (field, source) in s.set { kept(Recipe.KeptField(entity: s.entity, field: field), source) }
            for edit in s.edits { kept(Recipe.KeptField(entity: s.entity, field: edit.field), edit.item) }
        }
        for rule in event.pushes {
            target(rule.to)
            if let entity = rule.recipientEntity {
                for (field, source) in rule.remember { kept(Recipe.KeptField(entity: entity, field: field), source) }
            } else {
                for (_, source) in rule.remember { read(source) }
            }
            for slot in rule.slots { read(slot.source) }
            if let when = rule.when { for input in when.inputs { read(input) } }
            if let l = rule.liveActivityEvent { read(l) }
            if case let .mapped(source, _, _) = rule.priority { read(source) }
            if case let .computed(source) = rule.priority { read(source) }
            if let filter = rule.recipientFilter { for input in filter.inputs { read(input) } }
            if let e = rule.expiration { read(e) }
            if case let .mapped(source, _, _) = rule.kind { read(source) }
        }
    }

    private mutating func target(_ t: Recipe.Target) {
        switch t {
        case let .token(field): marked.insert(field)
        case let .entity(_, source): key(source)
        case let .group(_, source, ifAbsent):
            key(source)
            if let ifAbsent { target(ifAbsent) }
        case let .groups(parts): for part in parts { target(part) }
        }
    }

    /// A value written onto an entity: a key when a relation reads that field as one.
    private mutating func kept(_ field: Recipe.KeptField, _ source: Recipe.Source) {
        if keptKeys.contains(field) { key(source) } else { read(source) }
    }

    /// A source whose value is a key.
    private mutating func key(_ s: Recipe.Source) {
        switch s {
        case let .field(i): marked.insert(i)
        case let .related(r):
            marked.insert(r.start)
            for hop in r.hops { keptKeys.insert(Recipe.KeptField(entity: hop.entity, field: hop.field)) }
        case let .orElse(inner, _): key(inner)
        case let .entityExists(start, _), let .entityToken(start, _): marked.insert(start)
        // A key an expression computes: each name it reads may be part of it.
        case let .expression(x): for input in x.inputs { key(input) }
        case let .recipientRelated(entity, field, hops):
            keptKeys.insert(Recipe.KeptField(entity: entity, field: field))
            for hop in hops { keptKeys.insert(Recipe.KeptField(entity: hop.entity, field: hop.field)) }
        case .recipient, .recipientKey, .time, .timeUnix, .activityTimestamp, .liveActivityEvent:
            read(s)
        }
    }

    /// A source read as a value: only a relation's way to it holds keys.
    private mutating func read(_ s: Recipe.Source) {
        switch s {
        case let .related(r):
            marked.insert(r.start)
            for hop in r.hops.dropLast() { keptKeys.insert(Recipe.KeptField(entity: hop.entity, field: hop.field)) }
        case let .orElse(inner, _): read(inner)
        case let .entityExists(start, _), let .entityToken(start, _): marked.insert(start)
        case let .expression(x): for input in x.inputs { read(input) }
        case let .recipientRelated(entity, field, hops):
            keptKeys.insert(Recipe.KeptField(entity: entity, field: field))
            for hop in hops.dropLast() { keptKeys.insert(Recipe.KeptField(entity: hop.entity, field: hop.field)) }
        case .field, .recipient, .recipientKey, .time, .timeUnix, .activityTimestamp, .liveActivityEvent:
            break
        }
    }
}
