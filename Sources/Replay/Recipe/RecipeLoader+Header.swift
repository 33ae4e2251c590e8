import APNsCore
import Foundation
import YAMLReading

/// A push rule's headers (``APNsHeaders/all``: `push_type`, `topic`, `expiration`, and each text header
/// a push may carry itself, by its row): the push kinds' constants, built before the run, and the values each push carries itself.
extension Builder {
    /// One header's value for one key of a table: the header's row and the value.
    typealias HeaderSetter = (row: APNsHeader, value: RecipeValue)
    /// The headers mapped from one field's value: the field, where it is written, by value the headers set, and
    /// the headers set for a value no table names.
    typealias HeaderTables = (from: Recipe.Source, entry: Entry, tables: [String: [HeaderSetter]], defaults: [HeaderSetter])

    /// The push's headers: the rows carried by kind (``kindRows``: push type, topic) fixed or mapped from one field's
    /// value; expiration and the text headers fixed (where their rows take a recipe constant), mapped from one
    /// field's value through a table (one push kind each, built before the run), or read from each event: a field's
    /// value, an expression, or for a text header a format over fields (`order-{{order_id}}`), carried by each push;
    /// or made for each push (`per_push`) where the row takes it. A value that reads the recipient is read per push.
    mutating func header(_ m: StrictYAML.Mapping, event: Recipe.EventRule, recipient: Int?, into rule: inout Recipe.PushRule) throws {
        var base = HeaderConstants()
        var mapped: HeaderTables?
        for row in Self.kindRows {
            guard let entry = m[row.key] else { continue }
            guard case .scalar = entry.node else {
                try reader.check(try reader.map(entry), RecipeForms.headerValue, at: entry)
                guard try reader.map(entry)["map"] != nil else {
                    throw fail(entry, "is the same for every push of a kind: a constant, or a table {from: FIELD, map: {VALUE: …}, default: …}")
                }
                mapped = try headerTable(entry, row, event: event, into: mapped)
                continue
            }
            let text = try reader.text(entry)
            if let why = row.value.refusal(constant: .text(text)) {
                throw fail(entry, "\(why), found \(text.utf8.count > 64 ? "\(text.utf8.count) bytes" : "'\(text)'")")
            }
            base[row] = .text(text)
        }
        let expiration = APNsHeaders.expiration
        let given = try expirationEntry(m)
        if let (entry, duration) = given {
            if let seconds = try constantExpiration(entry, duration: duration) {
                base[expiration] = .number(seconds)
            } else if let fromEvent = try perEventHeader(entry, header: expiration, event: event, recipient: recipient) {
                rule.expiration = fromEvent
                base.perPush.insert(expiration)
            } else {
                mapped = try headerTable(entry, expiration, event: event, into: mapped, durations: duration)
            }
        }
        if let entry = m["expiration_at"] {
            if let given { throw fail(entry, "does not go with '\(given.duration ? Self.expirationKey : expiration.key)': give one expiration") }
            try expirationAt(entry, event: event, recipient: recipient, into: &rule)
            base.perPush.insert(expiration)
        }
        for row in APNsHeaders.perPushText {
            guard let entry = m[row.key] else { continue }
            try ownText(row, entry, event: event, recipient: recipient, base: &base, mapped: &mapped, into: &rule)
        }
        func apply(_ v: inout HeaderConstants, _ items: [HeaderSetter]) {
            for (row, value) in items {
                if case .seconds = row.value, Self.rowConstant(row, value) == nil { continue }
                v[row] = Self.rowConstant(row, value)
            }
        }
        guard let mapped else { return rule.kind = .fixed(index(of: base)) }
        var other = base
        apply(&other, mapped.defaults)
        var table: [String: Int32] = [:]
        for (key, items) in mapped.tables {
            var v = other
            apply(&v, items)
            table[key] = index(of: v)
        }
        rule.kind = .mapped(from: mapped.from, table: table, otherwise: index(of: other))
    }

    /// A text header's value: made per push (`per_push`), a format over fields or a field read per event (carried
    /// by each push), or where the row takes a recipe constant, a constant or a table from a field's value.
    private mutating func ownText(_ row: APNsHeader, _ entry: Entry, event: Recipe.EventRule, recipient: Int?,
                                  base: inout HeaderConstants, mapped: inout HeaderTables?, into rule: inout Recipe.PushRule) throws {
        let constant = Self.takesConstantText(row)
        let made: Recipe.OwnText.Made
        if case .scalar = entry.node {
            let text = try reader.text(entry)
            if row.sources.contains(.perPush), text == APNsHeader.Source.perPush.rawValue {
                made = .perPush
            } else if text.contains("{{") {
                made = .perEvent(try headerFormat(text, entry, header: row, event: event, recipient: recipient))
            } else {
                let src = try headerScalar(text, entry, header: row, event: event, recipient: recipient)
                if let value = try constantText(src, entry) {
                    guard constant else {
                        throw fail(entry, "reads nothing of the event, so every push would carry '\(value)': "
                            + "\(row.sources.contains(.perPush) ? "write per_push for each push's own, or " : "")read it from each event ({from: FIELD})")
                    }
                    guard value.utf8.count <= row.value.maxBytes else { throw fail(entry, "must be at most \(row.value.maxBytes) bytes (APNs' limit)") }
                    return base[row] = .text(value)
                }
                try checkPerEvent(src, entry, key: row.key, event: event, recipient: recipient)
                made = .perEvent(Recipe.HeaderText(parts: [.value(src)]))
            }
        } else if let fromEvent = try perEventHeader(entry, header: row, event: event, recipient: recipient) {
            made = .perEvent(Recipe.HeaderText(parts: [.value(fromEvent)]))
        } else if constant {
            return mapped = try headerTable(entry, row, event: event, into: mapped)
        } else {
            throw fail(entry, "is read from each event: '{from: FIELD}' without 'map:'")
        }
        rule.texts.append(Recipe.OwnText(slot: row.slot!, header: row, value: made))
        base.perPush.insert(row)
    }

    /// The rows carried by kind that a push rule sets, each to a constant its row's checks take.
    static let kindRows = APNsHeaders.all.filter { $0.carrier == .kind && $0.sources.contains(.recipeConstant) }

    /// Whether a text row takes a recipe constant (`collapse_id: "'orders'"`, or a table of them).
    static func takesConstantText(_ row: APNsHeader) -> Bool {
        guard row.sources.contains(.recipeConstant), case .text = row.value else { return false }
        return true
    }

    /// `expiration_at:`: an absolute time (a time, or int seconds since 1970) read once per event, or per push
    /// when it reads the recipient.
    private func expirationAt(_ entry: Entry, event: Recipe.EventRule, recipient: Int?, into rule: inout Recipe.PushRule) throws {
        let src = try source(entry, event: event, recipient: recipient)
        try checkPerEvent(src, entry, key: "expiration_at", event: event, recipient: recipient)
        guard isTime(src, recipient: recipient) == true || type(of: src, event: event, recipient: recipient) == .int else {
            throw fail(entry, "must be a time (like \"time + 600\") or int seconds since 1970")
        }
        rule.expiration = src
        rule.expirationAt = true
    }

    /// `{from: FIELD, map: {VALUE: …}, default: …}`: a push kind per value, added to the push's other mapped header.
    private mutating func headerTable(_ entry: Entry, _ row: APNsHeader, event: Recipe.EventRule, into mapped: HeaderTables?,
                                      durations: Bool = false) throws -> HeaderTables {
        let mm = try reader.map(entry)
        let from = mm["from"]!, table = mm["map"]!
        if case .scalar = from.node, let name = from.node.string, name.hasPrefix("recipient.") || name == "activity_timestamp" {
            throw fail(from, "reads the recipient, but a table picks the push kind, once per event: "
                + "write an expression that reads the recipient instead (read per push)")
        }
        let src = try source(from, event: event, recipient: nil)
        var out = mapped ?? (src, from, [:], [])
        if mapped != nil, try reader.text(from) != (try reader.text(out.entry)) {
            throw fail(from, "must map from the same field as the push's other mapped headers ('\(try reader.text(out.entry))')")
        }
        func checked(_ e: Entry) throws -> RecipeValue {
            let value = durations ? try expirationTableValue(try constant(e), e) : try constant(e)
            if let c = Self.rowConstant(row, value), let why = row.value.refusal(constant: c) { throw fail(e, why) }
            return value
        }
        for t in try reader.map(table).entries { out.tables[t.key, default: []].append((row, try checked(t))) }
        if let d = mm["default"] { out.defaults.append((row, try checked(d))) }
        return out
    }

    /// A table's value as the row's constant: a number for a seconds row, text for the others; nil: none.
    static func rowConstant(_ row: APNsHeader, _ value: RecipeValue) -> HeaderConstant? {
        guard case .seconds = row.value else { return value.text.map(HeaderConstant.text) }
        if case let .int(n) = value { return .number(n) }
        return nil
    }


    /// `{from: FIELD}` or `{from: FIELD, default: VALUE}` (no `map:`), or for a seconds header a field's name:
    /// the value read once per event; nil for a table (`map:`).
    mutating func perEventHeader(_ entry: Entry, header: APNsHeader, event: Recipe.EventRule, recipient: Int?) throws -> Recipe.Source? {
        let key = header.key
        var isExpiration = false
        if case .seconds = header.value { isExpiration = true }
        var src: Recipe.Source
        if case .scalar = entry.node {
            src = try headerScalar(try reader.text(entry), entry, header: header, event: event, recipient: recipient)
        } else {
            let mm = try reader.map(entry)
            try reader.check(mm, RecipeForms.headerValue, at: entry)
            if let x = mm["expr"] {
                let compiled = try expression(try reader.text(x), x, event: event, recipient: recipient)
                if case .uuid = header.value, compiled.compiled.variables.isEmpty {
                    throw fail(x, "is a constant: every push would share one apns-id; use per_push, {from: FIELD} or an expression "
                        + "that reads the event")
                }
                src = .expression(compiled)
                try checkPerEvent(src, x, key: key, event: event, recipient: recipient)
                if isExpiration, type(of: src, event: event, recipient: recipient) != .int {
                    throw fail(x, "must compute an int: seconds after the run's start (an absolute time is 'expiration_at')")
                }
                return src
            }
            let from = mm["from"]!
            guard mm["map"] == nil else { return nil }
            src = try source(from, event: event, recipient: recipient)
            if let d = mm["default"] {
                if case .uuid = header.value {
                    throw fail(d, "would give every push whose field is absent one apns-id: leave it out (an absent value sends none, "
                        + "and APNs makes one)")
                }
                let value = try constant(d)
                var given: HeaderConstant?
                if case let .int(n) = value { given = .number(n) } else if case let .string(t) = value { given = .text(t) }
                if let why = header.value.refusal(constant: given) { throw fail(d, why) }
                src = try defaulted(src, try sugarName(from), value, at: d, event: event, recipient: recipient, liveEvent: false)
            }
        }
        try checkPerEvent(src, entry, key: key, event: event, recipient: recipient)
        if isExpiration, isTime(src, recipient: recipient) == true {
            let at = (entry.node.int == nil ? entry.node.string : nil).map { " (expiration_at: \"\($0)\")" } ?? ""
            throw fail(entry, "reads a time, but '\(key)' is seconds after the run's start: an expiration at a time is 'expiration_at'\(at)")
        }
        if isExpiration, type(of: src, event: event, recipient: recipient).map({ $0 != .int }) ?? false {
            throw fail(entry, "must read an int: seconds after the run's start")
        }
        return src
    }

    /// `text` with `{{NAME}}` placeholders, each a value source by name: a text header written per event.
    func headerFormat(_ text: String, _ entry: Entry, header: APNsHeader, event: Recipe.EventRule, recipient: Int?) throws -> Recipe.HeaderText {
        var parts: [Recipe.HeaderText.Part] = []
        var literalBytes = 0
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex {
                let literal = Array(rest[..<open.lowerBound].utf8)
                literalBytes += literal.count
                parts.append(.literal(literal))
            }
            guard let close = rest[open.upperBound...].range(of: "}}") else { throw fail(entry, "has '{{' without a closing '}}'") }
            let name = rest[open.upperBound ..< close.lowerBound].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw fail(entry, "has an empty '{{}}': name a field inside it") }
            let src = try source(named: name, entry, event: event, recipient: recipient)
            try checkPerEvent(src, entry, key: header.key, event: event, recipient: recipient)
            parts.append(.value(src))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty {
            literalBytes += rest.utf8.count
            parts.append(.literal(Array(rest.utf8)))
        }
        let most = header.value.maxBytes
        guard literalBytes <= most else {
            throw fail(entry, "has \(literalBytes) bytes of text around its fields; \(header.value.noun) is at most \(most) bytes (APNs' limit)")
        }
        return Recipe.HeaderText(parts: parts)
    }

    /// A header value is one value. One that reads the recipient (``Recipe/Source/readsRecipient``) is read for
    /// each push (``Recipe/PushRule/perPushHeaders``), any other once per event.
    private func checkPerEvent(_ src: Recipe.Source, _ entry: Entry, key: String, event: Recipe.EventRule, recipient: Int?) throws {
        if let t = type(of: src, event: event, recipient: recipient), t == .ints || t == .strings {
            throw fail(entry, "reads a list (\(t.rawValue)); '\(key)' takes one value")
        }
    }

    mutating func index(of v: HeaderConstants) -> Int32 {
        if let i = pushKinds.firstIndex(of: v) { return Int32(i) }
        pushKinds.append(v)
        return Int32(pushKinds.count - 1)
    }
}
