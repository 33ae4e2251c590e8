import YAMLReading

/// Named expressions: `let:` at the recipe's level and at an event's, each a mapping of names to expressions.
/// A name is read like a field wherever a value or an expression is written. Each is compiled where it is
/// first read in an event (its names are the event's), once for the event, or once for each recipient type
/// when it reads the recipient; its type is what it computes.
final class RecipeLets {
    /// One named expression as written.
    struct Declared {
        var name: String
        var text: String
        var entry: StrictYAML.Entry
        /// Its place in its mapping: a let reads only the lets above it.
        var place: Int
        var recipeLevel: Bool
    }

    var recipeLevel: [Declared] = []
    /// The lets of the event being compiled.
    var eventLevel: [Declared] = []
    /// For the event being compiled: each let compiled, by its name and the recipient type it reads (-1: none).
    var compiled: [String: RecipeExpression] = [:]
    /// The lets being compiled, innermost last (for finding a cycle).
    var compiling: [Declared] = []
    /// Where the outermost let being compiled is read (for a message when it reads what is not known there).
    var readAt: StrictYAML.Entry?
    /// The recipe-level lets compiled in some event.
    var usedRecipeLevel: Set<String> = []
    /// How many compiled lets there are: each has its place in the run's cache of values.
    var slots = 0

    func declared(_ name: String) -> Declared? {
        eventLevel.first { $0.name == name } ?? recipeLevel.first { $0.name == name }
    }

    /// The names an expression already reads without a let: a let may not take one.
    static let builtIn = ["recipient", "time", "activity_timestamp", "live_activity_event", "true", "false", "null", "in", "has"]
        + ExprFunctions.table.map(\.name)
}

extension Builder {
    /// `let:` of the recipe (`event` nil) or of an event: names checked, expressions kept as written.
    func readLets(_ e: StrictYAML.Entry, event: Recipe.EventRule?) throws -> [RecipeLets.Declared] {
        let m = try reader.map(e)
        guard !m.entries.isEmpty else { throw fail(e, "names nothing: give {NAME: EXPRESSION, …}, or leave 'let' out") }
        var out: [RecipeLets.Declared] = []
        for (i, item) in m.entries.enumerated() {
            try checkLetName(item, event: event)
            guard case .scalar = item.node, !reader.isNull(item) else { throw fail(item, "must be an expression, like \"total / 100\"") }
            out.append(.init(name: item.key, text: try reader.text(item), entry: item, place: i, recipeLevel: event == nil))
        }
        return out
    }

    private func checkLetName(_ item: StrictYAML.Entry, event: Recipe.EventRule?) throws {
        let name = item.key
        guard Self.isName(name), !name.contains(".") else {
            throw fail(item, "is not a name: a let's name is letters, digits and '_', starting with a letter or '_'")
        }
        if RecipeLets.builtIn.contains(name) {
            throw fail(item, "cannot be a let's name: '\(name)' is built into expressions (\(RecipeLets.builtIn.joined(separator: ", ")))")
        }
        if entities.contains(where: { $0.name == name }) { throw fail(item, "cannot be a let's name: '\(name)' is an entity") }
        if let event {
            if event.fields.contains(where: { $0.name == name }) {
                throw fail(item, "cannot be a let's name: '\(name)' is a field of event '\(event.name)'")
            }
            if lets.recipeLevel.contains(where: { $0.name == name }) {
                throw fail(item, "cannot be a let's name: '\(name)' is the recipe's let (line \(lets.recipeLevel.first { $0.name == name }!.entry.line ?? 0))")
            }
        }
    }

    /// Starts compiling `event`'s names: its own lets, and a recipe-level let no field of it hides.
    func beginLets(_ e: StrictYAML.Entry?, event: Recipe.EventRule) throws {
        lets.compiled = [:]
        lets.eventLevel = []
        for d in lets.recipeLevel where event.fields.contains(where: { $0.name == d.name }) {
            throw fail(d.entry, "cannot be a let's name: '\(d.name)' is a field of event '\(event.name)'")
        }
        if let e { lets.eventLevel = try readLets(e, event: event) }
    }

    /// Ends an event: each of its lets that nothing read is compiled, so that a mistake in it is still refused.
    func endLets(event: Recipe.EventRule) throws {
        for d in lets.eventLevel where !lets.compiled.keys.contains(where: { $0.hasPrefix(d.name + "|") }) {
            _ = try letSource(d.name, d.entry, event: event, recipient: nil)
        }
    }

    /// After every event: a recipe-level let no event read must compile in one of them.
    func endRecipeLets(_ events: [Recipe.EventRule]) throws {
        for d in lets.recipeLevel where !lets.usedRecipeLevel.contains(d.name) {
            var first: Error?
            for event in events {
                lets.compiled = [:]
                lets.eventLevel = []
                do { _ = try letSource(d.name, d.entry, event: event, recipient: nil); first = nil; break } catch { first = first ?? error }
            }
            if let first { throw first }
        }
    }

    /// The let `name` as a value source for `event` (nil: no let has that name), compiled once for the event
    /// (per recipient type when it reads the recipient). `e` is where it is read.
    func letSource(_ name: String, _ e: StrictYAML.Entry, event: Recipe.EventRule, recipient: Int?) throws -> Recipe.Source? {
        guard let d = lets.declared(name) else { return nil }
        if let reader = lets.compiling.last {
            if let start = lets.compiling.firstIndex(where: { $0.name == name }) {
                let cycle = (lets.compiling[start...].map(\.name) + [name]).joined(separator: " → ")
                throw fail(reader.entry, "reads '\(name)': lets form a cycle (\(cycle))")
            }
            if reader.recipeLevel, !d.recipeLevel {
                throw fail(reader.entry, "reads '\(name)', a let of event '\(event.name)': a recipe's let reads only the recipe's lets")
            }
        }
        let source = try compiledLet(d, e, event: event, recipient: recipient)
        if let reader = lets.compiling.last, reader.recipeLevel == d.recipeLevel, d.place > reader.place {
            throw fail(reader.entry, "reads '\(name)', which is declared below it (line \(d.entry.line ?? 0)): a let reads the lets above it")
        }
        return source
    }

    /// `d` compiled for `event`: without the recipient when it does not read it, so that every push rule of
    /// the event shares its one value.
    private func compiledLet(_ d: RecipeLets.Declared, _ e: StrictYAML.Entry, event: Recipe.EventRule, recipient: Int?) throws -> Recipe.Source {
        if let x = lets.compiled["\(d.name)|-1"] { return .expression(x) }
        if let recipient, let x = lets.compiled["\(d.name)|\(recipient)"] { return .expression(x) }
        if lets.compiling.isEmpty { lets.readAt = e }
        lets.compiling.append(d)
        defer { lets.compiling.removeLast() }
        var x: RecipeExpression
        do {
            x = try expression(d.text, d.entry, event: event, recipient: nil)
        } catch {
            guard let recipient else { throw error }
            x = try expression(d.text, d.entry, event: event, recipient: recipient)
        }
        x.named = .init(slot: lets.slots, perRecipient: x.readsRecipient)
        // A let that is one name (`customer: parcel.customer_id`) reads as that name does: as a key, a missing
        // link is `unknown_target`.
        if Self.isName(d.text), x.inputs.count == 1 { x.reads = x.inputs[0] }
        lets.slots += 1
        lets.compiled["\(d.name)|\(x.readsRecipient ? recipient ?? -1 : -1)"] = x
        if d.recipeLevel { lets.usedRecipeLevel.insert(d.name) }
        return .expression(x)
    }
}
