import YAMLReading

/// Expressions in a recipe: compiled when the recipe is loaded, against the event's typed fields, the fields
/// kept on entities, the recipient's, and the event's time. A mistake names the file, the line, the key and
/// the column in the expression.
extension Builder {
    /// Whether a scalar is a plain name or path of names (`status`, `parcel.carrier`, `recipient.key`): a value
    /// source as before. Anything else written where a value source goes is an expression.
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.first, first.isLetter || first == "_" else { return false }
            return part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !["true", "false", "null"].contains(part)
        }
    }

    /// Compiles `text`, written at `e`. `recipient`: the entity type `recipient.…` reads (nil: none);
    /// `expecting`: the type the key wants, which an empty list `[]` takes when nothing else gives it one;
    /// `bound`: names that read a given source (sugar's, for a value no name reads, like `{via: …}`'s).
    func expression(_ text: String, _ e: Entry, event: Recipe.EventRule, recipient: Int?, liveEvent: Bool = false,
                    inCondition: Bool = false, expecting: ExprType? = nil, bound: [String: Recipe.Source] = [:]) throws -> RecipeExpression {
        let names = RecipeExprNames(builder: self, entry: e, event: event, recipient: recipient, liveEvent: liveEvent)
        names.inCondition = inCondition
        names.bound = bound
        do {
            let compiled = try CompiledExpr.compile(text, names: names, expecting: expecting)
            return RecipeExpression(compiled: compiled, inputs: names.inputs, key: e.path)
        } catch let error as ExprError {
            throw fail(e, "column \(error.column): \(error.message), in \"\(Self.shown(text))\"")
        }
    }

    /// An expression as a message quotes it: a long one by its start and its length.
    static func shown(_ text: String) -> String {
        text.count <= 200 ? text : "\(text.prefix(60))… (\(text.count) characters)"
    }

    /// An expression that must be a bool (`when:`, `where:`); `what` names the key in messages.
    func condition(_ text: String, _ e: Entry, event: Recipe.EventRule, recipient: Int?, what: String) throws -> RecipeExpression {
        let x = try expression(text, e, event: event, recipient: recipient, inCondition: recipient == nil)
        guard x.compiled.type == .bool || x.compiled.type == .dyn else {
            throw fail(e, "column 1: \(what) must be a bool (true or false), found \(x.compiled.type), in \"\(text)\"")
        }
        return x
    }

    /// A broadcast reaches every subscriber of a channel: a push rule to the broadcast group cannot filter them.
    func refuseFilteredBroadcast(_ recipe: Recipe, _ b: Entry) throws {
        for event in recipe.events {
            for rule in event.pushes where rule.recipientFilter != nil {
                if case let .group(g, _, _) = rule.to, g == recipe.broadcastGroup {
                    throw fail(b, "makes group '\(groups[g])' a broadcast, which reaches every subscriber of a channel, "
                        + "but push rule '\(rule.name ?? "1")' of event '\(event.name)' filters it with 'where:'")
                }
            }
            for rule in event.pushes where rule.fansOut && reaches(rule.to, recipe.broadcastGroup) {
                throw fail(b, "makes group '\(groups[recipe.broadcastGroup!])' a broadcast, one push to one key's channel, "
                    + "but push rule '\(rule.name ?? "1")' of event '\(event.name)' fans out over several of its keys")
            }
        }
    }

    private func reaches(_ t: Recipe.Target, _ group: Int?) -> Bool {
        switch t {
        case .token, .entity: return false
        case let .group(g, _, ifAbsent): return g == group || (ifAbsent.map { reaches($0, group) } ?? false)
        case let .groups(parts): return parts.contains { reaches($0, group) }
        }
    }

    /// What an expression knows of a value source: its type and whether it may be null.
    func exprType(_ src: Recipe.Source, event: Recipe.EventRule, recipient: Int?) -> (ExprType, Bool) {
        if case let .expression(x) = src { return (x.compiled.type, x.compiled.nullable) }
        if isTime(src, recipient: recipient) == true { return (.timestamp, !isAlwaysPresent(src, event: event)) }
        let type: ExprType
        switch self.type(of: src, event: event, recipient: recipient) {
        case .int?: type = .int
        case .number?: type = .double
        case .string?, .token?: type = .string
        case .bool?: type = .bool
        case .ints?: type = .list(.int)
        case .strings?: type = .list(.string)
        case nil: type = .dyn
        }
        return (type, !isAlwaysPresent(src, event: event))
    }

    private func isAlwaysPresent(_ src: Recipe.Source, event: Recipe.EventRule) -> Bool {
        switch src {
        case let .field(i): return !event.fields[i].optional && !event.fields[i].nullable
        case .time, .timeUnix, .activityTimestamp, .liveActivityEvent, .recipientKey: return true
        default: return false
        }
    }
}

/// The names an expression in a recipe may use, resolved to value sources as it is compiled.
final class RecipeExprNames: ExprNames {
    let builder: Builder
    let entry: StrictYAML.Entry
    let event: Recipe.EventRule
    let recipient: Int?
    let liveEvent: Bool
    /// Whether it is a `when:` (tested before recipients are known).
    var inCondition = false
    /// Names bound to a source by the sugar that wrote the expression.
    var bound: [String: Recipe.Source] = [:]
    /// Each name's source, by variable id; a name read twice is one variable.
    private(set) var inputs: [Recipe.Source] = []
    private var ids: [String: ExprVariable] = [:]

    init(builder: Builder, entry: StrictYAML.Entry, event: Recipe.EventRule, recipient: Int?, liveEvent: Bool) {
        self.builder = builder
        self.entry = entry
        self.event = event
        self.recipient = recipient
        self.liveEvent = liveEvent
    }

    func variable(_ path: [String], column: Int) throws -> ExprVariable {
        let text = path.joined(separator: ".")
        if let known = ids[text] { return known }
        let (source, type, nullable) = try resolve(path, text, column: column)
        let v = ExprVariable(id: inputs.count, type: type, nullable: nullable)
        inputs.append(source)
        ids[text] = v
        return v
    }

    private func resolve(_ path: [String], _ text: String, column: Int) throws -> (Recipe.Source, ExprType, Bool) {
        if let s = bound[text] {
            let (type, nullable) = builder.exprType(s, event: event, recipient: recipient)
            return (s, type, nullable)
        }
        if path.count == 1, let s = try builder.letSource(text, entry, event: event, recipient: recipient) {
            let (type, nullable) = builder.exprType(s, event: event, recipient: recipient)
            return (s, type, nullable)
        }
        if path[0] == "recipient", recipient == nil, let d = builder.lets.compiling.last, let at = builder.lets.readAt {
            throw ExprError(column: column, message: "'\(text)' is the recipient's, but let '\(d.name)' is read by '\(at.path)' (line \(at.line ?? 0)), "
                + "which has no recipient")
        }
        let entities = builder.entities
        if let type = entities.firstIndex(where: { $0.name == path[0] }), !event.fields.contains(where: { $0.name == path[0] }),
           path.count == 1 || (path.count == 2 && path[1] == "token" && !entities[type].fields.contains("token")) {
            let keys = builder.keyNames[type] ?? []
            guard let start = event.fields.firstIndex(where: { keys.contains($0.name) }) else {
                throw ExprError(column: column, message: "'\(text)' needs a field naming a \(path[0]) (its key: \(keys.joined(separator: ", "))), "
                    + "which event '\(event.name)' does not have")
            }
            if path.count == 1 { return (.entityExists(start: start, entity: type), .entity(path[0]), true) }
            return (.entityToken(start: start, entity: type), .string, true)
        }
        if path[0] == "recipient", recipient == nil, inCondition {
            throw ExprError(column: column, message: "'\(text)' is not known in a condition, which is tested once per event before its recipients are known: "
                + "filter them with 'to: {group: G, key: …, where: …}'")
        }
        if path == ["recipient"] {
            throw ExprError(column: column, message: "'recipient' is read by its fields: recipient.FIELD or recipient.key")
        }
        do {
            let src = try builder.source(named: text, entry, event: event, recipient: recipient, liveEvent: liveEvent)
            let (type, nullable) = builder.exprType(src, event: event, recipient: recipient)
            return (src, type, nullable)
        } catch let error as ProfileError {
            let prefix = "'\(entry.path)' "
            let message = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            throw ExprError(column: column, message: message)
        }
    }
}
