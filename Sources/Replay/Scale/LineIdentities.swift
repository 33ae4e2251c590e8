import APNsCore

/// The identity values of one recorded line (``Recipe/identityFields``), each with the bytes of the line it
/// sits in: found once per line, then each copy's line is the recorded one with those bytes replaced by the
/// copy's clones, every other byte as recorded.
struct LineIdentities {
    enum Value: Equatable {
        case int(Int)
        case text(String)
        case ints([Int])
        case texts([String])
        /// An API path: the segments (by position after the leading `/`) that are captured ids, each with
        /// whether its field is an integer; the rest of the path (a query too) is kept.
        case path(String, captured: [(segment: Int, integer: Bool)])

        static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case let (.int(x), .int(y)): return x == y
            case let (.text(x), .text(y)): return x == y
            case let (.ints(x), .ints(y)): return x == y
            case let (.texts(x), .texts(y)): return x == y
            case let (.path(x, cx), .path(y, cy)):
                return x == y && cx.map(\.segment) == cy.map(\.segment) && cx.map(\.integer) == cy.map(\.integer)
            default: return false
            }
        }
    }

    /// Bytes `start..<end` of the line hold `value`: a string's content between its quotes, a number's or a
    /// list's whole text.
    struct Span: Equatable {
        var start: Int
        var end: Int
        var value: Value
    }

    /// In line order, none overlapping.
    private(set) var spans: [Span] = []

    /// No identity: the line is written as recorded in every copy.
    init() {}

    /// The identity values of `line`, event `event` of `recipe` (`fields`: that event's identity fields;
    /// `captures`: the matched path's). A field absent from the line, or of a JSON type its rule does not
    /// clone, is left as recorded.
    init(_ line: FlatJSONObject, recipe: Recipe, event: Int, fields: [Int]) {
        let rule = recipe.events[event]
        var captured: [(segment: Int, integer: Bool)] = []
        for i in fields {
            let f = rule.fields[i]
            if let c = f.capture {
                guard case let .request(_, pattern) = rule.match,
                      let position = Self.segment(ofCapture: c, in: pattern) else { continue }
                captured.append((segment: position, integer: f.type == .int))
            } else {
                add(f.path, in: line)
            }
        }
        if !captured.isEmpty, let field = line.optional(recipe.pathField), field.type == .string,
           let path = (try? line.optionalString(recipe.pathField)) ?? nil {
            insert(Span(start: field.valueStart, end: field.valueEnd, value: .path(path, captured: captured)))
        }
        let echoed = Set(spans.flatMap { span -> [String] in
            switch span.value {
            case let .text(s): return [s]
            case let .texts(list): return list
            case .int, .ints, .path: return []
            }
        }.filter { [.hex, .digits].contains(IdentityCloner.rule($0)) })
        if !echoed.isEmpty { addEchoes(of: echoed, in: line) }
    }

    /// Every other string of the line, in any nested object, that equals a cloned token, UUID or long digit
    /// id (an API's response echoing its request's token): cloned alike, so that each copy's line stays
    /// consistent. Values this long and random do not repeat by chance.
    private mutating func addEchoes(of values: Set<String>, in object: FlatJSONObject) {
        for (field, key) in zip(object.fields, object.keys) {
            switch field.type {
            case .string:
                guard let s = (try? object.optionalString(key)) ?? nil, values.contains(s) else { continue }
                insert(Span(start: field.valueStart, end: field.valueEnd, value: .text(s)))
            case .object:
                if let inner = (try? object.nested(key)) ?? nil { addEchoes(of: values, in: inner) }
            case .integer, .number, .boolean, .null, .array:
                continue
            }
        }
    }

    /// The position, among a path's segments, of the pattern's `capture`-th capture.
    private static func segment(ofCapture capture: Int, in pattern: PathPattern) -> Int? {
        var seen = 0
        for (i, s) in pattern.segments.enumerated() {
            guard case .capture = s else { continue }
            if seen == capture { return i }
            seen += 1
        }
        return nil
    }

    private mutating func add(_ path: [String], in line: FlatJSONObject) {
        var object = line
        for key in path.dropLast() {
            guard let inner = (try? object.nested(key)) ?? nil else { return }
            object = inner
        }
        let key = path[path.count - 1]
        guard let field = object.optional(key) else { return }
        let value: Value
        switch field.type {
        case .integer:
            guard !field.overflow else { return }
            value = .int(Int(field.intValue))
        case .string:
            guard let s = (try? object.optionalString(key)) ?? nil else { return }
            value = .text(s)
        case .array:
            if let list = try? object.optionalIntArray(key) {
                value = .ints(list)
            } else if let list = try? object.optionalStringArray(key) {
                value = .texts(list)
            } else {
                return
            }
        case .number, .boolean, .null, .object:
            return
        }
        insert(Span(start: field.valueStart, end: field.valueEnd, value: value))
    }

    /// Keeps the spans in line order; a span read twice (two fields of one key) is kept once.
    private mutating func insert(_ span: Span) {
        let at = spans.firstIndex { $0.start >= span.start } ?? spans.endIndex
        if at < spans.endIndex, spans[at].start == span.start { return }
        spans.insert(span, at: at)
    }

    /// Every value, for ``IdentityRange``.
    func survey(into range: inout IdentityRange) {
        for span in spans {
            switch span.value {
            case let .int(n): range.add(n)
            case let .text(s): range.add(s)
            case let .ints(list): for n in list { range.add(n) }
            case let .texts(list): for s in list { range.add(s) }
            case let .path(path, captured):
                let segments = Self.segments(path).parts
                for c in captured where c.segment < segments.count { range.add(String(segments[c.segment])) }
            }
        }
    }

    /// Copy `copy` of `bytes` (the recorded line), with its newline, appended to `out`.
    func write(_ bytes: ArraySlice<UInt8>, copy: Int, cloner: IdentityCloner, to out: inout [UInt8]) {
        var at = bytes.startIndex
        if copy > 0 {
            for span in spans {
                out.append(contentsOf: bytes[at ..< bytes.startIndex + span.start])
                Self.write(span.value, copy: copy, cloner: cloner, to: &out)
                at = bytes.startIndex + span.end
            }
        }
        out.append(contentsOf: bytes[at...])
        out.append(UInt8(ascii: "\n"))
    }

    private static func write(_ value: Value, copy c: Int, cloner: IdentityCloner, to out: inout [UInt8]) {
        switch value {
        case let .int(n): JSONEscaping.appendDecimal(cloner.int(n, copy: c), to: &out)
        case let .text(s): JSONEscaping.append(cloner.text(s, copy: c), to: &out)
        case let .ints(list):
            out.append(UInt8(ascii: "["))
            for (i, n) in list.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONEscaping.appendDecimal(cloner.int(n, copy: c), to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .texts(list):
            out.append(UInt8(ascii: "["))
            for (i, s) in list.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\""))
                JSONEscaping.append(cloner.text(s, copy: c), to: &out)
                out.append(UInt8(ascii: "\""))
            }
            out.append(UInt8(ascii: "]"))
        case let .path(path, captured):
            let split = segments(path)
            var parts = split.parts
            for cap in captured where cap.segment < parts.count {
                let text = String(parts[cap.segment])
                if cap.integer, let n = Int(text) {
                    parts[cap.segment] = Substring(String(cloner.int(n, copy: c)))
                } else {
                    parts[cap.segment] = Substring(cloner.text(text, copy: c))
                }
            }
            JSONEscaping.append("/" + parts.joined(separator: "/") + split.rest, to: &out)
        }
    }

    /// A logged path's segments after its leading `/`, and what follows them (its query or fragment).
    private static func segments(_ path: String) -> (parts: [Substring], rest: Substring) {
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        let parts = path[..<end].dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return (parts, path[end...])
    }
}
