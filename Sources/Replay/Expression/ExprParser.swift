/// Parses an expression by the grammar of the Common Expression Language (CEL), the subset recipes use:
///
///     expr    = or ["?" or ":" expr]
///     or      = and {"||" and}
///     and     = rel {"&&" rel}
///     rel     = add {("==" | "!=" | "<" | "<=" | ">" | ">=" | "in") add}
///     add     = mul {("+" | "-") mul}
///     mul     = unary {("*" | "/" | "%") unary}
///     unary   = member | "!" unary | "-" unary
///     member  = primary {"." NAME ["(" args ")"] | "[" expr "]" | "[" [expr] ":" [expr] "]"}
///     primary = NAME ["(" args ")"] | "(" expr ")" | "[" [args] "]" | literal
///
/// Limits, so that no input exhausts the stack or the memory: an expression has at most ``maxNodes`` terms and
/// operators, and its tree nests at most ``maxDepth`` levels (every kind of node counts: a bracket, an operator,
/// a call, an index, a `?:`). A run of operators of one precedence is one node (``ExprSyntax/chain``), built by
/// a loop, so a long flat chain (`a && b && …`) is limited only by the number of its terms.
struct ExprParser {
    private let tokens: [ExprToken]
    private var at = 0
    /// How deep the parser has recursed (it never recurses deeper than the tree it builds nests).
    private var depth = 0
    /// Terms and operators made so far.
    private var nodes = 0
    static let maxDepth = 64
    static let maxNodes = 50_000

    /// A node with the height of its tree (1: no children).
    private typealias Parsed = (syntax: ExprSyntax, height: Int)

    private init(_ tokens: [ExprToken]) { self.tokens = tokens }

    static func parse(_ text: String) throws -> ExprSyntax {
        var p = ExprParser(try ExprLexer.tokens(text))
        if p.peek.kind == .end { throw ExprError(column: 1, message: "is empty: write an expression") }
        let e = try p.expression()
        guard p.peek.kind == .end else { throw ExprError(column: p.peek.column, message: "expected an operator or the end, found \(p.peek.shown)") }
        return e.syntax
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

    /// Counts `count` terms or operators at `column`, refusing the one past ``maxNodes``.
    private mutating func count(_ count: Int = 1, column: Int) throws {
        nodes += count
        guard nodes <= Self.maxNodes else {
            throw ExprError(column: column, message: "has more than \(Self.maxNodes) terms and operators, the limit of one expression: split it")
        }
    }

    /// `syntax` over children of the given heights, refused when it nests deeper than ``maxDepth``.
    private func node(_ syntax: ExprSyntax, over heights: [Int]) throws -> Parsed {
        let height = (heights.max() ?? 0) + 1
        guard height <= Self.maxDepth else { throw ExprError(column: syntax.column, message: "nests deeper than \(Self.maxDepth) levels") }
        return (syntax, height)
    }

    /// Enters one level of the parser's recursion.
    private mutating func descend(_ column: Int) throws {
        depth += 1
        guard depth <= Self.maxDepth else { throw ExprError(column: column, message: "nests deeper than \(Self.maxDepth) levels") }
    }

    private mutating func expression() throws -> Parsed {
        try descend(peek.column)
        defer { depth -= 1 }
        let condition = try binary(0)
        guard peek.kind == .symbol("?") else { return condition }
        let column = take().column
        try count(column: column)
        let yes = try binary(0)
        try expect(":", "between the two results of '? :'")
        let no = try expression()
        return try node(.conditional(condition.syntax, yes.syntax, no.syntax, column: column), over: [condition.height, yes.height, no.height])
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

    /// The operators of one precedence level, left to right, by a loop: one operator is a ``ExprSyntax/binary``
    /// node, more are one ``ExprSyntax/chain``.
    private mutating func binary(_ level: Int) throws -> Parsed {
        guard level < Self.levels.count else { return try unary() }
        let first = try binary(level + 1)
        var links: [ExprLink] = []
        var height = first.height
        while let op = binaryOperator(level) {
            let column = take().column
            try count(column: column)
            // Relations do not chain: `a < b < c` compares a bool with c.
            if level == 2, let prev = links.last?.op ?? Self.relation(first.syntax) {
                throw ExprError(column: column, message: "'\(op)' cannot follow '\(prev)' without parentheses: relations do not chain")
            }
            let right = try binary(level + 1)
            links.append(ExprLink(op: op, operand: right.syntax, column: column))
            height = max(height, right.height)
        }
        guard let last = links.first else { return first }
        if links.count == 1 { return try node(.binary(last.op, first.syntax, last.operand, column: last.column), over: [height]) }
        return try node(.chain(first.syntax, links, column: last.column), over: [height])
    }

    /// The relation at the top of `e`, if it is one (`a < b`).
    private static func relation(_ e: ExprSyntax) -> String? {
        if case let .binary(op, _, _, _) = e, levels[2].contains(op) { return op }
        return nil
    }

    private mutating func unary() throws -> Parsed {
        if peek.kind == .symbol("!") || peek.kind == .symbol("-") {
            let t = take()
            try count(column: t.column)
            let op = t.kind == .symbol("!") ? "!" : "-"
            if op == "-", case let .int(n) = peek.kind { _ = take(); return (.literal(.int(-n), column: t.column), 1) }
            if op == "-", case let .double(d) = peek.kind { _ = take(); return (.literal(.double(-d), column: t.column), 1) }
            try descend(t.column)
            defer { depth -= 1 }
            let operand = try unary()
            return try node(.unary(op, operand.syntax, column: t.column), over: [operand.height])
        }
        return try member()
    }

    private mutating func member() throws -> Parsed {
        var e = try primary()
        while true {
            if takeSymbol(".") {
                let t = take()
                guard case let .identifier(name) = t.kind else { throw ExprError(column: t.column, message: "expected a name after '.', found \(t.shown)") }
                if takeSymbol("(") {
                    try count(column: t.column)
                    let args = try arguments(")")
                    e = try node(.call(name, [e.syntax] + args.map(\.syntax), column: t.column), over: [e.height] + args.map(\.height))
                } else if case let .path(names, c) = e.syntax {
                    e = (.path(names + [name], column: c), e.height)
                } else {
                    throw ExprError(column: t.column, message: "'.\(name)' reads a field of a value that has none")
                }
            } else if peek.kind == .symbol("[") {
                e = try indexOrSlice(e)
            } else {
                return e
            }
        }
    }

    /// `e[i]`, or a slice `e[a:b]` with either bound left out (`e[1:]`, `e[:2]`, `e[:]`).
    private mutating func indexOrSlice(_ e: Parsed) throws -> Parsed {
        let column = take().column
        try count(column: column)
        let from = peek.kind == .symbol(":") ? nil : try expression()
        if let i = from, !takeSymbol(":") {
            try expect("]", "after the index")
            return try node(.index(e.syntax, i.syntax, column: column), over: [e.height, i.height])
        }
        if from == nil { _ = take() }
        let to = peek.kind == .symbol("]") ? nil : try expression()
        try expect("]", "after the slice")
        return try node(.slice(e.syntax, from?.syntax, to?.syntax, column: column), over: [e.height, from?.height ?? 0, to?.height ?? 0])
    }

    private mutating func primary() throws -> Parsed {
        let t = take()
        try count(column: t.column)
        switch t.kind {
        case .int(let n): return (.literal(.int(n), column: t.column), 1)
        case .double(let d): return (.literal(.double(d), column: t.column), 1)
        case .string(let s): return (.literal(.string(s), column: t.column), 1)
        case .identifier("true"): return (.literal(.bool(true), column: t.column), 1)
        case .identifier("false"): return (.literal(.bool(false), column: t.column), 1)
        case .identifier("null"): return (.literal(.null, column: t.column), 1)
        case .identifier(let name):
            guard takeSymbol("(") else { return (.path([name], column: t.column), 1) }
            let args = try arguments(")")
            return try node(.call(name, args.map(\.syntax), column: t.column), over: args.map(\.height))
        case .symbol("("):
            let e = try expression()
            try expect(")", "to close the '(' at column \(t.column)")
            return e
        case .symbol("["):
            let items = try arguments("]")
            return try node(.list(items.map(\.syntax), column: t.column), over: items.map(\.height))
        default:
            throw ExprError(column: t.column, message: "expected a value, found \(t.shown)")
        }
    }

    /// Comma-separated expressions up to `close` (already past the opening bracket).
    private mutating func arguments(_ close: String) throws -> [Parsed] {
        var out: [Parsed] = []
        if takeSymbol(close) { return out }
        while true {
            out.append(try expression())
            if takeSymbol(close) { return out }
            try expect(",", "or '\(close)' in the list")
        }
    }
}
