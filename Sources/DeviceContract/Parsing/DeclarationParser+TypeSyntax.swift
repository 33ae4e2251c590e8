/// Type annotations (`Int`, `[String: Line]`, `Optional<Date>`, `URL?`) and integer literals.
extension DeclarationParser {
    // MARK: Type syntax

    mutating func parseTypeSyntax(depth: Int) throws(ModelError) -> TypeSyntax {
        let start = current
        guard depth < Self.maxNesting else { throw error(start.line, "type nested too deeply") }
        var type: TypeSyntax
        if start.isPunctuation("[") {
            advance()
            let first = try parseTypeSyntax(depth: depth + 1)
            if current.isPunctuation(":") {
                advance()
                let value = try parseTypeSyntax(depth: depth + 1)
                type = .dictionary(first, value)
            } else {
                type = .array(first)
            }
            try expectPunctuation("]")
        } else if start.isPunctuation("(") {
            throw error(start.line, "tuple and function types are outside the supported subset")
        } else if start.kind == .identifier {
            if !start.isEscaped, ["some", "any", "inout", "borrowing", "consuming"].contains(start.text) {
                throw error(start.line, "'\(start.text)' types are outside the supported subset")
            }
            var path = [start.text]
            advance()
            while current.isPunctuation("."), peek(1).kind == .identifier {
                if ["Type", "Protocol"].contains(peek(1).text) { throw error(start.line, "metatypes are outside the supported subset") }
                advance()
                path.append(current.text)
                advance()
            }
            if current.isPunctuation("<") {
                advance()
                var arguments = [try parseTypeSyntax(depth: depth + 1)]
                while current.isPunctuation(",") {
                    advance()
                    arguments.append(try parseTypeSyntax(depth: depth + 1))
                }
                try expectPunctuation(">")
                type = Self.genericType(path, arguments, line: start.line)
            } else {
                type = .named(path, line: start.line)
            }
        } else {
            throw error(start.line, "expected a type, found '\(start.text)'")
        }
        while !current.startsLine, current.isPunctuation("?") || current.isPunctuation("!") {
            type = .optional(type, sugared: true)
            advance()
        }
        if current.isPunctuation("&") { throw error(current.line, "protocol composition types are outside the supported subset") }
        if current.isPunctuation("-"), peek(1).isPunctuation(">") { throw error(current.line, "function types are outside the supported subset") }
        if current.isPunctuation("."), peek(1).isPunctuation("."), peek(2).isPunctuation(".") {
            throw error(current.line, "variadic types are outside the supported subset")
        }
        return type
    }

    /// `Optional<T>`, `Array<T>`, `Dictionary<K, V>`, `Set<T>`, `Range<T>`, `ClosedRange<T>` (optionally `Swift.`);
    /// any other generic type as ``TypeSyntax/generic(_:line:)``.
    static func genericType(_ path: [String], _ arguments: [TypeSyntax], line: Int) -> TypeSyntax {
        let base = path.count == 2 && path[0] == "Swift" ? [path[1]] : path
        switch (base, arguments.count) {
        case (["Optional"], 1): return .optional(arguments[0], sugared: false)
        case (["Array"], 1): return .array(arguments[0])
        case (["Dictionary"], 2): return .dictionary(arguments[0], arguments[1])
        case (["Set"], 1): return .set(arguments[0])
        case (["Range"], 1): return .range(arguments[0], closed: false)
        case (["ClosedRange"], 1): return .range(arguments[0], closed: true)
        default: return .generic(path, line: line)
        }
    }

    /// After a type that could not be read: skips to the `=`, `{`, `;`, `}`, `,`, `)` or `]` that ends it, or
    /// to the next line, outside brackets.
    mutating func skipTypeTokens() throws(ModelError) {
        let start = position
        while current.kind != .endOfFile {
            if position > start, current.startsLine { return }
            if ["=", "{", ";", "}", ",", ")", "]"].contains(where: { current.isPunctuation($0) }) { return }
            if current.isPunctuation("(") || current.isPunctuation("[") { try skipBalanced() } else { advance() }
        }
    }

    /// The value of a Swift integer literal (`42`, `1_000`, `0x2A`, `0o52`, `0b101010`), or nil.
    static func integerLiteral(_ text: String) -> UInt64? {
        var digits = Substring(text.filter { $0 != "_" })
        var radix = 10
        for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            radix = base
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, digits.first != "+", digits.first != "-" else { return nil }
        return UInt64(digits, radix: radix)
    }
}
