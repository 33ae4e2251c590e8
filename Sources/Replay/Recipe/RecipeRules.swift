import APNsCore

/// Runs a ``Recipe`` over a recorded stream, as a ``WorkloadRules``: each line is matched to its event, its
/// fields read and checked, the state changed, and its pushes planned; ``nextPlanned(into:)`` then fills one
/// push at a time (recipient, headers, payload rendered into the engine's reused buffer).
public final class RecipeRules: WorkloadRules {
    let recipe: Recipe
    private let profilePriority: Priority
    /// Broadcast delivery's channels, by the broadcast group's key; nil: device delivery.
    private let channels: [EntityKey: BroadcastChannels.Channel]?
    private let refusedChannels: Set<EntityKey>
    private var state: RecipeState
    /// Events matched by a field's value: value → event index.
    private let byValue: [String: Int]
    /// Events matched by an API call, in recipe order.
    private let byRequest: [Int]
    /// Whether the stream reader reads the match field as each record's kind (``Recipe/recordShape``).
    private let readerKind: Bool

    /// The event being planned: its rule, line, time and field values (reused from event to event).
    private var event = 0
    private var line = 0
    private var at: Int64 = 0
    private var values: [RecipeValue] = []
    private var captures: [String] = []
    /// Its recipients still to push to (entity keys), or the one push it planned.
    private var pending: [Int] = []
    private var pendingNext = 0
    private var single: Single = .none
    private var liveEvent = "update"
    private var priority = Priority.immediate
    /// The push rule of the event being planned.
    private var current: Recipe.PushRule?
    /// Slot values of the push being filled, reused (as long as the longest template's slots).
    private var scratch: [PayloadTemplate.Value]

    private enum Single {
        case none
        case token(String)
        /// An entity's place in the state.
        case entity(Int)
        case broadcast(BroadcastChannels.Channel, reach: Int)
        case notSent(NotSentCause)
    }

    /// The name of the event the last line matched (what reports count it as).
    public private(set) var lastEventName: String?
    public private(set) var followersNotSubscribed = 0
    /// Tokens replaced by a newer one (never pushed to again).
    public var retiredTokens: Int { state.retiredTokens }

    /// - Parameters:
    ///   - priority: the profile's, for rules and events that set none.
    ///   - channels: broadcast delivery's channels by the broadcast group's key (ints as today's stores); nil:
    ///     device delivery.
    public init(_ recipe: Recipe, priority: Priority, channels: BroadcastChannels? = nil) {
        self.recipe = recipe
        self.profilePriority = priority
        if let channels {
            self.channels = Dictionary(uniqueKeysWithValues: channels.byStore.map { (EntityKey.int($0.key), $0.value) })
            self.refusedChannels = Set(channels.refused.map { EntityKey.int($0) })
        } else {
            self.channels = nil
            self.refusedChannels = []
        }
        state = RecipeState(fieldCounts: recipe.entities.map(\.fields.count))
        var byValue: [String: Int] = [:]
        var byRequest: [Int] = []
        for (i, e) in recipe.events.enumerated() {
            switch e.match {
            case let .value(_, v): if byValue[v] == nil { byValue[v] = i }
            case .request: byRequest.append(i)
            }
        }
        self.byValue = byValue
        self.byRequest = byRequest
        readerKind = recipe.recordShape.kindField != nil
        scratch = Array(repeating: .null, count: recipe.events.map { $0.push?.slots.count ?? 0 }.max() ?? 0)
        values.reserveCapacity(16)
    }

    // MARK: Events

    public func apply(_ record: StreamRecord) throws -> Int {
        line = record.line
        at = record.at
        single = .none
        // `pending` shares the last fan-out's member list with the state: emptied in place, it would copy it.
        pending = []
        pendingNext = 0
        lastEventName = nil
        event = try match(record)
        let rule = recipe.events[event]
        lastEventName = rule.name
        current = nil
        try readFields(rule, record.fields)
        if let change = rule.state { try apply(change) }
        guard let push = rule.push else { return 0 }
        current = push
        priority = try pushPriority(push)
        liveEvent = push.liveActivityEvent.flatMap(text) ?? ""
        let planned = plan(push.to, push: push)
        fillPerEvent(push)
        return planned
    }

    private func match(_ record: StreamRecord) throws -> Int {
        if let field = recipe.matchField {
            let value = readerKind ? record.kind : (try record.fields.optionalString(field) ?? "")
            if let i = byValue[value] { return i }
        }
        if !byRequest.isEmpty {
            let method = try record.fields.optionalString(recipe.methodField)
            let path = try record.fields.optionalString(recipe.pathField)
            if let method, let path {
                for i in byRequest {
                    guard case let .request(m, pattern) = recipe.events[i].match, m == method else { continue }
                    if pattern.match(path, into: &captures) { return i }
                }
                lastEventName = "\(method) (no event matches)"
                throw StreamLineError(line: record.line, cause: .unknownKind("\(method) \(path)"))
            }
        }
        if let field = recipe.matchField {
            let value = readerKind ? record.kind : ((try? record.fields.optionalString(field)) ?? nil) ?? ""
            lastEventName = value.isEmpty ? nil : value
            throw StreamLineError(line: record.line, cause: .unknownKind(value))
        }
        throw StreamLineError(line: record.line, cause: .unknownKind("?"))
    }

    /// Reads and checks every field before anything changes: a bad line plans nothing.
    private func readFields(_ rule: Recipe.EventRule, _ line: FlatJSONObject) throws {
        values.removeAll(keepingCapacity: true)
        for f in rule.fields {
            let v = try read(f, line)
            if v.isAbsent {
                if !f.optional { throw StreamLineError(line: self.line, cause: .missingField(f.shownAs)) }
            } else {
                try check(f, v)
            }
            values.append(v)
        }
    }

    private func read(_ f: Recipe.FieldRule, _ line: FlatJSONObject) throws -> RecipeValue {
        if let c = f.capture {
            let text = captures[c]
            switch f.type {
            case .int:
                guard let n = Int(text) else { throw bad(f, "'\(text)' in the path is not an integer") }
                return .int(n)
            default: return .string(text)
            }
        }
        var object = line
        for key in f.path.dropLast() {
            // A nested object's errors name the field by its whole path.
            guard let inner = try object.nested(key) else { return .absent }
            object = inner
        }
        let key = f.path[f.path.count - 1]
        switch f.type {
        case .string:
            guard let s = try object.optionalString(key) else { return .absent }
            return f.emptyIsAbsent && s.isEmpty ? .absent : .string(s)
        case .token:
            guard let s = try object.optionalString(key) else { return .absent }
            return s.isEmpty ? .absent : .string(s)
        case .int: return try object.optionalInt(key).map { .int($0) } ?? .absent
        case .number: return try object.optionalDouble(key).map { .number($0) } ?? .absent
        case .bool: return try object.optionalBool(key).map { .bool($0) } ?? .absent
        case .ints: return try object.optionalIntArray(key).map { .ints($0) } ?? .absent
        case .strings: return try object.optionalStringArray(key).map { .strings($0) } ?? .absent
        }
    }

    private func check(_ f: Recipe.FieldRule, _ v: RecipeValue) throws {
        if f.type == .token, case let .string(s) = v, !DeviceToken.isValid(s) {
            throw bad(f, "not a device token (hex, an even number of 64–200 digits)")
        }
        if f.nonEmpty, case let .string(s) = v, s.isEmpty { throw bad(f, "empty") }
        if let min = f.min, case let .int(n) = v, n < min { throw bad(f, "\(n) is below \(min)") }
        if let allowed = f.oneOf, !allowed.contains(v) {
            throw bad(f, "'\(v.text ?? "?")' is not one of \(allowed.compactMap(\.text).sorted().joined(separator: ", "))")
        }
    }

    private func bad(_ f: Recipe.FieldRule, _ why: String) -> StreamLineError {
        StreamLineError(line: line, cause: .badValue(field: f.shownAs, why: why))
    }

    private func key(_ field: Int) throws -> EntityKey {
        guard let k = values[field].key else {
            let f = recipe.events[event].fields[field]
            throw StreamLineError(line: line, cause: .badValue(field: f.shownAs, why: "cannot be a key"))
        }
        return k
    }

    private func apply(_ change: Recipe.StateChange) throws {
        let key = try self.key(change.key)
        let type = change.entity
        let name = recipe.entities[type].name
        let keyField = recipe.events[event].fields[change.key].shownAs
        let existing = state.place(type, key)
        let exists = existing != nil
        switch change.op {
        case .create where exists:
            throw StreamLineError(line: line, cause: .badValue(field: keyField, why: "\(name) \(key) already exists"))
        case .update where !exists, .remove where !exists:
            throw StreamLineError(line: line, cause: .badValue(field: keyField, why: "\(name) \(key) does not exist (no earlier line created it)"))
        case .remove:
            state.remove(type, existing!)
            return
        default:
            break
        }
        let place = state.ensure(type, key)
        if let t = change.token, case let .string(token) = values[t] { state.setToken(place, token) }
        for (field, source) in change.set {
            let v = value(source, recipient: nil)
            if !v.isAbsent { state.setField(place, field, v) }
        }
        if let memberOf = change.memberOf {
            var groups: [GroupKey] = []
            for (group, source) in memberOf {
                switch value(source, recipient: nil) {
                case let .ints(list): groups += list.map { GroupKey(group: group, key: .int($0)) }
                case let .strings(list): groups += list.map { GroupKey(group: group, key: .string($0)) }
                case let v: if let k = v.key { groups.append(GroupKey(group: group, key: k)) }
                }
            }
            state.setGroups(place, groups)
        }
        if let s = change.subscribe { state.subscribe(place, to: values[s].key) }
    }

    private func pushPriority(_ push: Recipe.PushRule) throws -> Priority {
        switch push.priority {
        case .profile: return profilePriority
        case let .fixed(p): return p
        case let .mapped(source, table, otherwise):
            return text(source).flatMap { table[$0] } ?? otherwise ?? profilePriority
        case let .field(i):
            guard case let .int(n) = values[i] else { return profilePriority }
            guard let p = Priority(rawValue: n) else {
                throw StreamLineError(line: line, cause: .badValue(field: recipe.events[event].fields[i].shownAs, why: "\(n) is not 10, 5 or 1"))
            }
            return p
        }
    }

    /// Plans the event's pushes; returns how many.
    private func plan(_ target: Recipe.Target, push: Recipe.PushRule) -> Int {
        switch target {
        case let .token(field):
            guard case let .string(token) = values[field], !token.isEmpty else {
                single = .notSent(.noToken)
                return 1
            }
            single = .token(token)
            return 1
        case let .entity(type, keyField):
            guard let key = values[keyField].key, let place = state.place(type, key) else {
                single = .notSent(.unknownTarget)
                return 1
            }
            guard let token = state.token(place), !token.isEmpty else {
                single = .notSent(.noToken)
                return 1
            }
            single = .entity(place)
            return 1
        case let .group(group, keySource, ifAbsent):
            let v = value(keySource, recipient: nil)
            guard let groupKey = v.key else {
                if let ifAbsent { return plan(ifAbsent, push: push) }
                single = .notSent(.noRecipients)
                return 1
            }
            let members = state.members(of: GroupKey(group: group, key: groupKey))
            if let channels, group == recipe.broadcastGroup, let type = push.recipientEntity {
                return broadcast(groupKey, members: members, channels: channels, entityType: type)
            }
            guard !members.isEmpty else {
                single = .notSent(.noRecipients)
                return 1
            }
            pending = members
            return members.count
        }
    }

    /// One broadcast to the key's channel, or one push not sent when nobody subscribed or it has no channel.
    private func broadcast(_ key: EntityKey, members: [Int], channels: [EntityKey: BroadcastChannels.Channel], entityType: Int) -> Int {
        let subscribed = state.subscribers(of: key)
        followersNotSubscribed += members.reduce(0) { $0 + (subscribed.contains($1) ? 0 : 1) }
        guard !subscribed.isEmpty else {
            single = .notSent(.noRecipients)
            return 1
        }
        guard let channel = channels[key] else {
            single = .notSent(refusedChannels.contains(key) ? .channelLimit : .unknownTarget)
            return 1
        }
        single = .broadcast(channel, reach: subscribed.count)
        if liveEvent == "end" { state.endSubscriptions(of: key) }
        return 1
    }

    // MARK: Pushes

    public func nextPlanned(into push: inout OutgoingPush) -> PullResult? {
        switch single {
        case .none:
            guard pendingNext < pending.count, let rule = current else { return nil }
            let place = pending[pendingNext]
            pendingNext += 1
            guard rule.recipientEntity != nil, state.isLive(place) else {
                // Planned for an entity that is gone: counted, never dropped silently.
                return notSent(.unknownTarget, &push)
            }
            guard let token = state.token(place), !token.isEmpty else { return notSent(.noToken, &push) }
            fill(&push, rule, token: token, recipient: place)
            return .push
        case let .notSent(cause):
            single = .none
            return notSent(cause, &push)
        case let .token(token):
            single = .none
            fill(&push, current!, token: token, recipient: nil)
            return .push
        case let .entity(place):
            single = .none
            fill(&push, current!, token: state.token(place) ?? "", recipient: place)
            return .push
        case let .broadcast(channel, reach):
            single = .none
            fill(&push, current!, token: channel.id, recipient: nil, broadcast: true)
            push.channel = channel.index
            push.reach = Int32(clamping: reach)
            return .push
        }
    }

    private func notSent(_ cause: NotSentCause, _ push: inout OutgoingPush) -> PullResult {
        push.priority = priority
        push.intendedNanos = 0
        return .notSent(cause)
    }

    /// - Parameters:
    ///   - recipient: the recipient's place in the state: its fields are read there, not from a copy, so that
    ///     `remember` below writes them in place.
    ///   - broadcast: a push to a channel (`recipient.key` is `""`).
    private func fill(_ push: inout OutgoingPush, _ rule: Recipe.PushRule, token: String, recipient: Int?, broadcast: Bool = false) {
        currentToken = token
        let key: EntityKey? = broadcast ? .string("") : recipient.flatMap { state.key($0) }
        // The slots that do not depend on the recipient were filled when the event was applied.
        for i in rule.perPushSlots {
            let slot = rule.slots[i]
            scratch[i] = templateValue(value(slot.source, recipient: recipient, key: key), slot)
        }
        rule.template.render(into: &push.body, values: scratch)
        push.deviceToken = token
        push.priority = priority
        push.intendedNanos = 0
        push.recordedMillis = at
        push.kind += headerSet
        if let type = rule.recipientEntity, let recipient {
            if rule.rememberPerPush {
                // Every kept value is read before any is written: each reads the fields as the push found them.
                remembered.removeAll(keepingCapacity: true)
                for (field, source) in rule.remember {
                    remembered.append((field, value(source, recipient: recipient, key: key)))
                }
            }
            for (field, v) in remembered where !v.isAbsent { state.setField(recipient, field, v) }
            if rule.removeRecipientAfterEnd && liveEvent == "end" {
                state.remove(type, recipient)
                state.timestamps.forget(token)
            }
        } else if rule.removeRecipientAfterEnd && liveEvent == "end" {
            state.timestamps.forget(token)
        }
    }

    /// Fills the slots, `remember` values and header set that are the same for every push of the event.
    private func fillPerEvent(_ rule: Recipe.PushRule) {
        headerSet = header(rule)
        for i in rule.perEventSlots {
            let slot = rule.slots[i]
            scratch[i] = templateValue(value(slot.source, recipient: nil), slot)
        }
        remembered.removeAll(keepingCapacity: true)
        if !rule.rememberPerPush {
            for (field, source) in rule.remember { remembered.append((field, value(source, recipient: nil))) }
        }
    }

    private func header(_ rule: Recipe.PushRule) -> Int32 {
        switch rule.header {
        case let .fixed(i): return i
        case let .mapped(source, table, otherwise): return text(source).flatMap { table[$0] } ?? otherwise
        }
    }

    /// The header set of the event's pushes (an index into ``Recipe/headerVariants``).
    private var headerSet: Int32 = 0
    /// The token of the push being filled (for `activity_timestamp`).
    private var currentToken = ""
    /// The values a push keeps on its recipient (`remember`), reused from push to push.
    private var remembered: [(field: Int, value: RecipeValue)] = []

    // MARK: Values

    private func text(_ source: Recipe.Source) -> String? { value(source, recipient: nil).text }

    /// - Parameter recipient: the recipient's slot in the state (``RecipeState/slot(_:_:)``).
    private func value(_ source: Recipe.Source, recipient: Int?, key: EntityKey? = nil) -> RecipeValue {
        switch source {
        case let .field(i): return values[i]
        case let .recipient(i): return recipient.map { state.field($0, i) } ?? .absent
        case .recipientKey: return key?.value ?? .absent
        case .time: return .time(at)
        case .timeUnix: return .int(Int(at / 1000))
        case .activityTimestamp: return .int(state.timestamps.next(for: currentToken, recordedSeconds: Int(at / 1000)))
        case .liveActivityEvent: return .string(liveEvent)
        case let .constant(v): return v
        case let .map(inner, table, otherwise):
            let v = value(inner, recipient: recipient, key: key)
            return v.text.flatMap { table[$0] } ?? otherwise ?? v
        case let .join(parts, separator, ifEmpty):
            var out = ""
            for p in parts {
                guard let t = value(p, recipient: recipient, key: key).text else { continue }
                out += out.isEmpty ? t : separator + t
            }
            if out.isEmpty, let ifEmpty { return value(ifEmpty, recipient: recipient, key: key) }
            return out.isEmpty ? .absent : .string(out)
        case let .orElse(inner, otherwise):
            let v = value(inner, recipient: recipient, key: key)
            return v.isAbsent ? otherwise : v
        }
    }

    private func templateValue(_ v: RecipeValue, _ slot: Recipe.Slot) -> PayloadTemplate.Value {
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

    /// The last time written as text: every push of a fan-out writes its event's time, formatted once.
    private var lastTime: (millis: Int64, text: String)?

    private func iso8601(_ ms: Int64) -> String {
        if let lastTime, lastTime.millis == ms { return lastTime.text }
        let text = Timestamp.iso8601(millis: ms)
        lastTime = (ms, text)
        return text
    }

    /// 2001-01-01T00:00:00Z in epoch milliseconds: Foundation's reference date.
    static var referenceDateMillis: Int64 { 978_307_200_000 }
}
