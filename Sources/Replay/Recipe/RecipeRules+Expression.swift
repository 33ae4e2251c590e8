import APNsCore

/// Evaluating a recipe's expressions for the event being planned: their names read the value sources they
/// were resolved to, with the recipient of the push being filled (or of the member a `where:` tests).
extension RecipeRules: ExprInput {
    func read(_ variable: Int) -> ExprValue {
        ExprValue(value(evaluating.inputs[variable], recipient: evaluating.recipient, key: evaluating.key))
    }

    /// The expression's value; a failure (overflow, division by zero, a null where a value is needed) is kept
    /// for the event being planned, which then is a bad line naming the key, or for the push being filled,
    /// which is then not sent; the value is absent.
    func evaluate(_ x: RecipeExpression, recipient: Int?, key: EntityKey?) -> RecipeValue {
        switch attempt(x, recipient: recipient, key: key) {
        case let .success(v): return v
        case let .failure(failure):
            phase.record(failure)
            return .absent
        }
    }

    /// The expression's value, or its failure (kept nowhere).
    func attempt(_ x: RecipeExpression, recipient: Int?, key: EntityKey?) -> Result<RecipeValue, RecipeEventState.Failure> {
        evaluating = (x.inputs, recipient, key)
        evaluationDepth += 1
        defer { evaluationDepth -= 1 }
        do {
            let v = try x.compiled.evaluate(self)
            if let failed = letFailure { letFailure = nil; return .failure(failed) }
            // An empty list has no item to say its type: the expression's type says it.
            if case let .list(items) = v, items.isEmpty, x.compiled.type == .list(.string) { return .success(.strings([])) }
            return .success(v.recipeValue)
        } catch {
            if let failed = letFailure { letFailure = nil; return .failure(failed) }
            return .failure(.init(key: x.key, fault: error as? ExprFault ?? ExprFault(column: 1, message: "\(error)")))
        }
    }

    /// A let's value: evaluated the first time it is read in the event (for each recipient, when it reads the
    /// recipient), then kept. Its failure fails the expression that read it, or else is kept like an
    /// expression's (``evaluate(_:recipient:key:)``).
    func letValue(_ x: RecipeExpression, _ named: RecipeExpression.Named, recipient: Int?, key: EntityKey?) -> RecipeValue {
        let who = named.perRecipient ? recipient ?? -1 : -1
        let result: Result<RecipeValue, RecipeEventState.Failure>
        if letValues[named.slot].event == letEvent, letValues[named.slot].recipient == who {
            result = letValues[named.slot].value
        } else {
            let outer = evaluating
            result = attempt(x, recipient: recipient, key: key)
            evaluating = outer
            letValues[named.slot] = (letEvent, who, result)
        }
        switch result {
        case let .success(v): return v
        case let .failure(failure):
            if evaluationDepth > 0 { letFailure = letFailure ?? failure } else { phase.record(failure) }
            return .absent
        }
    }

    /// The place of the entity an event field names (nil: the field is absent, or no such entity exists).
    func entityPlace(_ field: Int, _ type: Int) -> Int? {
        values[field].key.flatMap { state.place(type, $0) }
    }

    /// The key an expression source is written under, for messages.
    func expressionKey(_ source: Recipe.Source) -> String? {
        if case let .expression(x) = source { return x.key }
        return nil
    }

    /// Makes the event a bad line when one of its expressions failed.
    func throwIfAnExpressionFailed() throws {
        guard phase.eventFailed, let failure = phase.takeFailure() else { return }
        throw StreamLineError(line: line, cause: .badValue(field: failure.key, why: "column \(failure.fault.column): \(failure.fault.message)"))
    }

    /// The group's members for which the rule's `where:` holds, in the group's order. A member for which it
    /// fails is kept with its failure: that member's push alone is not sent (`bad_line`).
    func keep(_ members: [Int], passing filter: RecipeExpression, rule: Int, into entry: inout EventPlan.Entry) {
        filtered[rule].removeAll(keepingCapacity: true)
        if !filterFailures[rule].isEmpty { filterFailures[rule].removeAll(keepingCapacity: true) }
        for place in members {
            switch attempt(filter, recipient: place, key: state.key(place)) {
            case .success(.bool(true)): filtered[rule].append(place)
            case .success: continue
            case let .failure(failure):
                filterFailures[rule][filtered[rule].count] = failure
                filtered[rule].append(place)
            }
        }
        guard !filtered[rule].isEmpty else { return entry.recipients = .notSent(.noRecipients) }
        entry.recipients = .members
        entry.members = filtered[rule]
        entry.count = filtered[rule].count
    }
}
