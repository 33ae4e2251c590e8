/// Parses an expression by the grammar of the Common Expression Language (CEL), the subset recipes use:
///
///     expr    = or ["?" or ":" expr]
///     or      = and {"||" and}
///     and     = rel {"&&" rel}
///     rel     = add {("==" | "!=" | "<" | "<=" | ">" | ">=" | "in") add}
///     add     = mul {("+" | "-") mul}
///     mul     = unary {("*" | "/" | "%") unary}
///     unary   = member | "!" unary | "-" unary
///     member  = primary {"." NAME ["(" args ")"] | "[" expr "]"}
///     primary = NAME ["(" args ")"] | "(" expr ")" | "[" [args] "]" | literal
struct ExprParser {
    private let tokens: [ExprToken]
    private var at = 0
    /// How deep the parser has nested; a bound keeps a hostile expression from exhausting the stack.
    private var depth = 0
    static let maxDepth = 64

    private init(_ tokens: [ExprToken]) { self.tokens = tokens }

    static func parse(_ text: String) throws -> ExprSyntax {
        var p = ExprParser(try ExprLexer.tokens(text))
        if p.peek.kind == .end { throw ExprError(column: 1, message: "is empty: write an expression") }
        let e = try p.expression()
        guard p.peek.kind == .end else { throw ExprError(column: p.peek.column, message: "expected an operator or the end, found \(p.peek.shown)") }
        return e
    }

    private var peek: ExprToken { tokens[at] }

    private mutating func take() -> ExprToken {
        let t = tokens[at]
        if at < tokens.count - 1 { at += 1 }
        return t
    }

    private mutating func takeSymbol(_ s: String) -> Bool {
        guard peek.kind == .symbol(s) else { return false }
        at += 1
        return true
    }

    private mutating func expect(_ s: String, _ what: String) throws {
        guard takeSymbol(s) else { throw ExprError(column: peek.column, message: "expected '\(s)' \(what), found \(peek.shown)") }
    }

    private mutating func expression() throws -> ExprSyntax {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw ExprError(column: peek.column, message: "nests deeper than \(Self.maxDepth) levels") }
        let condition = try binary(0)
        guard peek.kind == .symbol("?") else { return condition }
        let column = take().column
        let yes = try binary(0)
        try expect(":", "between the two results of '? :'")
        let no = try expression()
        return .conditional(condition, yes, no, column: column)
    }

    /// Binary operators by precedence, loosest first.
    private static let levels: [[String]] = [["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">=", "in"], ["+", "-"], ["*", "/", "%"]]

    private func binaryOperator(_ level: Int) -> String? {
        switch peek.kind {
        case let .symbol(s) where Self.levels[level].contains(s): return s
        case .identifier("in") where level == 2: return "in"
        default: return nil
        }
    }

    private mutating func binary(_ level: Int) throws -> ExprSyntax {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level + 1)
        while let op = binaryOperator(level) {
            let column = take().column
            let right = try binary(level + 1)
            // Relations do not chain: `a < b < c` compares a bool with c.
            if level == 2, case let .binary(prev, _, _, _) = left, Self.levels[2].contains(prev) {
                throw ExprError(column: column, message: "'\(op)' cannot follow '\(prev)' without parentheses: relations do not chain")
            }
            left = .binary(op, left, right, column: column)
        }
        return left
    }

    private mutating func unary() throws -> ExprSyntax {
        if peek.kind == .symbol("!") || peek.kind == .symbol("-") {
            let t = take()
            let op = t.kind == .symbol("!") ? "!" : "-"
            if op == "-", case let .int(n) = peek.kind { _ = take(); return .literal(.int(-n), column: t.column) }
            if op == "-", case let .double(d) = peek.kind { _ = take(); return .literal(.double(-d), column: t.column) }
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw ExprError(column: t.column, message: "nests deeper than \(Self.maxDepth) levels") }
            return .unary(op, try unary(), column: t.column)
        }
        return try member()
    }

    private mutating func member() throws -> ExprSyntax {
        var e = try primary()
        while true {
            if takeSymbol(".") {
                let t = take()
                guard case let .identifier(name) = t.kind else { throw ExprError(column: t.column, message: "expected a name after '.', found \(t.shown)") }
                if takeSymbol("(") {
                    e = .call(name, [e] + (try arguments(")")), column: t.column)
                } else if case let .path(names, c) = e {
                    e = .path(names + [name], column: c)
                } else {
                    throw ExprError(column: t.column, message: "'.\(name)' reads a field of a value that has none")
                }
            } else if peek.kind == .symbol("[") {
                let column = take().column
                let i = try expression()
                try expect("]", "after the index")
                e = .index(e, i, column: column)
            } else {
                return e
            }
        }
    }

    private mutating func primary() throws -> ExprSyntax {
        let t = take()
        switch t.kind {
        case .int(let n): return .literal(.int(n), column: t.column)
        case .double(let d): return .literal(.double(d), column: t.column)
        case .string(let s): return .literal(.string(s), column: t.column)
        case .identifier("true"): return .literal(.bool(true), column: t.column)
        case .identifier("false"): return .literal(.bool(false), column: t.column)
        case .identifier("null"): return .literal(.null, column: t.column)
        case .identifier(let name):
            if takeSymbol("(") { return .call(name, try arguments(")"), column: t.column) }
            return .path([name], column: t.column)
        case .symbol("("):
            let e = try expression()
            try expect(")", "to close the '(' at column \(t.column)")
            return e
        case .symbol("["):
            return .list(try arguments("]"), column: t.column)
        default:
            throw ExprError(column: t.column, message: "expected a value, found \(t.shown)")
        }
    }

    /// Comma-separated expressions up to `close` (already past the opening bracket).
    private mutating func arguments(_ close: String) throws -> [ExprSyntax] {
        var out: [ExprSyntax] = []
        if takeSymbol(close) { return out }
        while true {
            out.append(try expression())
            if takeSymbol(close) { return out }
            try expect(",", "or '\(close)' in the list")
        }
    }
}
