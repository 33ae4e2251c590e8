/// Skipping what does not affect decoding: initial-value expressions, property-observer and accessor
/// blocks, function and initializer bodies; and spotting a custom `init(from:)` on the way.
extension DeclarationParser {
    /// At `{` after a property: true when it holds `willSet`/`didSet` observers (a stored property).
    func isObserverBlock() -> Bool {
        var offset = 1
        while peek(offset).isPunctuation("@") {
            offset += 2
            if peek(offset).isPunctuation("(") { return false }
        }
        let first = peek(offset)
        return first.isKeyword("willSet") || first.isKeyword("didSet")
    }

    /// Skips an initial-value expression and reports whether it is a single literal. It ends at a `}`,
    /// `;`, `,` or `)` outside brackets, at a property-observer block, or at a line break that does not continue
    /// the expression (the line ends in, or the next begins with, an operator or `.`).
    mutating func skipExpression() throws(ModelError) -> PropertySyntax.Initializer {
        let start = position
        var depth = 0
        var previous: Token?
        while current.kind != .endOfFile {
            let token = current
            if depth == 0, previous != nil {
                if token.isPunctuation("}") || token.isPunctuation(";") || token.isPunctuation(",") || token.isPunctuation(")") { break }
                if token.isPunctuation("{") && isObserverBlock() { break }
                if token.startsLine, let previous, !continuesExpression(after: previous, before: token) { break }
            }
            if token.kind == .punctuation {
                switch token.text {
                case "(", "[", "{": depth += 1
                case ")", "]", "}":
                    guard depth > 0 else { throw error(token.line, "unbalanced '\(token.text)' in an initial value") }
                    depth -= 1
                default: break
                }
            }
            previous = token
            advance()
        }
        guard position > start else { throw error(current.line, "expected an initial value after '='") }
        let count = position - start
        let first = tokens[start]
        let literal = count == 2 && first.isPunctuation("-") ? tokens[start + 1] : first
        guard count == 1 || (count == 2 && first.isPunctuation("-") && literal.kind == .number) else { return .expression }
        switch literal.kind {
        case .number:
            let lower = literal.text.lowercased()
            let isFloat = lower.contains(".") || (!lower.hasPrefix("0x") && lower.contains("e")) || (lower.hasPrefix("0x") && lower.contains("p"))
            return .literal(isFloat ? .float : .integer)
        case .string:
            return .literal(.string)
        case .identifier where literal.isKeyword("true") || literal.isKeyword("false"):
            return .literal(.boolean)
        default:
            return .expression
        }
    }

    func continuesExpression(after previous: Token, before next: Token) -> Bool {
        let operators: Set<String> = ["=", "+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "!", "?", "~", ".", ",", ":", "(", "["]
        if previous.kind == .punctuation, operators.contains(previous.text) { return true }
        if next.kind == .punctuation, operators.contains(next.text) || next.text == "{" { return true }
        return false
    }

    // MARK: Functions and initializers

    mutating func skipFunction() throws(ModelError) {
        let keyword = current
        advance()
        while current.kind != .endOfFile, !current.isPunctuation("("), !current.isPunctuation("{") {
            if current.isPunctuation("<") { try skipGenericParameters() } else { advance() }
        }
        if current.isPunctuation("(") { try skipBalanced() }
        try skipToBody(of: keyword)
    }

    /// An initializer; a custom `init(from:)` marks its type as one whose decoding cannot be known.
    mutating func parseInitializer(in context: Context) throws(ModelError) {
        let keyword = current
        advance()
        if current.isPunctuation("?") || current.isPunctuation("!") { advance() }
        if current.isPunctuation("<") { try skipGenericParameters() }
        guard current.isPunctuation("(") else { throw error(keyword.line, "expected '(' after init") }
        if isDecoderParameter(at: position + 1) {
            markUnchecked(context, "its own init(from:) decides what it decodes", line: keyword.line)
        }
        try skipBalanced()
        try skipToBody(of: keyword)
    }

    /// True when the parameter starting at `index` is `from <name>: …Decoder…`.
    func isDecoderParameter(at index: Int) -> Bool {
        guard index < tokens.count, tokens[index].text == "from", tokens[index].kind == .identifier else { return false }
        var cursor = index + 1
        if cursor < tokens.count, tokens[cursor].kind == .identifier { cursor += 1 }
        guard cursor < tokens.count, tokens[cursor].isPunctuation(":") else { return false }
        var depth = 0
        while cursor < tokens.count, tokens[cursor].kind != .endOfFile {
            let token = tokens[cursor]
            if token.isPunctuation("(") || token.isPunctuation("[") || token.isPunctuation("<") { depth += 1 }
            if token.isPunctuation(")") || token.isPunctuation("]") || token.isPunctuation(">") {
                if depth == 0 { return false }
                depth -= 1
            }
            if depth == 0, token.isPunctuation(",") { return false }
            if token.kind == .identifier, token.text == "Decoder" { return true }
            cursor += 1
        }
        return false
    }

    /// Skips a signature's tail (effects, return type, where clause) and the `{ … }` body.
    mutating func skipToBody(of keyword: Token) throws(ModelError) {
        while current.kind != .endOfFile, !current.isPunctuation("{") {
            if current.isPunctuation("}") { throw error(keyword.line, "'\(keyword.text)' without a body") }
            if current.isPunctuation("(") || current.isPunctuation("[") { try skipBalanced() } else { advance() }
        }
        guard current.isPunctuation("{") else { throw error(keyword.line, "'\(keyword.text)' without a body") }
        try skipBalanced()
    }

    mutating func skipGenericParameters() throws(ModelError) {
        let open = current
        var depth = 0
        repeat {
            guard current.kind != .endOfFile else { throw error(open.line, "unbalanced '<'") }
            if current.isPunctuation("<") { depth += 1 }
            if current.isPunctuation(">") { depth -= 1 }
            advance()
        } while depth > 0
    }
}
