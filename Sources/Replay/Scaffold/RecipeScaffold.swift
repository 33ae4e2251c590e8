/// A recipe skeleton written from a ``RecordingSurvey``: one event per method and path pattern (or kind
/// value), each with every field its lines carry, typed so that every line of the recording reads, and its
/// push rule left as a commented example. `apnsbench plan` accepts it as written.
public enum RecipeScaffold {
    /// One field as the skeleton declares it: its name, its type (with `?` when optional), where it is read
    /// from, whether it may be null while present, and what its values look like.
    struct Field {
        var name: String
        var type: String
        var from: String
        var nullable = false
        var note: String
        /// The values every line has, when they are a few, each on many lines.
        var oneOf: [String]?
    }

    /// The skeleton's text; `name` is the recipe's name.
    public static func yaml(_ survey: RecordingSurvey, name: String) -> String {
        var out = """
            # A recipe skeleton written by `apnsbench recipe init` from \(survey.path): \(survey.lines) lines, \
            \(survey.events.count) events.
            # Every line of the recording matches one event below, and each event reads its fields, typed as its
            # lines have them (`?`: absent or null on some lines; `nullable`: always there, sometimes null).
            # Next: the state the backend keeps (upsert, create, update or remove an entity by `key:`, its
            # `token:`, the groups it is a `member_of`), and the pushes each event plans: each event's commented
            # `push:` is an example to fill in (docs/recipes.md is the reference).
            recipe: \(quoted(name))
            time: {field: \(quoted(survey.timeField)), format: \(survey.timeFormat.rawValue)}
            events:

            """
        let api = survey.form == .api
        let tokens = TokenKeys(survey.events.map { fields($0, api: api) }, names: survey.events.map(\.name))
        for event in survey.events { out += self.event(event, form: survey.form, tokens: tokens) }
        return out
    }

    private static func event(_ e: RecordingSurvey.Event, form: RecordingSurvey.Form, tokens: TokenKeys) -> String {
        let fields = self.fields(e, api: form == .api)
        var out = "  \(quoted(e.name)):\(pad(e.name.count + 3, to: 40))# \(e.lines) line\(e.lines == 1 ? "" : "s"), the first line \(e.firstLine)\n"
        switch form {
        case .api: out += "    match: \(quotedAlways(e.match))\n"
        case let .kind(field): out += "    match: {\(quoted(field)): \(quotedAlways(e.match))}\n"
        }
        if !fields.isEmpty { out += "    fields:\n" }
        for f in fields {
            var spec = f.from == f.name && !f.nullable && f.oneOf == nil ? quoted(f.type) : "{type: \(quoted(f.type))"
            if spec.hasPrefix("{") {
                if f.from != f.name { spec += ", from: \(f.from)" }
                if f.nullable { spec += ", nullable: true" }
                if let values = f.oneOf { spec += ", one_of: [\(values.map { f.type.hasPrefix("int") ? $0 : quoted($0) }.joined(separator: ", "))]" }
                spec += "}"
            }
            let line = "      \(quoted(f.name)): \(spec)"
            out += line + (f.note.isEmpty ? "" : "\(pad(line.count, to: 72))# \(f.note)") + "\n"
        }
        out += pushExample(e, fields: fields, tokens: tokens)
        return out
    }

    /// The commented push rule under each event whose recipient has a token: one on the event, or one an event
    /// keeps on the entity it names by an id field; else a line saying why none is suggested.
    private static func pushExample(_ e: RecordingSurvey.Event, fields: [Field], tokens: TokenKeys) -> String {
        let to: String
        if let token = fields.first(where: { $0.type.hasPrefix("token") }) {
            to = "{token: \(token.name)}"
        } else if let (key, keeper) = tokens.keeper(of: fields, besides: e.name) {
            to = "{entity: \(TokenKeys.entity(key.name)), key: \(key.name)}    # its token: "
                + "upsert: \(TokenKeys.entity(key.name)), key: \(key.name), token: … on \(keeper)"
        } else {
            return "    # no push suggested: no field of this event is a device token, and no event with one names it by an id field\n"
        }
        let when = fields.first { $0.oneOf != nil }.map { "{\($0.name): \($0.type.hasPrefix("int") ? $0.oneOf![0] : quoted($0.oneOf![0]))}" }
        return """
                # push:                       # what this event sends, if anything: fill in and uncomment
                #   to: \(to)
                #   template: templates/\(e.name).json
                #   when: \(when ?? "{FIELD: VALUE}")        # optional: only when it holds

            """
    }

    static func quoted(_ s: String) -> String {
        let plain = !s.isEmpty && s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." || $0 == "?" }
            && !(s.first!.isNumber || s.first == "-" || s.first == "?" || s.first == ".")
            && !["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"].contains(s.lowercased())
        return plain ? s : quotedAlways(s)
    }

    static func quotedAlways(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func pad(_ used: Int, to column: Int) -> String {
        String(repeating: " ", count: max(1, column - used))
    }
}

/// The id fields of the events that carry a device token: an event without a token reaches a recipient with one
/// through such a field (the entity that event keeps, with its token).
struct TokenKeys {
    /// By id field name: the first event that has it beside a token.
    private var keepers: [String: String] = [:]

    init(_ fields: [[RecipeScaffold.Field]], names: [String]) {
        for (event, list) in zip(names, fields) where list.contains(where: { $0.type.hasPrefix("token") }) {
            for f in list where f.note == "id" && keepers[f.name] == nil { keepers[f.name] = event }
        }
    }

    /// The first of `fields` that names an entity kept with a token by an event other than `event`, and that event.
    func keeper(of fields: [RecipeScaffold.Field], besides event: String) -> (RecipeScaffold.Field, String)? {
        for f in fields where f.note == "id" {
            if let keeper = keepers[f.name], keeper != event { return (f, keeper) }
        }
        return nil
    }

    /// `installation_id` → `installation`; `id` → `entity`.
    static func entity(_ key: String) -> String {
        for suffix in ["_ids", "_id", "Id"] where key.hasSuffix(suffix) && key.count > suffix.count { return String(key.dropLast(suffix.count)) }
        return "entity"
    }
}

extension RecipeScaffold {
    /// The skeleton of the recording at `path`, named `name` (default: the recording's file name without its
    /// extension).
    public static func scaffold(recording path: String, name: String? = nil) throws -> String {
        let survey = try RecordingSurvey.read(path: path)
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let base = file.split(separator: ".").first.map(String.init) ?? file
        return yaml(survey, name: name ?? base)
    }
}
