import APNsCore

/// Runs a ``Recipe`` over a recorded stream, as a ``WorkloadRules``: each line is matched to its event, its
/// fields read and checked, the state changed, and its pushes planned; ``nextPlanned(into:)`` then fills one
/// push at a time (recipient, headers, payload rendered into the engine's reused buffer). Where it is in that
/// cycle, with what that point needs, is one ``RecipeEventState`` (``phase``).
public final class RecipeRules: WorkloadRules {
    let recipe: Recipe
    let profilePriority: Priority
    /// Broadcast delivery's channels, by the broadcast group's key; nil: device delivery.
    let channels: [EntityKey: BroadcastChannels.Channel]?
    let refusedChannels: Set<EntityKey>
    /// Which event a line is (a field's value, or an API call), with the matched path's captures.
    private var matcher: RecipeLineMatcher
    /// Whether the stream reader reads the match field as each record's kind (``Recipe/recordShape``).
    private let readerKind: Bool

    /// Every push rule of the recipe, by ``Recipe/PushRule/index``.
    let rules: [Recipe.PushRule]

    /// The entities, groups and tokens the events so far built.
    var state: EntityStore
    /// Where the cycle of the current event is, with what that point needs (``RecipeEventState``).
    var phase = RecipeEventState.idle
    /// The event being planned or handed out: its rule, line and recorded time (0 before the first).
    var event: Int { phase.event?.rule ?? 0 }
    var line: Int { phase.event?.line ?? 0 }
    var at: Int64 { phase.event?.at ?? 0 }

    // Buffers reused from event to event: stored here, not in ``phase``, so that they are filled in place
    // without a copy and the hot path allocates nothing. Each is filled while an event plans and read while
    // its pushes are handed out.

    /// The event's field values, by ``Recipe/EventRule/fields`` index.
    var values: [RecipeValue] = []
    /// The event's plan: an entry per push rule whose condition held, in rule order.
    var plan = EventPlan()
    /// Per rule: the slot values filled once per event, then per push (as long as its template's slots).
    var scratch: [[PayloadTemplate.Value]]
    /// Per rule: the values a push keeps on its recipient (`remember`), reused from push to push.
    var remembered: [[(field: Int, value: RecipeValue)]]
    /// Per rule, per text header it writes itself (``Recipe/PushRule/texts``): the value as read for the event
    /// being planned.
    var headerTexts: [[[UInt8]]]
    /// Per rule: the members its `where:` kept (empty for a rule without one).
    var filtered: [[Int]]
    /// Per rule: by place in `filtered`, the members whose `where:` failed (their pushes are not sent).
    var filterFailures: [[Int: RecipeEventState.Failure]]
    /// Per rule: the recipients a fan-out over several group keys gathered, each once (``fanOut(_:rule:into:)``).
    var fanned: [[Int]]
    /// Per place in the state: the fan-out that last reached it (``fanOutMark``), so that a recipient reached
    /// again is known in one step.
    var reachedBy: [UInt32] = []
    var fanOutMark: UInt32 = 0
    /// The group keys looked up and the members visited by fan-outs over several keys, so far: what a fan-out
    /// costs, in proportion to its recipients.
    public internal(set) var fanOutSteps = 0
    /// Why the last push handed out as `bad_line` was not sent (a value read for its recipient failed).
    public internal(set) var lastPushFailure: String?

    /// Per rule: the pushes it planned so far, not-sent ones included (``Recipe/PushRule/index``).
    public private(set) var plannedByRule: [Int]
    /// Pushes planned so far whose priority is their rule's or event's own, not the profile's: what `--priority`
    /// does not reach.
    public internal(set) var pushesAtOwnPriority = 0
    /// Per event: the pushes `require:` planned not sent for an event without push rules.
    var missingWithoutRule: [Int]
    /// The last time written as text: every push of a fan-out writes its event's time, formatted once.
    var lastTime: (millis: Int64, text: String)?
    /// The expression being evaluated: the sources of its names, and the recipient and key they read. Set by
    /// ``evaluate(_:recipient:key:)`` for the length of that call (the expression reads its names back through
    /// ``read(_:)``), at any point of the cycle.
    var evaluating = (inputs: [Recipe.Source](), recipient: Int?.none, key: EntityKey?.none)
    /// By ``RecipeExpression/Named/slot``: each let's value, kept for the event it was read in (its
    /// ``letEvent``) and, for one that reads the recipient, that recipient (-1: none).
    var letValues: [(event: Int, recipient: Int, value: Result<RecipeValue, RecipeEventState.Failure>)]
    /// Counts the events applied: a let's value kept for another count is read again.
    var letEvent = 0
    /// How many expressions are being evaluated, one inside another (through a let they read).
    var evaluationDepth = 0
    /// A let that failed inside the expression being evaluated: that expression fails with it.
    var letFailure: RecipeEventState.Failure?

    /// The name of the event the last line matched (what reports count it as).
    public var lastEventName: String? {
        switch phase {
        case .idle: return nil
        case let .unmatched(countedAs): return countedAs
        case .planning, .handingOut, .failed: return recipe.events[event].name
        }
    }
    /// Whether the last event has push rules and none of their conditions held (it planned nothing).
    public var lastEventHeldNoRule: Bool { phase.heldNoRule }
    public internal(set) var followersNotSubscribed = 0
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
        state = EntityStore(fieldCounts: recipe.entities.map(\.fields.count))
        matcher = RecipeLineMatcher(recipe)
        readerKind = recipe.recordShape.kindField != nil
        rules = recipe.pushRules
        scratch = rules.map { Array(repeating: .null, count: $0.slots.count) }
        remembered = rules.map { Array(repeating: (0, .absent), count: $0.remember.count) }
        headerTexts = rules.map { $0.texts.map { var b = [UInt8](); b.reserveCapacity($0.header.value.maxBytes); return b } }
        plannedByRule = Array(repeating: 0, count: rules.count)
        letValues = Array(repeating: (-1, -1, .success(.absent)), count: recipe.letCount)
        missingWithoutRule = Array(repeating: 0, count: recipe.events.count)
        filtered = Array(repeating: [], count: rules.count)
        fanned = Array(repeating: [], count: rules.count)
        filterFailures = Array(repeating: [:], count: rules.count)
        values.reserveCapacity(16)
        plan.entries.reserveCapacity(recipe.events.map(\.pushes.count).max() ?? 0)
    }

    // MARK: Events

    public func apply(_ record: StreamRecord) throws -> Int {
        // An entry's member list is shared with the state: emptied in place, it would copy it.
        plan.reset()
        letEvent &+= 1
        // Until the line matched an event, it is counted under its own kind.
        phase = .unmatched(countedAs: nil)
        let rule = try match(record)
        phase.begin(.init(rule: rule, line: record.line, at: record.at))
        // An event is a transaction: its changes to the state stay only when all of it succeeded.
        state.begin()
        let followers = followersNotSubscribed
        do {
            let planned = try planEvent(recipe.events[rule], record.fields)
            state.commit()
            return planned
        } catch {
            // A bad line plans nothing and changes nothing: the rules planned before the failure are
            // dropped too, and every change it made to the state is undone.
            plan.reset()
            phase.fail()
            state.rollBack()
            followersNotSubscribed = followers
            throw error
        }
    }

    /// Reads the matched event's fields, changes the state and plans its push rules.
    private func planEvent(_ event: Recipe.EventRule, _ fields: FlatJSONObject) throws -> Int {
        try readFields(event, fields)
        if let required = event.require, entityPlace(required.field, required.entity) == nil {
            return planMissing()
        }
        if let change = event.state { try apply(change) }
        try throwIfAnExpressionFailed()
        let pushes = event.pushes
        var planned = 0
        for r in pushes.indices {
            let index = pushes[r].index
            if let when = rules[index].when, !holds(when) {
                try throwIfAnExpressionFailed()
                continue
            }
            planned += try planRule(index)
            try throwIfAnExpressionFailed()
        }
        phase.planned(heldNoRule: planned == 0 && !pushes.isEmpty)
        // Counted once the whole event planned: a rule that fails makes the event a bad line.
        for entry in plan.entries {
            plannedByRule[entry.rule] += entry.count
            if entry.ownPriority { pushesAtOwnPriority += entry.count }
        }
        return planned
    }

    /// An event whose required entity is missing: one push not sent, `unknown_target`, under its first rule (an
    /// event without push rules: under the event, ``EventPlan/Entry/noRule``); nothing else of the event runs.
    func planMissing() -> Int {
        let rule = recipe.events[event].pushes.first?.index ?? EventPlan.Entry.noRule
        plan.entries.append(EventPlan.Entry(rule: rule, recipients: .notSent(.unknownTarget), priority: profilePriority, liveEvent: "", kind: 0))
        if rule == EventPlan.Entry.noRule { missingWithoutRule[event] += 1 } else { plannedByRule[rule] += 1 }
        phase.planned(heldNoRule: false)
        return 1
    }

    private func match(_ record: StreamRecord) throws -> Int {
        if let field = recipe.matchField {
            let value = readerKind ? record.kind : (try record.fields.optionalString(field) ?? "")
            if let i = matcher.event(value: value) { return i }
        }
        if matcher.matchesRequests {
            let method = try record.fields.optionalString(recipe.methodField)
            let path = try record.fields.optionalString(recipe.pathField)
            if let method, let path {
                if let i = matcher.event(method: method, path: path) { return i }
                phase = .unmatched(countedAs: "\(method) (no event matches)")
                throw StreamLineError(line: record.line, cause: .unknownKind("\(method) \(path)"))
            }
        }
        if let field = recipe.matchField {
            let value = readerKind ? record.kind : ((try? record.fields.optionalString(field)) ?? nil) ?? ""
            phase = .unmatched(countedAs: value.isEmpty ? nil : value)
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
                let allowed = try f.optional || (f.nullable && isPresent(f, line))
                if !allowed { throw StreamLineError(line: self.line, cause: .missingField(f.shownAs)) }
            } else {
                try check(f, v)
            }
            values.append(v)
        }
    }

    /// Whether the line has the field's key (its value may be null).
    private func isPresent(_ f: Recipe.FieldRule, _ line: FlatJSONObject) throws -> Bool {
        var object = line
        for key in f.path.dropLast() {
            guard let inner = try object.nested(key) else { return false }
            object = inner
        }
        return object.has(f.path[f.path.count - 1])
    }

    private func read(_ f: Recipe.FieldRule, _ line: FlatJSONObject) throws -> RecipeValue {
        if let c = f.capture {
            let text = matcher.captures[c]
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

    func bad(_ f: Recipe.FieldRule, _ why: String) -> StreamLineError {
        StreamLineError(line: line, cause: .badValue(field: f.shownAs, why: why))
    }

    func key(_ field: Int) throws -> EntityKey {
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
            if let kept = v.kept { state.setField(place, field, kept) }
        }
        for edit in change.edits { try self.edit(edit, on: place) }
        if let memberOf = change.memberOf {
            // The groups kept by join: and leave: stay as they are.
            var groups: [GroupKey] = recipe.joinedGroups.isEmpty ? [] : state.entities[place].groups.filter { recipe.joinedGroups.contains($0.group) }
            for (group, source) in memberOf {
                switch value(source, recipient: nil) {
                case let .ints(list): groups += list.map { GroupKey(group: group, key: .int($0)) }
                case let .strings(list): groups += list.map { GroupKey(group: group, key: .string($0)) }
                case let v: if let k = v.key { groups.append(GroupKey(group: group, key: k)) }
                }
            }
            state.setGroups(place, groups)
        }
        for (group, source, joins) in change.joins { join(place, group, value(source, recipient: nil), joins: joins) }
        if let s = change.subscribe { state.subscribe(place, to: values[s].key) }
    }
}
