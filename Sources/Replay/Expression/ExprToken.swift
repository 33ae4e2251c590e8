/// One token of an expression, with the 1-based column (in characters) where it starts.
struct ExprToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case identifier(String)
        case int(Int)
        case double(Double)
        case string(String)
        /// An operator or punctuation: `==`, `&&`, `(`, `?`, …
        case symbol(String)
        case end
    }

    var kind: Kind
    var column: Int

    /// How a message names it: `'=='`, `name 'status'`, `the end of the expression`.
    var shown: String {
        switch kind {
        case let .identifier(s): return "name '\(s)'"
        case let .int(n): return "number \(n)"
        case let .double(d): return "number \(d)"
        case let .string(s): return "text '\(s)'"
        case let .symbol(s): return "'\(s)'"
        case .end: return "the end of the expression"
        }
    }
}

/// A mistake in an expression, at a 1-based column of its text.
struct ExprError: Error, Equatable, Sendable {
    var column: Int
    var message: String
}
