/// Splits an expression's text into tokens: names, numbers, quoted text ('…' or "…", with \\ \' \" \n \t
/// escapes), and the operators of the language (docs/recipes.md, "Expressions").
struct ExprLexer {
    static let symbols = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "?", ":", "(", ")", "[", "]", ".", ","]
    private let chars: [Character]
    private var i = 0

    init(_ text: String) { chars = Array(text) }

    static func tokens(_ text: String) throws -> [ExprToken] {
        var lexer = ExprLexer(text)
        var out: [ExprToken] = []
        while true {
            let t = try lexer.next()
            out.append(t)
            if t.kind == .end { return out }
        }
    }

    private mutating func next() throws -> ExprToken {
        while i < chars.count, chars[i].isWhitespace { i += 1 }
        let column = i + 1
        guard i < chars.count else { return ExprToken(kind: .end, column: column) }
        let c = chars[i]
        if c.isLetter || c == "_" {
            let start = i
            while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" { i += 1 }
            return ExprToken(kind: .identifier(String(chars[start ..< i])), column: column)
        }
        if c.isASCII, c.isNumber { return try number(column) }
        if c == "'" || c == "\"" { return try quoted(c, column) }
        for s in Self.symbols where matches(s) {
            i += s.count
            return ExprToken(kind: .symbol(s), column: column)
        }
        if c == "=" { throw ExprError(column: column, message: "'=' is not an operator: compare with '=='") }
        if c == "&" || c == "|" { throw ExprError(column: column, message: "'\(c)' is not an operator: use '\(c)\(c)'") }
        throw ExprError(column: column, message: "unexpected character '\(c)'")
    }

    private func matches(_ s: String) -> Bool {
        var j = i
        for ch in s {
            guard j < chars.count, chars[j] == ch else { return false }
            j += 1
        }
        return true
    }

    private mutating func number(_ column: Int) throws -> ExprToken {
        let start = i
        while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
        var isDouble = false
        if i + 1 < chars.count, chars[i] == ".", chars[i + 1].isASCII, chars[i + 1].isNumber {
            isDouble = true
            i += 1
            while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
        }
        if i < chars.count, chars[i] == "e" || chars[i] == "E" {
            isDouble = true
            i += 1
            if i < chars.count, chars[i] == "+" || chars[i] == "-" { i += 1 }
            while i < chars.count, chars[i].isASCII, chars[i].isNumber { i += 1 }
        }
        let text = String(chars[start ..< i])
        if i < chars.count, chars[i].isLetter || chars[i] == "_" {
            throw ExprError(column: column, message: "'\(text)\(chars[i])' is not a number")
        }
        if isDouble {
            guard let d = Double(text) else { throw ExprError(column: column, message: "'\(text)' is not a number") }
            return ExprToken(kind: .double(d), column: column)
        }
        guard let n = Int(text) else { throw ExprError(column: column, message: "\(text) does not fit an int (64 bits)") }
        return ExprToken(kind: .int(n), column: column)
    }

    private mutating func quoted(_ quote: Character, _ column: Int) throws -> ExprToken {
        i += 1
        var out = ""
        while i < chars.count, chars[i] != quote {
            if chars[i] == "\\" {
                guard i + 1 < chars.count else { break }
                switch chars[i + 1] {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "\\", "'", "\"": out.append(chars[i + 1])
                default: throw ExprError(column: i + 1, message: "'\\\(chars[i + 1])' is not an escape (\\\\, \\', \\\", \\n, \\t)")
                }
                i += 2
                continue
            }
            out.append(chars[i])
            i += 1
        }
        guard i < chars.count else { throw ExprError(column: column, message: "text opened with \(quote) is never closed") }
        i += 1
        return ExprToken(kind: .string(out), column: column)
    }
}
