import APNsCore
import Foundation

extension Builder {
    /// One push rule; `place` is its 1-based place in the event's list (nil: the event's only rule, a mapping).
    mutating func compilePush(_ e: Entry, event: Recipe.EventRule, place: Int?) throws -> Recipe.PushRule {
        let m = try reader.map(e)
        try reader.check(m, RecipeForms.push, at: e)
        let (to, recipient) = try target(m["to"]!, event: event)
        let templateEntry = m["template"]!
        let templatePath = resolve(try reader.text(templateEntry))
        let template: PayloadTemplate
        do {
            template = try PayloadTemplate(json: try String(contentsOfFile: templatePath, encoding: .utf8), source: templatePath)
        } catch let error as PayloadTemplate.CompileError {
            throw fail(templateEntry, "\(error)")
        } catch {
            throw fail(templateEntry, "cannot read \(templatePath): \(error.localizedDescription)")
        }
        let liveEvent = try m["live_activity_event"].map { entry -> Recipe.Source in
            if case .scalar = entry.node, let t = entry.node.string, t == "update" || t == "end" {
                return .expression(try expression(RecipeSugar.quoted(t), entry, event: event, recipient: recipient))
            }
            let s = try source(entry, event: event, recipient: recipient)
            if s.readsRecipient {
                // Slots, a broadcast's end and `after_end` read it once per event.
                throw fail(entry, "reads the recipient, but a push rule's Live Activity event is one per event: read it from the event, "
                    + "or write one push rule per event kind, each with its own 'when:'")
            }
            try refuseOtherThanUpdateOrEnd(s, entry, event: event)
            return s
        }
        var rule = Recipe.PushRule(to: to, recipientEntity: recipient, template: template, templateSource: templatePath, liveActivityEvent: liveEvent)
        rule.name = try m["name"].map(reader.text) ?? place.map(String.init)
        rule.path = e.path
        rule.when = try m["when"].map { try condition($0, event: event) }
        rule.fansOut = to.fansOut { key in
            if case .list = exprType(key, event: event, recipient: nil).0 { return true }
            return false
        }
        if case .mapping = m["to"]!.node, let w = try reader.map(m["to"]!)["where"] {
            rule.recipientFilter = try condition(try reader.text(w), w, event: event, recipient: recipient, what: "'where'")
        }
        if let p = m["priority"] {
            rule.priority = try priority(p, event: event, recipient: recipient)
            rule.priorityKey = p.path
        }
        rule.slots = try slots(m["slots"], template: template, templatePath: templatePath, event: event, recipient: recipient,
                               liveEvent: liveEvent != nil, place: e)
        if let r = m["remember"] {
            rule.remember = try kept(r, entity: recipient!, event: event, recipient: recipient)
            noteKept(rule.remember, entity: recipient!, event: event, recipient: recipient)
        }
        if let a = m["after_end"] {
            guard try reader.text(a) == "remove_recipient" else { throw fail(a, "must be remove_recipient") }
            guard liveEvent != nil else { throw fail(a, "needs 'live_activity_event': only an end push ends an activity") }
            rule.removeRecipientAfterEnd = true
        }
        try header(m, event: event, recipient: recipient, into: &rule)
        rule.splitByRecipient()
        return rule
    }

    /// A `live_activity_event` table's values and default must each be `update` or `end`: an APNs event the
    /// push would carry.
    func refuseOtherThanUpdateOrEnd(_ s: Recipe.Source, _ entry: Entry, event: Recipe.EventRule) throws {
        var constants: [RecipeValue] = []
        var read: Recipe.Source?
        let written = try? reader.map(entry)
        switch s {
        case .expression where written?["const"] != nil: constants = [try constant(written!["const"]!)]
        case let .expression(x) where x.reads != nil:
            // `{from, map, default}` or `{from, default}`: the table's values and the default, as written; without
            // a table, the value read as it is, too.
            let m = try reader.map(entry)
            constants = try (m["map"].map { try reader.map($0).entries.map(constant) } ?? []) + (try m["default"].map { [try constant($0)] } ?? [])
            if m["map"] == nil { read = x.reads }
        case let .orElse(inner, v): constants = [v]; read = inner
        default: read = s
        }
        // A field read as it is must only hold update or end (its one_of says so).
        if case let .field(i)? = read {
            let field = event.fields[i]
            guard let allowed = field.oneOf, allowed.allSatisfy({ $0.text == "update" || $0.text == "end" }) else {
                throw fail(entry, "reads '\(field.name)' as it is, but a Live Activity event is update or end: give the field one_of: [update, end], "
                    + "or map its values ({from: \(field.name), map: {VALUE: end}, default: update})")
            }
        }
        for v in constants where v.text != "update" && v.text != "end" {
            throw fail(entry, "maps to '\(v.text ?? "null")': a Live Activity event is update or end")
        }
    }

    /// `priority:`: a number, a field holding one, or a table from a value.
    func priority(_ p: Entry, event: Recipe.EventRule, recipient: Int?) throws -> Recipe.PrioritySource {
        if case .mapping = p.node {
            let mm = try reader.map(p)
            try reader.check(mm, RecipeForms.priority, at: p)
            if let x = mm["expr"] { return try computedPriority(try expression(try reader.text(x), x, event: event, recipient: recipient), x) }
            let from = mm["from"]!, table = mm["map"]!
            func priority(_ e: Entry) throws -> Priority {
                let n = try reader.int(e)
                guard let p = Priority(rawValue: n) else { throw fail(e, "must be 10, 5 or 1, found \(n)") }
                return p
            }
            var t: [String: Priority] = [:]
            for entry in try reader.map(table).entries { t[entry.key] = try priority(entry) }
            return .mapped(try source(from, event: event, recipient: recipient), t, otherwise: try mm["default"].map(priority))
        }
        if case .scalar = p.node, let n = p.node.int {
            guard let priority = Priority(rawValue: n) else { throw fail(p, "must be 10, 5 or 1, or a field holding one; found \(n)") }
            return .fixed(priority)
        }
        let name = try reader.text(p)
        guard Self.isName(name) else { return try computedPriority(try expression(name, p, event: event, recipient: recipient), p) }
        guard let i = event.fields.firstIndex(where: { $0.name == name }) else {
            // Any other value source by name (a kept field, `order.priority`), read once per event as an int.
            let src = try source(named: name, p, event: event, recipient: recipient)
            guard type(of: src, event: event, recipient: recipient) == .int else { throw fail(p, "'\(name)' must be an int (10, 5 or 1)") }
            return .computed(src)
        }
        guard event.fields[i].type == .int else { throw fail(p, "field '\(name)' must be an int (10, 5 or 1)") }
        return .field(i)
    }

    /// A priority an expression computes: an int, read once per event.
    private func computedPriority(_ x: RecipeExpression, _ e: Entry) throws -> Recipe.PrioritySource {
        guard x.compiled.type == .int || x.compiled.type == .dyn else {
            throw fail(e, "column 1: must compute an int (10, 5 or 1), found \(x.compiled.type), in \"\(x.compiled.text)\"")
        }
        return .computed(.expression(x))
    }

    func resolve(_ path: String) -> String {
        let base = (file as NSString).deletingLastPathComponent
        return path.hasPrefix("/") || base.isEmpty ? path : (base as NSString).appendingPathComponent(path)
    }

    /// Whom the push goes to, and the entity type its recipients are.
    func target(_ e: Entry, event: Recipe.EventRule) throws -> (Recipe.Target, Int?) {
        if case .sequence = e.node { return try groupTargets(e, items: try reader.list(e), event: event) }
        let m = try reader.map(e)
        try reader.check(m, RecipeForms.to, at: e)
        let names = event.fields.map(\.name)
        func field(_ entry: Entry) throws -> Int {
            let name = try reader.text(entry)
            guard let i = names.firstIndex(of: name) else { throw unknownField(entry, name, event: event.name, fields: names) }
            return i
        }
        if let t = m["token"] {
            for k in ["entity", "group", "key", "if_absent"] where m[k] != nil { throw fail(m[k]!, "does not go with 'token'") }
            return (.token(field: try field(t)), nil)
        }
        if let g = m["groups"] { return try groupTargets(g, items: try reader.list(g), event: event) }
        guard let keyEntry = m["key"] else { throw fail(e, "needs 'key:', the field that names the recipient") }
        if let entity = m["entity"] {
            let name = try reader.text(entity)
            guard let type = entities.firstIndex(where: { $0.name == name }) else {
                throw fail(entity, "names entity '\(name)', which no event creates "
                    + "(entities: \(entities.isEmpty ? "none" : entities.map(\.name).joined(separator: ", ")))")
            }
            let key = try source(keyEntry, event: event, recipient: nil)
            try refuseListKey(key, keyEntry, event: event)
            return (.entity(type, key: key), type)
        }
        guard let g = m["group"] else { throw fail(e, "must be {token: FIELD}, {entity: E, key: FIELD} or {group: G, key: FIELD}") }
        let name = try reader.text(g)
        guard let group = groups.firstIndex(of: name) else { throw neverRegistered(g, name) }
        // A list key (`ride.riders`) fans out over every key of the list (``RecipeRules/fanOut``).
        let key = try source(keyEntry, event: event, recipient: nil)
        var otherwise: Recipe.Target?
        if let a = m["if_absent"] {
            let (t, type) = try target(a, event: event)
            guard type == groupEntity[group] else { throw fail(a, "must reach the same entities as 'group: \(name)'") }
            otherwise = t
        }
        return (.group(group, key: key, ifAbsent: otherwise), groupEntity[group])
    }

    /// `to: {groups: [{group: G, key: …}, …]}` (or the list alone): every recipient of every group key, each
    /// once. Each item is a `{group, key, if_absent}`; they must all reach one entity type.
    private func groupTargets(_ e: Entry, items: [Entry], event: Recipe.EventRule) throws -> (Recipe.Target, Int?) {
        guard !items.isEmpty else { throw fail(e, "lists no recipients: give {group: G, key: …} items") }
        var parts: [Recipe.Target] = []
        var type: Int?
        for item in items {
            try reader.check(try reader.map(item), RecipeForms.groupTarget, at: item)
            let (t, itemType) = try target(item, event: event)
            if let type, itemType != type {
                throw fail(item, "reaches \(itemType.map { entities[$0].name } ?? "tokens"), but the items before it reach "
                    + "\(entities[type].name): one push rule's recipients are one entity type")
            }
            type = itemType
            parts.append(t)
        }
        return (.groups(parts), type)
    }

    /// A recipient entity's key is one value: a list of keys fans out over a group's members, not an entity's.
    private func refuseListKey(_ key: Recipe.Source, _ e: Entry, event: Recipe.EventRule) throws {
        guard case let .list(item) = exprType(key, event: event, recipient: nil).0 else { return }
        let shown = (try? reader.text(e)).map { "'\($0)'" } ?? "it"
        throw fail(e, "reads \(shown), a list of \(item): an entity recipient's key is one value; a list of keys fans out over a group "
            + "(to: {group: G, key: LIST}), whose members each get one push")
    }

    /// Each template slot's source: named in `slots:`, or else the event's field of the slot's name.
    func slots(_ e: Entry?, template: PayloadTemplate, templatePath: String, event: Recipe.EventRule, recipient: Int?, liveEvent: Bool,
               place: Entry) throws -> [Recipe.Slot] {
        let given = try e.map(reader.map)?.entries ?? []
        for entry in given where !template.slotNames.contains(entry.key) {
            throw fail(entry, "is not a slot of \(templatePath) (slots: \(template.slotNames.joined(separator: ", ")))")
        }
        var out: [Recipe.Slot] = []
        for (i, name) in template.slotNames.enumerated() {
            let format = template.slotFormats[i]
            let src: Recipe.Source
            let at: Entry
            if let entry = given.last(where: { $0.key == name }) {
                src = try source(entry, event: event, recipient: recipient, liveEvent: liveEvent)
                at = entry
            } else if let f = event.fields.firstIndex(where: { $0.name == name }) {
                src = .field(f)
                at = e ?? place
            } else {
                throw fail(e ?? place, "has no source for slot '\(name)' of \(templatePath): "
                    + "add it to 'slots:' (the event's fields: \(event.fields.map(\.name).joined(separator: ", ")))")
            }
            let isTime = self.isTime(src, recipient: recipient)
            if let format, format.isTime, isTime == false {
                throw fail(at, "fills slot '\(name)' of \(templatePath), which has the time format '\(format.rawValue)', with a value that is not a time")
            }
            if isTime == true, template.slotKinds[i] == .integer, format == nil {
                throw fail(at, "fills integer slot '\(name)' of \(templatePath) with a time: say which number, \"{{#\(name)|reference_date}}\", "
                    + "|unix or |unix_ms, or write it as ISO 8601 text, \"{{\(name)}}\"")
            }
            if template.slotKinds[i] == .integer, let t = type(of: src, event: event, recipient: recipient), t != .int, isTime != true {
                throw fail(at, "fills integer slot '\(name)' of \(templatePath) with a \(t.rawValue) value")
            }
            out.append(Recipe.Slot(source: src, format: format))
        }
        do {
            try template.validate(sample: template.slotKinds.map { $0 == .integer ? .integer(1) : .string("x") }, source: templatePath)
        } catch {
            throw fail(place, "\(error)")
        }
        return out
    }

    /// Whether a source is a time (nil: not known until run time).
    func isTime(_ s: Recipe.Source, recipient: Int?) -> Bool? {
        switch s {
        case .time: return true
        case .field, .timeUnix, .activityTimestamp, .liveActivityEvent, .recipientKey, .entityExists, .entityToken: return false
        case let .expression(x): return x.compiled.type == .timestamp ? true : (x.compiled.type == .dyn ? nil : false)
        case let .related(r): return keptKinds[r.hops.last!.entity]?[r.hops.last!.field]?.time
        case let .recipient(i): return recipient.flatMap { keptKinds[$0]?[i]?.time }
        case let .recipientRelated(_, _, hops): return keptKinds[hops.last!.entity]?[hops.last!.field]?.time
        case let .orElse(inner, _): return isTime(inner, recipient: recipient)
        }
    }

    func type(of s: Recipe.Source, event: Recipe.EventRule, recipient: Int?) -> Recipe.FieldType? {
        switch s {
        case let .field(i): return event.fields[i].type == .token ? .string : event.fields[i].type
        case .timeUnix, .activityTimestamp: return .int
        case .liveActivityEvent, .entityToken: return .string
        case let .expression(x): return x.compiled.type.fieldType
        case let .orElse(inner, _): return type(of: inner, event: event, recipient: recipient)
        case let .recipient(i): return recipient.flatMap { keptKinds[$0]?[i]?.type }
        case let .recipientRelated(_, _, hops): return keptKinds[hops.last!.entity]?[hops.last!.field]?.type
        case let .related(r): return keptKinds[r.hops.last!.entity]?[r.hops.last!.field]?.type
        default: return nil
        }
    }

}
