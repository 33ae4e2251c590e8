import APNsCore
import Foundation

/// Reads a recipe file (the format is in docs/recipes.md) into a ``Recipe``, strictly: every mistake is a
/// ``ProfileError`` naming the file, the line and the key path, and every name (fields, entities, groups,
/// template slots) is resolved here, once.
public enum RecipeLoader {
    /// The keys of a recipe's top level.
    static let topKeys = ["recipe", "description", "time", "request", "events", "broadcast"]
    static let eventKeys = ["match", "fields", "upsert", "create", "update", "remove", "key", "token", "set", "member_of", "subscribe", "push"]
    static let pushKeys = ["to", "template", "push_type", "topic", "priority", "live_activity_event", "expiration_seconds", "collapse_id",
                           "slots", "remember", "after_end"]
    static let fieldKeys = ["type", "from", "one_of", "non_empty", "empty_is_absent", "min"]
    static let methods: Set = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// Reads the recipe at `path`.
    public static func load(path: String) throws -> Recipe {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ProfileError(file: path, line: nil, message: "cannot read the recipe: \(error.localizedDescription)")
        }
        return try load(yaml: text, file: path)
    }

    /// Reads a recipe from its text; `file` names it in errors and anchors its template paths.
    public static func load(yaml: String, file: String) throws -> Recipe {
        let reader = StrictYAML.Reader(file: file) { file, line, path, message in
            ProfileError(file: file, line: line, message: path.isEmpty ? message : "'\(path)' \(message)")
        }
        guard let root = try reader.document(yaml) else { throw ProfileError(file: file, line: nil, message: "the recipe is empty") }
        var builder = Builder(reader: reader, file: file)
        return try builder.build(root)
    }
}

/// What a recipe declares, gathered in two passes: the first finds the entities, the fields kept on them and
/// the groups (so a push can name any of them, whichever event declares it); the second compiles the events.
struct Builder {
    typealias Entry = StrictYAML.Entry
    let reader: StrictYAML.Reader
    let file: String
    var entities: [Recipe.EntityType] = []
    var groups: [String] = []
    /// The entity type each group's members are.
    var groupEntity: [Int] = []
    var variants: [HeaderOverride] = [.init()]
    /// What is known of each kept entity field's values (from the sources that set it): whether a time, and
    /// its type; a field set from sources that disagree is not known.
    var keptKinds: [Int: [Int: (time: Bool?, type: Recipe.FieldType?)]] = [:]

    init(reader: StrictYAML.Reader, file: String) {
        self.reader = reader
        self.file = file
    }

    func fail(_ e: Entry, _ message: String) -> Error { reader.fail(e, message) }

    mutating func build(_ root: Entry) throws -> Recipe {
        let top = try reader.map(root)
        try reader.only(top, RecipeLoader.topKeys)
        guard let nameEntry = top["recipe"] else { throw fail(root, "needs 'recipe: NAME', the workload's name in reports") }
        guard let eventsEntry = top["events"] else { throw fail(root, "needs 'events:', a mapping of event names to their rules") }
        var recipe = Recipe(name: try reader.text(nameEntry), source: file, events: [], entities: [], groups: [], headerVariants: [])
        if let t = top["time"] {
            let m = try reader.map(t)
            try reader.only(m, ["field", "format"])
            if let f = m["field"] { recipe.timeField = try reader.text(f) }
            if let f = m["format"] {
                let text = try reader.text(f)
                guard let format = RecordShape.TimeFormat(rawValue: text) else {
                    throw fail(f, "must be one of \(RecordShape.TimeFormat.allCases.map(\.rawValue).joined(separator: ", ")), found '\(text)'")
                }
                recipe.timeFormat = format
            }
        }
        if let r = top["request"] {
            let m = try reader.map(r)
            try reader.only(m, ["method", "path"])
            if let f = m["method"] { recipe.methodField = try reader.text(f) }
            if let f = m["path"] { recipe.pathField = try reader.text(f) }
        }
        let events = try reader.map(eventsEntry).entries
        guard !events.isEmpty else { throw fail(eventsEntry, "declares no event") }
        // First pass: entities, their kept fields, groups.
        for e in events {
            let m = try reader.map(e)
            try reader.only(m, RecipeLoader.eventKeys)
            if let (_, entity) = try stateOp(m, e) {
                let type = entityIndex(try reader.text(entity))
                if let set = m["set"] { for name in try keptNames(set) { addField(name, to: type) } }
                if let member = m["member_of"] {
                    for g in try reader.map(member).entries {
                        if let i = groups.firstIndex(of: g.key) {
                            guard groupEntity[i] == type else { throw fail(g, "group '\(g.key)' already holds \(entities[groupEntity[i]].name) entities, not \(entities[type].name)") }
                        } else {
                            groups.append(g.key)
                            groupEntity.append(type)
                        }
                    }
                }
            }
        }
        for e in events {
            let m = try reader.map(e)
            if let push = m["push"], let remember = try reader.map(push)["remember"] {
                let to = try reader.map(push)["to"]
                guard let to, let name = try recipientEntityName(to), let type = entities.firstIndex(where: { $0.name == name }) else {
                    throw fail(remember, "needs a recipient entity: 'to' must be {entity: …} or {group: …}")
                }
                for name in try keptNames(remember) { addField(name, to: type) }
            }
        }
        // Second pass: each event compiled.
        var matchFields = Set<String>()
        for e in events {
            let event = try compileEvent(e)
            if case let .value(field, _) = event.match { matchFields.insert(field) }
            recipe.events.append(event)
        }
        guard matchFields.count <= 1 else {
            throw fail(eventsEntry, "match events by one field's value (found \(matchFields.sorted().joined(separator: ", "))); API calls match by method and path")
        }
        recipe.matchField = matchFields.first
        var seen: [String: String] = [:]
        for (entry, event) in zip(events, recipe.events) {
            let key: String
            switch event.match {
            case let .value(_, v): key = "value \(v)"
            case let .request(m, p): key = "\(m) \(p.segments.map { if case let .literal(l) = $0 { return l } else { return ":" } })"
            }
            if let earlier = seen[key] { throw fail(entry, "can never match: event '\(earlier)' before it matches the same lines") }
            seen[key] = event.name
        }
        for (i, event) in recipe.events.enumerated() {
            if let s = event.state?.subscribe { recipe.subscriptions.append((i, s)) }
        }
        if let b = top["broadcast"] {
            let m = try reader.map(b)
            try reader.only(m, ["group"])
            guard let g = m["group"] else { throw fail(b, "needs 'group:', the group whose pushes become broadcasts") }
            let name = try reader.text(g)
            guard let i = groups.firstIndex(of: name) else { throw neverRegistered(g, name) }
            guard !recipe.subscriptions.isEmpty else { throw fail(b, "needs an event with 'subscribe:': which channel each activity joined") }
            recipe.broadcastGroup = i
        }
        recipe.entities = entities
        recipe.groups = groups
        recipe.headerVariants = variants
        return recipe
    }

    func neverRegistered(_ e: Entry, _ name: String) -> Error {
        fail(e, "names group '\(name)', which no event registers members of (with 'member_of'); groups: \(groups.isEmpty ? "none" : groups.joined(separator: ", "))")
    }

    mutating func entityIndex(_ name: String) -> Int {
        if let i = entities.firstIndex(where: { $0.name == name }) { return i }
        entities.append(.init(name: name, fields: []))
        return entities.count - 1
    }

    mutating func addField(_ name: String, to type: Int) {
        if !entities[type].fields.contains(name) { entities[type].fields.append(name) }
    }

    /// The names `set:` or `remember:` keep: a list of names, or a mapping's keys.
    func keptNames(_ e: Entry) throws -> [String] {
        if case .sequence = e.node { return try reader.list(e).map(reader.text) }
        return try reader.map(e).entries.map(\.key)
    }

    /// The event's state change key (`upsert`, `create`, `update`, `remove`) and its entity entry.
    func stateOp(_ m: StrictYAML.Mapping, _ e: Entry) throws -> (Recipe.StateChange.Op, Entry)? {
        let ops: [(String, Recipe.StateChange.Op)] = [("upsert", .upsert), ("create", .create), ("update", .update), ("remove", .remove)]
        let given = ops.compactMap { k, op in m[k].map { (op, $0) } }
        guard given.count <= 1 else { throw fail(e, "changes state once: one of upsert, create, update, remove") }
        if given.isEmpty {
            for k in ["key", "token", "set", "member_of", "subscribe"] where m[k] != nil {
                throw fail(m[k]!, "goes with upsert, create or update: name the entity it changes")
            }
        }
        return given.first
    }

    func recipientEntityName(_ to: Entry) throws -> String? {
        let m = try reader.map(to)
        if let e = m["entity"] { return try reader.text(e) }
        if let g = m["group"] {
            let name = try reader.text(g)
            guard let i = groups.firstIndex(of: name) else { return nil }
            return entities[groupEntity[i]].name
        }
        return nil
    }
}
