import APNsCore
import Foundation
import YAMLReading

/// Reads a recipe file (the format is in docs/recipes.md) into a ``Recipe``, strictly: every mistake is a
/// ``ProfileError`` naming the file, the line and the key path, and every name (fields, entities, groups,
/// template slots) is resolved here, once.
public enum RecipeLoader {
    static let methods: Set = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// Reads the recipe at `path`: a recipe file, or a recipe written in a profile (``inlinePath(_:key:)``).
    public static func load(path: String) throws -> Recipe {
        let (file, key) = split(path)
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
            throw ProfileError(file: file, line: nil, message: "cannot read the recipe: \(error.localizedDescription)")
        }
        let recipe = try key.map { try load(yaml: text, file: file, inlineAt: $0) } ?? load(yaml: text, file: file)
        for line in recipe.deprecations { DeprecationNotice.say(line) }
        return recipe
    }

    /// How a profile names the recipe written in it, at `key` (`recipe`, `mix[1].recipe`): `PROFILE#KEY`.
    public static func inlinePath(_ profile: String, key: String) -> String { "\(profile)#\(key)" }

    /// A recipe path's file and, for a recipe written in a profile, its key there.
    public static func split(_ path: String) -> (file: String, key: String?) {
        guard let hash = path.lastIndex(of: "#") else { return (path, nil) }
        let key = String(path[path.index(after: hash)...])
        guard key == "recipe" || (key.hasPrefix("mix[") && key.hasSuffix("].recipe")) else { return (path, nil) }
        return (String(path[..<hash]), key)
    }

    /// The recipe written in the profile `yaml` at `key`; its name defaults to the profile's `name`, and its
    /// templates are found beside the profile.
    static func load(yaml: String, file: String, inlineAt key: String) throws -> Recipe {
        let reader = StrictYAML.Reader(file: file) { file, line, path, message in
            ProfileError(file: file, line: line, message: path.isEmpty ? message : "'\(path)' \(message)")
        }
        guard var entry = try reader.document(yaml) else { throw ProfileError(file: file, line: nil, message: "the profile is empty") }
        let profileName = try reader.map(entry)["name"].map(reader.text)
        for part in key.split(separator: ".") {
            let name = part.prefix { $0 != "[" }
            guard let next = try reader.map(entry)[String(name)] else { throw reader.fail(entry, "has no '\(name)'") }
            entry = next
            if let open = part.firstIndex(of: "["), let i = Int(part[part.index(after: open)...].dropLast()) {
                let items = try reader.list(entry)
                guard items.indices.contains(i) else { throw reader.fail(entry, "has no item \(i)") }
                entry = items[i]
            }
        }
        var builder = Builder(reader: reader, file: file)
        return try builder.build(entry, defaultName: profileName)
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
    var pushKinds: [HeaderConstants] = [.init()]
    /// What is known of each kept entity field's values (from the sources that set it): whether a time, and
    /// its type; a field set from sources that disagree is not known.
    var keptKinds: [Int: [Int: (time: Bool?, type: Recipe.FieldType?)]] = [:]
    /// Per entity type, the names of the event fields that key it (`key:`), for `ENTITY.FIELD` sources.
    var keyNames: [Int: [String]] = [:]
    /// The groups kept by `join:` and `leave:`.
    var joinedGroups: Set<Int> = []
    /// The recipe's and the current event's named expressions (`let:`).
    let lets = RecipeLets()
    /// One line for each key given by its former name, naming the key to write instead.
    var deprecations: [String] = []

    init(reader: StrictYAML.Reader, file: String) {
        self.reader = reader
        self.file = file
    }

    func fail(_ e: Entry, _ message: String) -> Error { reader.fail(e, message) }

    /// - Parameter defaultName: the name of a recipe written in a profile without `recipe:` (the profile's).
    mutating func build(_ root: Entry, defaultName: String? = nil) throws -> Recipe {
        let top = try reader.map(root)
        try reader.check(top, RecipeForms.recipe, at: root)
        guard let name = try top["recipe"].map(reader.text) ?? defaultName else { throw fail(root, "needs 'recipe: NAME', the workload's name in reports") }
        let eventsEntry = top["events"]!
        var recipe = Recipe(name: name, source: file, events: [], entities: [], groups: [], pushKinds: [])
        try readLineShape(top, into: &recipe)
        let events = try reader.map(eventsEntry).entries
        guard !events.isEmpty else { throw fail(eventsEntry, "declares no event") }
        try gatherState(events)
        if let l = top["let"] { lets.recipeLevel = try readLets(l, event: nil) }
        // Second pass: each event compiled.
        var matchFields = Set<String>()
        for e in events {
            let event = try compileEvent(e)
            if case let .value(field, _) = event.match { matchFields.insert(field) }
            recipe.events.append(event)
        }
        guard matchFields.count <= 1 else {
            throw fail(eventsEntry, "match events by one field's value (found \(matchFields.sorted().joined(separator: ", "))); "
                + "API calls match by method and path")
        }
        recipe.matchField = matchFields.first
        try endRecipeLets(recipe.events)
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
            try reader.check(m, RecipeForms.broadcast, at: b)
            let g = m["group"]!
            let name = try reader.text(g)
            guard let i = groups.firstIndex(of: name) else { throw neverRegistered(g, name) }
            guard !recipe.subscriptions.isEmpty else { throw fail(b, "needs an event with 'subscribe:': which channel each activity joined") }
            recipe.broadcastGroup = i
            try refuseFilteredBroadcast(recipe, b)
        }
        Self.numberRules(&recipe)
        recipe.entities = entities
        recipe.groups = groups
        recipe.pushKinds = pushKinds
        recipe.joinedGroups = joinedGroups
        recipe.letCount = lets.slots
        recipe.deprecations = deprecations
        return recipe
    }

    /// `time:` (the time field and its format) and `request:` (the method and path fields of an API call).
    func readLineShape(_ top: StrictYAML.Mapping, into recipe: inout Recipe) throws {
        if let t = top["time"] {
            let m = try reader.map(t)
            try reader.check(m, RecipeForms.time, at: t)
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
            try reader.check(m, RecipeForms.request, at: r)
            if let f = m["method"] { recipe.methodField = try reader.text(f) }
            if let f = m["path"] { recipe.pathField = try reader.text(f) }
        }
    }

    /// The first pass: the entities, the fields kept on them, their key fields and the groups, so that a push
    /// can name any of them, whichever event declares it.
    mutating func gatherState(_ events: [Entry]) throws {
        for e in events {
            let m = try reader.map(e)
            try reader.check(m, RecipeForms.event, at: e)
            if let (_, entity) = try stateOp(m, e) {
                let type = entityIndex(try reader.text(entity))
                if let k = m["key"], case .scalar = k.node {
                    let name = try reader.text(k)
                    if !keyNames[type, default: []].contains(name) { keyNames[type, default: []].append(name) }
                }
                if let set = m["set"] { for name in try keptNames(set) { addField(name, to: type) } }
                if let j = m["join"] { try registerJoined(try reader.map(j).entries, entity: type) }
                if let member = m["member_of"] {
                    for g in try reader.map(member).entries {
                        if let i = groups.firstIndex(of: g.key) {
                            guard groupEntity[i] == type else { throw fail(g, "group '\(g.key)' already holds \(entities[groupEntity[i]].name) entities, "
                                + "not \(entities[type].name)") }
                        } else {
                            groups.append(g.key)
                            groupEntity.append(type)
                        }
                    }
                }
            }
        }
        try refuseGroupsKeptBothWays(events)
        for e in events {
            for push in try pushEntries(try reader.map(e)) {
                guard let remember = try reader.map(push)["remember"] else { continue }
                let to = try reader.map(push)["to"]
                guard let to, let name = try recipientEntityName(to), let type = entities.firstIndex(where: { $0.name == name }) else {
                    throw fail(remember, "needs a recipient entity: 'to' must be {entity: …} or {group: …}")
                }
                for name in try keptNames(remember) { addField(name, to: type) }
            }
        }
    }

    /// Gives each push rule its place among all of the recipe's (``Recipe/PushRule/index``).
    static func numberRules(_ recipe: inout Recipe) {
        var next = 0
        for e in recipe.events.indices {
            for r in recipe.events[e].pushes.indices {
                recipe.events[e].pushes[r].index = next
                next += 1
            }
        }
    }

    func neverRegistered(_ e: Entry, _ name: String) -> Error {
        fail(e, "names group '\(name)', which no event registers members of (with 'member_of'); "
            + "groups: \(groups.isEmpty ? "none" : groups.joined(separator: ", "))")
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
        let names = try { () throws -> [String] in
            if case .sequence = e.node { return try reader.list(e).map(reader.text) }
            return try reader.map(e).entries.map(\.key)
        }()
        guard !names.isEmpty else { throw fail(e, "keeps nothing: name the fields to keep, or leave '\(e.key)' out") }
        return names
    }

    /// The event's state change key (`upsert`, `create`, `update`, `remove`) and its entity entry.
    func stateOp(_ m: StrictYAML.Mapping, _ e: Entry) throws -> (Recipe.StateChange.Op, Entry)? {
        let ops: [(String, Recipe.StateChange.Op)] = [("upsert", .upsert), ("create", .create), ("update", .update), ("remove", .remove)]
        let given = ops.compactMap { k, op in m[k].map { (op, $0) } }
        guard given.count <= 1 else { throw fail(e, "changes state once: one of upsert, create, update, remove") }
        if given.isEmpty {
            for k in ["key", "token", "set", "member_of", "join", "leave", "subscribe"] where m[k] != nil {
                throw fail(m[k]!, "goes with upsert, create or update: name the entity it changes")
            }
        }
        return given.first
    }

    /// An event's push rules as written: `push:` is one rule (a mapping) or a list of them.
    func pushEntries(_ m: StrictYAML.Mapping) throws -> [Entry] {
        guard let p = m["push"] else { return [] }
        if case .sequence = p.node {
            let items = try reader.list(p)
            guard !items.isEmpty else { throw fail(p, "lists no push rule (leave 'push:' out for an event that plans none)") }
            return items
        }
        return [p]
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
