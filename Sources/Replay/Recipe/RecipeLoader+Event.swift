import APNsCore
import Foundation
import YAMLReading

extension Builder {
    /// One event: its match, its typed fields, its state change and its push.
    mutating func compileEvent(_ e: Entry) throws -> Recipe.EventRule {
        let m = try reader.map(e)
        guard let matchEntry = m["match"] else { throw fail(e, "needs 'match:', {FIELD: VALUE} or \"METHOD /path/:capture\"") }
        let match = try compileMatch(matchEntry)
        var captures: [String] = []
        if case let .request(_, pattern) = match { captures = pattern.captures }
        var fields: [Recipe.FieldRule] = []
        if let f = m["fields"] {
            for entry in try reader.map(f).entries { fields.append(try compileField(entry, captures: captures)) }
        }
        var event = Recipe.EventRule(name: e.key, match: match, fields: fields, state: nil, pushes: [])
        try beginLets(m["let"], event: event)
        let names = fields.map(\.name)
        func field(_ entry: Entry, types: Set<Recipe.FieldType>? = nil) throws -> Int {
            let name = try reader.text(entry)
            guard let i = names.firstIndex(of: name) else { throw unknownField(entry, name, event: e.key, fields: names) }
            if let types, !types.contains(fields[i].type) {
                throw fail(entry, "field '\(name)' is \(fields[i].type.rawValue); it must be \(types.map(\.rawValue).sorted().joined(separator: " or "))")
            }
            return i
        }
        if let (op, entityEntry) = try stateOp(m, e) {
            let type = entityIndex(try reader.text(entityEntry))
            guard let keyEntry = m["key"] else { throw fail(entityEntry, "needs 'key:', the field that identifies the \(entities[type].name)") }
            let keyField = try field(keyEntry, types: [.int, .string, .token])
            var change = Recipe.StateChange(op: op, entity: type, key: keyField, token: nil, set: [], memberOf: nil, subscribe: nil)
            if op == .remove {
                for k in ["token", "set", "member_of", "join", "leave", "subscribe"] where m[k] != nil { throw fail(m[k]!, "does not go with remove") }
            }
            if let t = m["token"] { change.token = try field(t, types: [.string, .token]) }
            if let s = m["set"] {
                change.set = try kept(s, entity: type, event: event, recipient: nil)
                noteKept(change.set, entity: type, event: event, recipient: nil)
                change.edits = try listEdits(s, entity: type, event: event)
            }
            if let member = m["member_of"] {
                change.memberOf = try reader.map(member).entries.map { g in
                    (groups.firstIndex(of: g.key)!, try source(g, event: event, recipient: nil))
                }
            }
            change.joins = try joins(m, event: event)
            if let s = m["subscribe"] { change.subscribe = try field(s, types: [.int, .string]) }
            event.state = change
        }
        let rules = try pushEntries(m)
        if let r = m["require"] { event.require = try required(r, event: event) }
        for (i, p) in rules.enumerated() {
            let rule = try compilePush(p, event: event, place: rules.count > 1 || p.key.isEmpty ? i + 1 : nil)
            if let name = rule.name, event.pushes.contains(where: { $0.name == name }) {
                throw fail(p, "is named '\(name)' like an earlier push rule of event '\(e.key)': each rule's name is its own")
            }
            event.pushes.append(rule)
        }
        try endLets(event: event)
        return event
    }

    /// Records what the sources of kept fields say of their values, for checking the slots that read them.
    mutating func noteKept(_ kept: [(field: Int, source: Recipe.Source)], entity: Int, event: Recipe.EventRule, recipient: Int?) {
        for (field, source) in kept {
            let now = (time: isTime(source, recipient: recipient), type: type(of: source, event: event, recipient: recipient))
            if let was = keptKinds[entity]?[field] {
                keptKinds[entity]![field] = (was.time == now.time ? now.time : nil, was.type == now.type ? now.type : nil)
            } else {
                keptKinds[entity, default: [:]][field] = now
            }
        }
    }

    /// `require: ENTITY`: an entity the event names by its key field, on any event (one with no push rule
    /// included: a missing entity is then its one push not sent).
    func required(_ e: Entry, event: Recipe.EventRule) throws -> Recipe.Required {
        let name = try reader.text(e)
        guard let type = entities.firstIndex(where: { $0.name == name }) else {
            throw fail(e, "names entity '\(name)', which no event creates "
                + "(entities: \(entities.isEmpty ? "none" : entities.map(\.name).joined(separator: ", ")))")
        }
        let keys = keyNames[type] ?? []
        guard let field = event.fields.firstIndex(where: { keys.contains($0.name) }) else {
            throw fail(e, "requires a \(name), but event '\(event.name)' has no field naming one (its key: \(keys.joined(separator: ", ")))")
        }
        return Recipe.Required(field: field, entity: type)
    }

    func unknownField(_ e: Entry, _ name: String, event: String, fields: [String]) -> Error {
        fail(e, "names '\(name)', which is not a field of event '\(event)' (fields: \(fields.isEmpty ? "none" : fields.joined(separator: ", ")))")
    }

    func compileMatch(_ e: Entry) throws -> Recipe.Match {
        if case .scalar = e.node {
            let text = try reader.text(e)
            let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw fail(e, "can never match: an API call is \"METHOD /path\", e.g. \"PUT /api/items/:id\"; found '\(text)'") }
            guard RecipeLoader.methods.contains(parts[0]) else {
                throw fail(e, "can never match: '\(parts[0])' is not an HTTP method (\(RecipeLoader.methods.sorted().joined(separator: ", ")))")
            }
            if let problem = PathPattern.problem(parts[1]) { throw fail(e, "can never match: the path pattern '\(parts[1])' \(problem)") }
            return .request(method: parts[0], pattern: PathPattern(parts[1]))
        }
        let m = try reader.map(e)
        guard m.entries.count == 1, let only = m.entries.first else { throw fail(e, "must be one {FIELD: VALUE}, or \"METHOD /path\"") }
        return .value(field: only.key, equals: try reader.text(only))
    }

    func compileField(_ e: Entry, captures: [String]) throws -> Recipe.FieldRule {
        var typeText: String
        var m: StrictYAML.Mapping?
        if case .scalar = e.node {
            typeText = try reader.text(e)
        } else {
            let map = try reader.map(e)
            try reader.check(map, RecipeForms.field, at: e)
            let t = map["type"]!
            typeText = try reader.text(t)
            m = map
        }
        let optional = typeText.hasSuffix("?")
        if optional { typeText.removeLast() }
        guard let type = Recipe.FieldType(rawValue: typeText) else {
            throw fail(m?["type"] ?? e, "must be a type: string, int, number, bool, token, [int] or [string], with '?' when optional; found '\(typeText)'")
        }
        let from = try m?["from"].map(reader.text) ?? e.key
        var rule = Recipe.FieldRule(name: e.key, type: type, optional: optional, path: from.split(separator: ".").map(String.init),
                                    capture: nil, shownAs: from)
        if from.hasPrefix("path."), !captures.isEmpty || from.split(separator: ".").count == 2 {
            let name = String(from.dropFirst(5))
            guard let i = captures.firstIndex(of: name) else {
                throw fail(m?["from"] ?? e, "reads capture '\(name)', which the event's path pattern does not have "
                    + "(captures: \(captures.isEmpty ? "none" : captures.joined(separator: ", ")))")
            }
            guard type == .int || type == .string else { throw fail(m?["type"] ?? e, "a path capture is a string or an int") }
            rule.capture = i
        }
        guard !rule.path.isEmpty, !rule.path.contains(where: \.isEmpty) else { throw fail(m?["from"] ?? e, "must be a field path like body.status") }
        if let m {
            if let one = m["one_of"] {
                guard !(try reader.list(one)).isEmpty else { throw fail(one, "lists no value: no line could give this field") }
                rule.oneOf = try reader.list(one).map { item in
                    switch type {
                    case .int: return .int(try reader.int(item))
                    case .string, .token: return .string(try reader.text(item))
                    default: throw fail(one, "goes with a string or int field")
                    }
                }
            }
            if let b = m["nullable"] {
                rule.nullable = try reader.bool(b)
                if rule.nullable, optional { throw fail(b, "goes with a required type: '\(typeText)?' may be absent; 'nullable: true' must be present, "
                    + "null allowed") }
                if rule.nullable, rule.capture != nil { throw fail(b, "does not go with a path capture, which is never null") }
            }
            if let b = m["non_empty"] { rule.nonEmpty = try reader.bool(b) }
            if let b = m["empty_is_absent"] { rule.emptyIsAbsent = try reader.bool(b) }
            if let n = m["min"] {
                guard type == .int else { throw fail(n, "goes with an int field") }
                rule.min = try reader.int(n)
            }
        }
        return rule
    }

    /// `set:` or `remember:`: names (each the event field of that name) or `{entity_field: SOURCE}`. A value that is
    /// absent leaves the kept field as it was; `null` (`field: null`, or `absent: null` for when the value is
    /// absent or null) clears it, kept as the value ``RecipeValue/clear``.
    func kept(_ e: Entry, entity: Int, event: Recipe.EventRule, recipient: Int?) throws -> [(field: Int, source: Recipe.Source)] {
        if case .sequence = e.node {
            return try reader.list(e).map { item in
                let name = try reader.text(item)
                return (entities[entity].fields.firstIndex(of: name)!, try source(item, event: event, recipient: recipient))
            }
        }
        return try reader.map(e).entries.filter { !isListEdit($0) }.map { item in
            let field = entities[entity].fields.firstIndex(of: item.key)!
            var src = try keptSource(item, entity: entity, field: field, event: event, recipient: recipient)
            switch (src, try clears(item)) {
            case (_, true): src = .orElse(src, .clear)
            case (.orElse(_, .omit), _): throw fail(item, "is kept on the entity, so 'absent: omit' (which leaves a slot out of the payload) means nothing "
                + "here: an absent value leaves the kept field as it was, and 'absent: null' clears it")
            default: break
            }
            return (field, src)
        }
    }

    /// A kept field's value source; an expression written for a field kept as a list takes the list's type for
    /// an empty list (`riders: "[]"` clears the list).
    private func keptSource(_ item: Entry, entity: Int, field: Int, event: Recipe.EventRule, recipient: Int?) throws -> Recipe.Source {
        let list: ExprType?
        switch keptKinds[entity]?[field]?.type {
        case .ints?: list = .list(.int)
        case .strings?: list = .list(.string)
        default: list = nil
        }
        guard let list, case .scalar = item.node, !reader.isNull(item), let text = try? reader.text(item), !Self.isName(text) else {
            return try source(item, event: event, recipient: recipient)
        }
        return .expression(try expression(text, item, event: event, recipient: recipient, expecting: list))
    }

    /// Whether a kept field's source says to clear the field when its value is absent: `null`, `{const: null}`
    /// or `{…, absent: null}`. Such a value is the source's own (`S != null ? S : null` is `S`); clearing is how the kept
    /// field is written, kept as the directive `.orElse(S, .clear)` around it.
    private func clears(_ item: Entry) throws -> Bool {
        if reader.isNull(item) { return true }
        guard case .mapping = item.node else { return false }
        let m = try reader.map(item)
        if let c = m["const"], reader.isNull(c) { return true }
        guard let a = m["absent"], case .scalar = a.node else { return false }
        return a.node.string == "null"
    }

    /// A value source (docs/recipes.md, "Value sources"). `recipient`: the entity type `recipient.…` reads.
    func source(_ e: Entry, event: Recipe.EventRule, recipient: Int?, liveEvent: Bool = false) throws -> Recipe.Source {
        switch e.node {
        case .scalar:
            if reader.isNull(e) { return .expression(try expression("null", e, event: event, recipient: recipient)) }
            let text = try reader.text(e)
            guard Self.isName(text) else { return .expression(try expression(text, e, event: event, recipient: recipient, liveEvent: liveEvent)) }
            return try source(named: text, e, event: event, recipient: recipient, liveEvent: liveEvent)
        case .mapping:
            return try mappedSource(e, event: event, recipient: recipient, liveEvent: liveEvent)
        default:
            throw fail(e, "must be a field name or a mapping")
        }
    }

    /// A value source written as a name (`status`, `delivery.user_id`, `recipient.name`, `time`, …); `e` is
    /// where it is written, for messages.
    func source(named text: String, _ e: Entry, event: Recipe.EventRule, recipient: Int?, liveEvent: Bool = false) throws -> Recipe.Source {
        switch text {
        case "time": return .time
        case "time.unix": return .timeUnix
        case "activity_timestamp": return .activityTimestamp
        case "live_activity_event":
            guard liveEvent else { throw fail(e, "reads live_activity_event, but the push sets no 'live_activity_event'") }
            return .liveActivityEvent
        case "recipient.key":
            guard recipient != nil else { throw fail(e, "reads recipient.key, but the push has no recipient entity") }
            return .recipientKey
        default: break
        }
        if text.hasPrefix("recipient.") {
            let name = String(text.dropFirst("recipient.".count))
            guard let type = recipient else { throw fail(e, "reads '\(text)', but the push has no recipient entity ('to' is a token)") }
            if name.contains(".") { return try recipientRelation(text, e, recipient: type) }
            guard let i = entities[type].fields.firstIndex(of: name) else {
                throw fail(e, "names '\(text)', which no event keeps on a \(entities[type].name) "
                    + "(kept: \(entities[type].fields.isEmpty ? "none" : entities[type].fields.joined(separator: ", ")))")
            }
            return .recipient(i)
        }
        if let i = event.fields.firstIndex(where: { $0.name == text }) { return .field(i) }
        if let s = try letSource(text, e, event: event, recipient: recipient) { return s }
        if let r = try relation(text, e, event: event) { return .related(r) }
        throw unknownField(e, text, event: event.name, fields: event.fields.map(\.name))
    }

    /// A value source written as a mapping: `{const}`, `{via}`, `{join}` or `{from, map, default}`, with
    /// `default:` or `absent:` for an absent value.
    func mappedSource(_ e: Entry, event: Recipe.EventRule, recipient: Int?, liveEvent: Bool) throws -> Recipe.Source {
        let m = try reader.map(e)
        try reader.check(m, RecipeForms.source, at: e)
        var s: Recipe.Source
        if let x = m["expr"] {
            s = .expression(try expression(try reader.text(x), x, event: event, recipient: recipient, liveEvent: liveEvent))
        } else if let v = m["via"] {
            s = try recipientRelation(via: v, recipient: recipient) ?? .related(try relation(via: v, event: event))
        } else if let c = m["const"] {
            s = .expression(try expression(RecipeSugar.natural(try constant(c)), c, event: event, recipient: recipient, liveEvent: liveEvent))
            if case .string("") = try constant(c) { throw fail(c, "is empty: a constant names a value (for an empty string where a value is absent, "
                + "write absent: empty)") }
        } else if let j = m["join"] {
            s = try joined(j, m, event: event, recipient: recipient, liveEvent: liveEvent)
        } else if let f = m["from"] {
            s = try source(f, event: event, recipient: recipient, liveEvent: liveEvent)
            if let table = m["map"] {
                guard !(try reader.map(table)).entries.isEmpty else { throw fail(table, "maps no value: give {VALUE: …} pairs, or leave 'map' out") }
                s = try mapped(f, s, table, otherwise: m["default"], at: e, event: event, recipient: recipient, liveEvent: liveEvent)
            }
        } else {
            throw fail(e, "must be a field name, an expression, or {expr: …}, {const: …}, {from: …, map: …, default: …}, "
                + "{via: [FIELD, ENTITY.FIELD, …]} or {join: […]}")
        }
        let name = try sugarName(m["from"] ?? m["expr"])
        if let d = m["default"], m["map"] == nil {
            s = try defaulted(s, name, try constant(d), at: d, event: event, recipient: recipient, liveEvent: liveEvent)
        }
        if let a = m["absent"] {
            switch try reader.text(a) {
            case "null": break
            case "empty": s = try defaulted(s, name, .string(""), at: a, event: event, recipient: recipient, liveEvent: liveEvent)
            case "omit": s = .orElse(s, .omit)
            default: throw fail(a, "must be null, empty or omit (or give 'default:')")
            }
        }
        return s
    }

    func constant(_ e: Entry) throws -> RecipeValue {
        switch try reader.value(e) {
        case .null: return .absent
        case let .bool(b): return .bool(b)
        case let .int(n): return .int(n)
        case let .double(d): return .number(d)
        case let .string(s): return .string(s)
        default: throw fail(e, "must be a constant: text, a number, true or false")
        }
    }
}
