import APNsCore

extension RecordingSurvey {
    /// Adds one line to its event (made when it is the first of its method and path pattern, or kind value).
    mutating func add(_ o: FlatJSONObject, line: Int, byMatch: inout [String: Int]) throws {
        let group = try self.group(o, line: line)
        let e: Int
        if let i = byMatch[group.match] {
            e = i
        } else {
            var name = group.name
            var n = 2
            while events.contains(where: { $0.name == name }) { name = "\(group.name)\(n)"; n += 1 }
            events.append(Event(match: group.match, name: name, captures: group.captures, firstLine: line))
            e = events.count - 1
            byMatch[group.match] = e
        }
        events[e].lines += 1
        for (name, value) in zip(group.captures, group.values) {
            events[e].note("path.\(name)") { f in
                f.present += 1
                if value.allSatisfy(\.isNumber) { f.integers += 1 } else { f.strings += 1; f.allTokens = false; f.allTimes = false }
                f.note(value)
            }
        }
        try events[e].survey(o, prefix: "", skip: skipped, depth: 0)
    }

    /// The line keys that are not fields: how a line is matched, and its time.
    private var skipped: Set<String> {
        switch form {
        case .api: return Self.apiKeys.union([timeField, "response.status"])
        case let .kind(field): return [field, timeField]
        }
    }

    /// The line's event: its match, a name, and the path's captures with their values.
    private func group(_ o: FlatJSONObject, line: Int) throws -> (match: String, name: String, captures: [String], values: [String]) {
        switch form {
        case let .kind(field):
            let value = try o.optionalString(field) ?? ""
            return (value, value.isEmpty ? "event" : value, [], [])
        case .api:
            guard let method = try o.optionalString("method"), let full = try o.optionalString("path") else {
                throw ProfileError(file: path, line: line, message: "an API call needs a string 'method' and 'path'")
            }
            let route = full.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            var pattern: [String] = [], literals: [String] = [], captures: [String] = [], values: [String] = []
            let segments = route.split(separator: "/").map(String.init)
            for (i, segment) in segments.enumerated() {
                if Self.isIdentifier(segment) || slugs.contains(Self.slugKey(method, segments, i)) {
                    var name = Self.captureName(after: literals.last)
                    if captures.contains(name) { name += String(captures.count + 1) }
                    captures.append(name)
                    values.append(segment)
                    pattern.append(":" + name)
                } else {
                    literals.append(segment)
                    pattern.append(segment)
                }
            }
            let name = (literals.filter { $0 != "api" && !Self.isVersion($0) } + [method.lowercased()]).joined(separator: ".")
            return ("\(method) /\(pattern.joined(separator: "/"))", name, captures, values)
        }
    }

    /// How many values a literal segment takes, on lines otherwise alike, to be a capture (a slug).
    static let slugMinimum = 3

    /// The routes (``slugKey(_:_:_:)``) whose literal segment takes ``slugMinimum`` or more values across the
    /// lines: a segment after a collection's name (not the first, not after an id, a version or `api`), such as
    /// `sakura-sushi` in `/v1/restaurants/sakura-sushi/staff`. One value, or two, stays a literal.
    static func slugRoutes(_ objects: [FlatJSONObject]) -> Set<String> {
        var values: [String: Set<String>] = [:]
        for o in objects {
            guard let method = (try? o.optionalString("method")) ?? nil, let full = (try? o.optionalString("path")) ?? nil else { continue }
            let route = full.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let segments = route.split(separator: "/").map(String.init)
            for i in segments.indices.dropFirst() where !isIdentifier(segments[i]) {
                let before = segments[i - 1]
                guard !isIdentifier(before), !isVersion(before), before != "api" else { continue }
                values[slugKey(method, segments, i), default: []].insert(segments[i])
            }
        }
        return Set(values.filter { $0.value.count >= slugMinimum }.keys)
    }

    /// The method and the path with segment `i` as `*` and ids as `:`.
    static func slugKey(_ method: String, _ segments: [String], _ i: Int) -> String {
        method + " " + segments.enumerated().map { $0.offset == i ? "*" : (isIdentifier($0.element) ? ":" : $0.element) }.joined(separator: "/")
    }

    /// A path segment that names one thing rather than a route: a number, a UUID, hex, or any segment
    /// with a digit (`P048100`, `inst-d70820fe`) other than an API version (`v2`).
    static func isIdentifier(_ s: String) -> Bool {
        !isVersion(s) && s.contains(where: \.isNumber)
    }

    static func isVersion(_ s: String) -> Bool {
        s.count >= 2 && s.first == "v" && s.dropFirst().allSatisfy(\.isNumber)
    }

    /// `parcels` → `parcelId`, `leave-requests` → `leaveRequestId`; `id` with nothing before it.
    static func captureName(after literal: String?) -> String {
        guard let literal, !literal.isEmpty else { return "id" }
        var words = literal.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        if var last = words.popLast() {
            if last.hasSuffix("ies") { last = String(last.dropLast(3)) + "y" } else if last.hasSuffix("s") { last.removeLast() }
            words.append(last)
        }
        let camel = words.enumerated().map { $0.offset == 0 ? $0.element.lowercased() : $0.element.capitalized }.joined()
        return camel.isEmpty ? "id" : camel + "Id"
    }
}

extension RecordingSurvey.Event {
    /// The field at `path`, made when first seen.
    mutating func note(_ path: String, _ change: (inout FieldSurvey) -> Void) {
        if fields[path] == nil {
            fields[path] = FieldSurvey()
            order.append(path)
        }
        change(&fields[path]!)
    }

    /// Every field of `o` (nested objects by their path, up to three deep), but those in `skip`.
    mutating func survey(_ o: FlatJSONObject, prefix: String, skip: Set<String>, depth: Int) throws {
        for key in o.keys {
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            guard !skip.contains(path), !key.contains("."), !key.isEmpty else { continue }
            guard let type = o.valueType(key) else { continue }
            if type == .object, depth < 3, let inner = try o.nested(key) {
                try survey(inner, prefix: path, skip: skip, depth: depth + 1)
                continue
            }
            note(path) { $0.record(o, key, type) }
        }
    }
}

extension FieldSurvey {
    /// Counts one line's value of `key` in `o`, of JSON type `type`.
    mutating func record(_ o: FlatJSONObject, _ key: String, _ type: FlatJSON.ValueType) {
        present += 1
        switch type {
        case .null: nulls += 1
        case .string:
            let s = (try? o.optionalString(key)) ?? ""
            if s.isEmpty { empties += 1; return }
            strings += 1
            allTokens = allTokens && DeviceToken.isValid(s)
            allTimes = allTimes && Timestamp.parse(s) != nil
            note(s)
        case .integer:
            guard let n = try? o.optionalInt(key) else { other += 1; return }
            integers += 1
            note(String(n))
        case .number: numbers += 1
        case .boolean: booleans += 1
        case .array:
            if (try? o.optionalIntArray(key)) != nil { intLists += 1 } else if (try? o.optionalStringArray(key)) != nil { stringLists += 1 } else { other += 1 }
        case .object: other += 1
        }
    }
}
