/// Keeps the tokens the device's build compiles: each `#if`/`#elseif`/`#else`/`#endif` block is replaced
/// by its active branch (or nothing), conditions evaluated as ``CompilationConditions`` says. A condition
/// is evaluated only where its block is reached; inactive branches are dropped unread.
struct ConditionalCompilation {
    private struct Block {
        let line: Int
        /// Whether the enclosing code is compiled.
        let enclosingActive: Bool
        /// Whether an earlier branch of this block was taken.
        var taken: Bool
        /// Whether the current branch is compiled.
        var active: Bool
        var sawElse: Bool
    }

    private let tokens: [Token]
    private let file: String
    private var evaluator: ConditionEvaluator
    private var position = 0
    private var blocks: [Block] = []

    static func activeTokens(_ tokens: [Token], conditions: CompilationConditions, file: String) throws(ModelError) -> [Token] {
        guard tokens.contains(where: { $0.isPunctuation("#") }) else { return tokens }
        var pass = ConditionalCompilation(tokens: tokens, file: file, evaluator: ConditionEvaluator(conditions: conditions, file: file))
        return try pass.run()
    }

    private init(tokens: [Token], file: String, evaluator: ConditionEvaluator) {
        self.tokens = tokens
        self.file = file
        self.evaluator = evaluator
    }

    private var isActive: Bool { blocks.last?.active ?? true }

    private mutating func run() throws(ModelError) -> [Token] {
        var output: [Token] = []
        output.reserveCapacity(tokens.count)
        while position < tokens.count {
            let token = tokens[position]
            if token.isPunctuation("#"), let name = directive(after: position) {
                position += 2
                try handle(name, line: token.line)
                continue
            }
            if isActive || token.kind == .endOfFile { output.append(token) }
            position += 1
        }
        if let open = blocks.last { throw ModelError(file: file, line: open.line, message: "#if without a matching #endif") }
        return output
    }

    private func directive(after index: Int) -> String? {
        guard index + 1 < tokens.count else { return nil }
        let next = tokens[index + 1]
        guard next.kind == .identifier, !next.isEscaped, ["if", "elseif", "else", "endif"].contains(next.text) else { return nil }
        return next.text
    }

    private mutating func handle(_ name: String, line: Int) throws(ModelError) {
        switch name {
        case "if":
            let enclosing = isActive
            let holds = enclosing ? try condition(line) : skipCondition()
            blocks.append(Block(line: line, enclosingActive: enclosing, taken: holds, active: holds, sawElse: false))
        case "elseif":
            guard var block = blocks.popLast(), !block.sawElse else { throw error(line, "#elseif without #if, or after #else") }
            let holds = block.enclosingActive && !block.taken ? try condition(line) : skipCondition()
            block.active = holds
            block.taken = block.taken || holds
            blocks.append(block)
        case "else":
            guard var block = blocks.popLast(), !block.sawElse else { throw error(line, "#else without #if, or a second #else") }
            block.active = block.enclosingActive && !block.taken
            block.taken = true
            block.sawElse = true
            blocks.append(block)
        default:
            guard blocks.popLast() != nil else { throw error(line, "#endif without #if") }
        }
    }

    /// Evaluates the condition that starts at `position`; it must end its line.
    private mutating func condition(_ line: Int) throws(ModelError) -> Bool {
        let end = conditionEnd()
        let holds = try evaluator.evaluate(Array(tokens[position..<end]), line: line)
        position = end
        return holds
    }

    /// Skips a condition that is not evaluated (its block, or an earlier branch, decides).
    private mutating func skipCondition() -> Bool {
        position = conditionEnd()
        return false
    }

    /// The end of the condition: the first token on a later line that does not continue it (a condition
    /// continues over a line break next to `&&` or `||`, after `!` or `(`, or inside parentheses).
    private func conditionEnd() -> Int {
        var cursor = position
        var depth = 0
        while cursor < tokens.count, tokens[cursor].kind != .endOfFile {
            let token = tokens[cursor]
            if cursor > position, token.startsLine, depth == 0, !continuesCondition(tokens[cursor - 1]),
               !(token.isPunctuation("&") || token.isPunctuation("|")) { break }
            if token.isPunctuation("(") { depth += 1 }
            if token.isPunctuation(")") { depth = max(0, depth - 1) }
            cursor += 1
        }
        return cursor
    }

    private func continuesCondition(_ previous: Token) -> Bool {
        previous.kind == .punctuation && ["&", "|", "!", "("].contains(previous.text)
    }

    private func error(_ line: Int, _ message: String) -> ModelError {
        ModelError(file: file, line: line, message: message)
    }
}
