import YAMLReading

extension Builder {
    /// `{from: S, map: {A: X, B: Y}, default: D}`, sugar expanded into the expression it means,
    /// `S == A ? X : (S == B ? Y : D)`: each key compared with the value as text, as the table matched it
    /// (``RecipeSugar/equals(_:at:_:)``), each result the constant as written, and without `default:` the
    /// value itself. `from:` is a name or an expression.
    func mapped(_ from: Entry, _ inner: Recipe.Source, _ table: Entry, otherwise: Entry?, at e: Entry, event: Recipe.EventRule,
                recipient: Int?, liveEvent: Bool) throws -> Recipe.Source {
        guard case .scalar = from.node, !reader.isNull(from) else {
            throw fail(from, "is read through 'map', so it is a name or an expression (\"status\", \"order.status\", \"lower(status)\")")
        }
        let text = try reader.text(from)
        let name = Self.isName(text) ? text : "(\(text))"
        let (type, nullable) = exprType(inner, event: event, recipient: recipient)
        let sugar = RecipeSugar(name: name, type: type, nullable: nullable)
        var expression = try otherwise.map { RecipeSugar.natural(try constant($0)) } ?? name
        for entry in try reader.map(table).entries.reversed() {
            let test = try sugar.equals(.string(entry.key), at: entry, self)
            let result = RecipeSugar.natural(try constant(entry))
            expression = "\(test) ? \(result) : \(expression.contains("?") ? "(\(expression))" : expression)"
        }
        var x = try self.expression(expression, e, event: event, recipient: recipient, liveEvent: liveEvent)
        x.reads = inner
        return .expression(x)
    }
}
