import APNsCore
import YAMLReading

/// A header key's value written as a scalar, read the same way for every header key: its own constant (a number
/// for `priority` and `expiration_seconds`, `update`/`end`, `per_push`) and a text header's format (`"order-{{id}}"`)
/// are read by the key; besides them, a plain name is a value source (`status`, `order.code`, `time`) and anything
/// else is an expression, as wherever a value goes.
extension Builder {
    /// `text`, neither the header's constant nor a format: a value source by name, or an expression.
    ///
    /// A text header that takes a recipe constant (`collapse_id`) read any other text as that constant before:
    /// a plain name, which would now read a field, is refused with both forms, and text that is no expression
    /// says how a constant is written.
    func headerScalar(_ text: String, _ entry: Entry, header: APNsHeader, event: Recipe.EventRule, recipient: Int?) throws -> Recipe.Source {
        let constantText = Self.takesConstantText(header)
        let quoted = "\"'\(text)'\""
        if Self.isName(text) {
            guard constantText else { return try source(named: text, entry, event: event, recipient: recipient) }
            if (try? source(named: text, entry, event: event, recipient: recipient)) != nil {
                throw fail(entry, "is '\(text)', a name, which a header value reads as a field now, not as the constant text it was: "
                    + "write {from: \(text)} for the field's value, or \(quoted) for the constant text")
            }
            throw fail(entry, "is '\(text)', a name, but no field of event '\(event.name)' has it "
                + "(fields: \(event.fields.isEmpty ? "none" : event.fields.map(\.name).joined(separator: ", "))): "
                + "constant text is quoted, \(quoted)")
        }
        do {
            return .expression(try expression(text, entry, event: event, recipient: recipient))
        } catch let error as ProfileError {
            let takes = constantText ? "constant text is quoted, \(quoted)"
                : "'\(header.key)' takes \(header.sources.contains(.perPush) ? "per_push, " : "")a field's name, an expression, {from: FIELD} "
                    + "or a format like \"{{FIELD}}\""
            throw ProfileError(file: error.file, line: error.line, message: error.message + "; " + takes)
        }
    }

    /// The text of an expression that reads nothing (`"'general'"`), computed when the recipe loads; nil for one
    /// that reads the event.
    func constantText(_ src: Recipe.Source, _ entry: Entry) throws -> String? {
        guard case let .expression(x) = src, x.inputs.isEmpty else { return nil }
        do {
            guard let text = try x.compiled.evaluate(NoExprInput()).recipeValue.text else {
                throw fail(entry, "is always null: give a value, or leave the key out")
            }
            return text
        } catch let fault as ExprFault {
            throw fail(entry, "column \(fault.column): \(fault.message), in \"\(x.compiled.text)\"")
        }
    }
}

/// The input of an expression that reads no name.
private final class NoExprInput: ExprInput {
    func read(_ variable: Int) -> ExprValue { .null }
}
