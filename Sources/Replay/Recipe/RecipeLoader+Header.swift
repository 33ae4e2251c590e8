import APNsCore
import Foundation
import YAMLReading

/// A push rule's headers (`push_type`, `topic`, `expiration_seconds`, `collapse_id`): the header sets built
/// before the run, and the values each push carries itself.
extension Builder {
    /// One header's value for one key of a table: a string header's key path or an int header's, and the value.
    typealias HeaderSetter = (WritableKeyPath<HeaderOverride, String?>?, WritableKeyPath<HeaderOverride, Int?>?, RecipeValue)
    /// The headers mapped from one field's value: the field, where it is written, by value the headers set, and
    /// the headers set for a value no table names.
    typealias HeaderTables = (from: Recipe.Source, entry: Entry, tables: [String: [HeaderSetter]], defaults: [HeaderSetter])

    /// The push's headers: push type and topic fixed; expiration and collapse id fixed, mapped from one field's
    /// value through a table (one header set each, built before the run), or read from each event: a field's
    /// value, or for the collapse id a format over fields (`order-{{order_id}}`), carried by each push.
    mutating func header(_ m: StrictYAML.Mapping, event: Recipe.EventRule, recipient: Int?, into rule: inout Recipe.PushRule) throws {
        var base = HeaderOverride()
        var mapped: HeaderTables?
        if let t = m["push_type"] {
            let text = try reader.text(t)
            guard let p = PushType(rawValue: text) else { throw fail(t, "must be one of \(PushType.allCases.map(\.rawValue).joined(separator: ", ")), found '\(text)'") }
            base.pushType = p
        }
        if let t = m["topic"] { base.topic = try reader.text(t) }
        if let entry = m["expiration_seconds"] {
            if case .scalar = entry.node, entry.node.int != nil {
                base.expirationSeconds = try reader.int(entry, 0 ... 31_536_000)
            } else if let fromEvent = try perEventHeader(entry, key: "expiration_seconds", event: event, recipient: recipient) {
                rule.expiration = fromEvent
                base.expirationPerPush = true
            } else {
                mapped = try headerTable(entry, nil, \.expirationSeconds, event: event, into: mapped)
            }
        }
        if let entry = m["expiration_at"] {
            if m["expiration_seconds"] != nil { throw fail(entry, "does not go with 'expiration_seconds': give one expiration") }
            try expirationAt(entry, event: event, recipient: recipient, into: &rule)
            base.expirationPerPush = true
        }
        if let entry = m["collapse_id"] {
            if case .scalar = entry.node {
                let text = try reader.text(entry)
                if text.contains("{{") {
                    rule.collapseID = try headerFormat(text, entry, event: event, recipient: recipient)
                    base.collapseIDPerPush = true
                } else {
                    guard text.utf8.count <= 64 else { throw fail(entry, "must be at most 64 bytes (APNs' limit)") }
                    base.collapseID = text
                }
            } else if let fromEvent = try perEventHeader(entry, key: "collapse_id", event: event, recipient: recipient) {
                rule.collapseID = Recipe.HeaderText(parts: [.value(fromEvent)])
                base.collapseIDPerPush = true
            } else {
                mapped = try headerTable(entry, \.collapseID, nil, event: event, into: mapped)
            }
        }
        func apply(_ v: inout HeaderOverride, _ items: [HeaderSetter]) {
            for (sp, ip, value) in items {
                if let sp { v[keyPath: sp] = value.text }
                if let ip, case let .int(n) = value { v[keyPath: ip] = n }
            }
        }
        guard let mapped else { return rule.header = .fixed(index(of: base)) }
        var other = base
        apply(&other, mapped.defaults)
        var table: [String: Int32] = [:]
        for (key, items) in mapped.tables {
            var v = other
            apply(&v, items)
            table[key] = index(of: v)
        }
        rule.header = .mapped(from: mapped.from, table: table, otherwise: index(of: other))
    }

    /// `expiration_at:`: an absolute time (a time, or int seconds since 1970) read once per event.
    private func expirationAt(_ entry: Entry, event: Recipe.EventRule, recipient: Int?, into rule: inout Recipe.PushRule) throws {
        let src = try source(entry, event: event, recipient: recipient)
        try checkPerEvent(src, entry, key: "expiration_at", event: event, recipient: recipient)
        guard isTime(src, recipient: recipient) == true || type(of: src, event: event, recipient: recipient) == .int else {
            throw fail(entry, "must be a time (like \"time + 600\") or int seconds since 1970")
        }
        rule.expiration = src
        rule.expirationAt = true
    }

    /// `{from: FIELD, map: {VALUE: …}, default: …}`: a header set per value, added to the push's other mapped header.
    private mutating func headerTable(_ entry: Entry, _ sp: WritableKeyPath<HeaderOverride, String?>?, _ ip: WritableKeyPath<HeaderOverride, Int?>?,
                                      event: Recipe.EventRule,
                                      into mapped: HeaderTables?) throws -> HeaderTables {
        let mm = try reader.map(entry)
        let from = mm["from"]!, table = mm["map"]!
        let src = try source(from, event: event, recipient: nil)
        var out = mapped ?? (src, from, [:], [])
        if mapped != nil, try reader.text(from) != (try reader.text(out.entry)) {
            throw fail(from, "must map from the same field as the push's other mapped headers ('\(try reader.text(out.entry))')")
        }
        for t in try reader.map(table).entries { out.tables[t.key, default: []].append((sp, ip, try constant(t))) }
        if let d = mm["default"] { out.defaults.append((sp, ip, try constant(d))) }
        return out
    }


    /// `{from: FIELD}` or `{from: FIELD, default: VALUE}` (no `map:`), or for `expiration_seconds` a field's name:
    /// the value read once per event; nil for a table (`map:`).
    mutating func perEventHeader(_ entry: Entry, key: String, event: Recipe.EventRule, recipient: Int?) throws -> Recipe.Source? {
        let isExpiration = key == "expiration_seconds"
        var src: Recipe.Source
        if case .scalar = entry.node {
            src = try source(named: try reader.text(entry), entry, event: event, recipient: recipient)
        } else {
            let mm = try reader.map(entry)
            try reader.check(mm, RecipeForms.headerValue, at: entry)
            if let x = mm["expr"] {
                src = .expression(try expression(try reader.text(x), x, event: event, recipient: recipient))
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
                let value = try constant(d)
                if isExpiration {
                    guard case let .int(n) = value, (0 ... 31_536_000).contains(n) else { throw fail(d, "must be a number of seconds from 0 to 31536000") }
                } else {
                    guard case let .string(t) = value, t.utf8.count <= 64 else { throw fail(d, "must be text of at most 64 bytes (APNs' limit)") }
                }
                src = .orElse(src, value)
            }
        }
        try checkPerEvent(src, entry, key: key, event: event, recipient: recipient)
        if isExpiration, isTime(src, recipient: recipient) == true || (type(of: src, event: event, recipient: recipient).map { $0 != .int } ?? false) {
            throw fail(entry, "must read an int: seconds after the run's start")
        }
        return src
    }

    /// `text` with `{{NAME}}` placeholders, each a value source by name: the collapse id written per event.
    func headerFormat(_ text: String, _ entry: Entry, event: Recipe.EventRule, recipient: Int?) throws -> Recipe.HeaderText {
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
            try checkPerEvent(src, entry, key: "collapse_id", event: event, recipient: recipient)
            parts.append(.value(src))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty {
            literalBytes += rest.utf8.count
            parts.append(.literal(Array(rest.utf8)))
        }
        guard literalBytes <= 64 else { throw fail(entry, "has \(literalBytes) bytes of text around its fields; a collapse id is at most 64 bytes (APNs' limit)") }
        return Recipe.HeaderText(parts: parts)
    }

    /// A header read per event reads the event (its fields, kept entities, time), never the recipient.
    private func checkPerEvent(_ src: Recipe.Source, _ entry: Entry, key: String, event: Recipe.EventRule, recipient: Int?) throws {
        if src.readsRecipient {
            throw fail(entry, "is read once per event, so it cannot read the recipient ('recipient.…', 'recipient.key' or 'activity_timestamp')")
        }
        if let t = type(of: src, event: event, recipient: recipient), t == .ints || t == .strings {
            throw fail(entry, "reads a list (\(t.rawValue)); '\(key)' takes one value")
        }
    }

    mutating func index(of v: HeaderOverride) -> Int32 {
        if let i = variants.firstIndex(of: v) { return Int32(i) }
        variants.append(v)
        return Int32(variants.count - 1)
    }
}
