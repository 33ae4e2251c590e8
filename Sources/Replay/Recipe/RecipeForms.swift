import APNsCore
import YAMLReading

/// A mapping form of a recipe (a push rule, its `to`, a value source, a `when` test, a field's rule …): the
/// keys it takes and which go together. Every mapping the loader reads is checked against its form's one
/// declaration here (``RecipeForms``) before it is read, so a key the form does not take, a key without the
/// one it goes with, or an empty mapping is an error naming the file, the line and the key, whatever the
/// code that reads the mapping looks at.
struct RecipeForm {
    /// One of the form's alternatives: the key that chooses it (nil: the form's kind when no lead key is
    /// given), the keys it takes (the lead's included), and the keys it needs, each with what it is.
    struct Kind {
        let lead: String?
        let keys: [String]
        let needs: [(key: String, what: String)]
    }

    /// How messages call the form: `a push rule`, `'to'`.
    let name: String
    let kinds: [Kind]
    /// What the form may be, for a message about an empty or a lead-less mapping.
    let shape: String
    /// Keys that contradict each other, with why: at most one of each pair may be given.
    var apart: [(String, String, why: String)] = []

    /// A form with one kind: these keys, these needed, these never together.
    init(_ name: String, keys: [String], needs: [(String, String)] = [], apart: [(String, String, why: String)] = [], shape: String) {
        self.name = name
        self.kinds = [Kind(lead: nil, keys: keys, needs: needs.map { (key: $0.0, what: $0.1) })]
        self.shape = shape
        self.apart = apart
    }

    /// A form with alternatives, each chosen by its lead key (or, for the one with a nil lead, by none).
    init(_ name: String, kinds: [Kind], shape: String) {
        self.name = name
        self.kinds = kinds
        self.shape = shape
    }

    /// Every key the form takes in any kind.
    var keys: [String] {
        var all: [String] = []
        for kind in kinds { for k in kind.keys where !all.contains(k) { all.append(k) } }
        return all
    }

    static func kind(_ lead: String?, _ keys: [String], needs: [(String, String)] = []) -> Kind {
        Kind(lead: lead, keys: keys, needs: needs.map { (key: $0.0, what: $0.1) })
    }
}

/// The one declaration of each mapping form a recipe has. To add a key, add it to its form here: the check
/// (``StrictYAML/Reader/check(_:_:at:)``) then takes it, and the loader's code for the form reads it.
enum RecipeForms {
    static let recipe = RecipeForm("a recipe", keys: ["recipe", "description", "time", "request", "let", "events", "broadcast"],
                                   needs: [("events", "a mapping of event names to their rules")],
                                   shape: "recipe: NAME, events: {…}")
    static let time = RecipeForm("'time'", keys: ["field", "format"], shape: "{field: at, format: iso8601}")
    static let request = RecipeForm("'request'", keys: ["method", "path"], shape: "{method: FIELD, path: FIELD}")
    static let broadcast = RecipeForm("'broadcast'", keys: ["group"], needs: [("group", "the group whose pushes become broadcasts")],
                                      shape: "{group: GROUP}")
    static let event = RecipeForm("an event", keys: ["match", "fields", "let", "upsert", "create", "update", "remove", "key", "token", "set",
                                                      "member_of", "join", "leave", "subscribe", "push", "require"],
                                  shape: "{match: …, fields: {…}, push: {…}}")
    /// A field's rule written as a mapping (`{type: int?, one_of: [5, 10]}`).
    static let field = RecipeForm("a field's rule", keys: ["type", "from", "nullable", "one_of", "non_empty", "empty_is_absent", "min"],
                                  needs: [("type", "(string, int, number, bool, token, [int], [string])")],
                                  apart: [("non_empty", "empty_is_absent", why: "an empty value cannot be both a bad line and absent")],
                                  shape: "{type: T, from: PATH, one_of: […], …}")
    /// A push rule's keys: those named here, then each header row's a recipe sets (any source but the profile) not named.
    private static let pushKeys: [String] = {
        let named = ["name", "when", "to", "template", "push_type", "topic", "priority", "live_activity_event",
                     "expiration", "expiration_seconds", "expiration_at", "collapse_id", "slots", "remember", "after_end"]
        return named + APNsHeaders.all.filter { $0.sources.contains { $0 != .profile } }.map(\.key).filter { !named.contains($0) }
    }()
    static let push = RecipeForm("a push rule", keys: pushKeys,
                                 needs: [("to", "{token: FIELD}, {entity: E, key: FIELD} or {group: G, key: FIELD}"),
                                         ("template", "the payload template file (relative to the recipe)")],
                                 shape: "{to: {…}, template: FILE, …}")
    /// A push's recipients.
    static let to = RecipeForm("'to'", kinds: [
        RecipeForm.kind("token", ["token"]),
        RecipeForm.kind("entity", ["entity", "key"], needs: [("key", "the field that names the recipient")]),
        RecipeForm.kind("group", ["group", "key", "if_absent", "where"], needs: [("key", "the field that names the recipient")]),
        RecipeForm.kind("groups", ["groups", "where"]),
    ], shape: "{token: FIELD}, {entity: E, key: FIELD}, {group: G, key: FIELD, where: EXPRESSION} or {groups: [{group: G, key: FIELD}, …]}")
    /// One item of `to: {groups: […]}`: a group key whose members the push reaches.
    static let groupTarget = RecipeForm("a group target", keys: ["group", "key", "if_absent"],
                                        needs: [("group", "the group whose members the push reaches"), ("key", "the field that names the group key")],
                                        shape: "{group: G, key: FIELD}")
    /// A value source written as a mapping.
    static let source = RecipeForm("a value source", kinds: [
        RecipeForm.kind("from", ["from", "map", "default", "absent"]),
        RecipeForm.kind("via", ["via", "default", "absent"]),
        RecipeForm.kind("const", ["const"]),
        RecipeForm.kind("join", ["join", "separator", "if_empty"]),
        RecipeForm.kind("expr", ["expr", "default", "absent"]),
    ], shape: "a field name, an expression, or {expr: …}, {const: …}, {from: …, map: …, default: …}, {via: [FIELD, ENTITY.FIELD, …]} or {join: […]}")
    /// A kept list's edit in `set:` (`riders: {add: rider_id}`).
    static let listEdit = RecipeForm("a list edit", kinds: [
        RecipeForm.kind("add", ["add"]),
        RecipeForm.kind("remove", ["remove"]),
    ], shape: "{add: VALUE} or {remove: VALUE}")
    /// `priority: {from, map, default}`.
    static let priority = RecipeForm("'priority'", kinds: [
        RecipeForm.kind("from", ["from", "map", "default"], needs: [("map", "a table of values to priorities, {VALUE: 10}")]),
        RecipeForm.kind("expr", ["expr"]),
    ], shape: "a number, a field, an expression, {expr: …} or {from: FIELD, map: {VALUE: 10}, default: 5}")
    /// `expiration_seconds` or `collapse_id` as a mapping: read per event, or a table of values.
    static let headerValue = RecipeForm("a header value", kinds: [
        RecipeForm.kind("from", ["from", "map", "default"]),
        RecipeForm.kind("expr", ["expr"]),
    ], shape: "{from: FIELD, default: VALUE}, {from: FIELD, map: {VALUE: …}, default: …} or {expr: …}")
    /// One field's tests in `when:` (`status: {one_of: [a, b]}`): `present`/`absent` alone, else value tests.
    static let test = RecipeForm("a test", kinds: [
        RecipeForm.kind("present", ["present"]),
        RecipeForm.kind("absent", ["absent"]),
        RecipeForm.kind(nil, ["equals", "one_of", "not"] + Recipe.Comparison.allCases.map(\.rawValue)),
    ], shape: "{equals: V}, {one_of: […]}, {not: V}, {present: true}, {absent: true}, or gt/ge/lt/le: N")
}

extension StrictYAML.Reader {
    /// Checks `m` (the mapping at `e`) against `form`: not empty; every key one the form takes (with the
    /// closest as "did you mean"); at most one lead key, every other key one its kind takes, and every key
    /// its kind needs given. Returns the kind.
    @discardableResult
    func check(_ m: StrictYAML.Mapping, _ form: RecipeForm, at e: StrictYAML.Entry) throws -> RecipeForm.Kind {
        guard !m.entries.isEmpty else { throw fail(e, "is empty: \(form.name) is \(form.shape)") }
        let all = form.keys
        for entry in m.entries where !all.contains(entry.key) {
            throw fail(entry, "is not a known key (known: \(all.joined(separator: ", ")))\(NameSuggestion.phrase(for: entry.key, among: all))")
        }
        let leads = m.entries.filter { entry in form.kinds.contains { $0.lead == entry.key } }
        if leads.count > 1 { throw fail(leads[1], "does not go with '\(leads[0].key)': \(form.name) is \(form.shape)") }
        guard let kind = form.kinds.first(where: { $0.lead == leads.first?.key }) else {
            throw fail(e, "must be \(form.shape)")
        }
        for entry in m.entries where !kind.keys.contains(entry.key) {
            let chosen = kind.lead.map { "'\($0)'" } ?? form.kinds.compactMap(\.lead).map { "'\($0)'" }.joined(separator: " or ")
            throw fail(entry, "does not go with \(kind.lead == nil ? "the other keys" : chosen): \(form.name) is \(form.shape)")
        }
        for (a, b, why) in form.apart where m[a] != nil && m[b] != nil {
            throw fail(m[b]!, "does not go with '\(a)': \(why)")
        }
        for need in kind.needs where m[need.key] == nil {
            throw fail(e, "needs '\(need.key):', \(need.what)")
        }
        return kind
    }
}
