import Foundation
@testable import Replay

/// The variants of one expression's text, made from its tokens: each binary operator swapped for another of
/// its operands' kind (a comparison for its negation, `&&` for `||`, `+` for `*`), each name misspelt (its
/// middle letter dropped), each binary operator dropped with its right operand, and each literal given the
/// other type (`1` → `'1'`, `'x'` → `1`). Dropping an operator with its identity (`+ 0`, `* 1`, `&& true`) is
/// told apart: it keeps the value.
enum ExpressionVariants {
    struct Variant {
        let kind: String
        let text: String
    }

    static let swapped = ["==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "&&": "||", "||": "&&",
                          "+": "*", "-": "/", "*": "+", "/": "*", "%": "*"]

    /// A binary operator with its operator's identity as the right operand: dropped, the value is the same.
    static let identities: Set = ["+0", "-0", "*1", "/1", "&&true", "||false"]
    static let identityDropped = "identity dropped"

    static func variants(of text: String) throws -> [Variant] {
        let chars = Array(text)
        let tokens = try ExprLexer.tokens(text)
        var out: [Variant] = []
        func replacing(_ range: Range<Int>, with new: String) -> String {
            (String(chars[..<range.lowerBound]) + new + String(chars[range.upperBound...])).trimmingCharacters(in: .whitespaces)
        }
        for (i, t) in tokens.enumerated() {
            let span = self.span(tokens, i, chars)
            switch t.kind {
            case let .symbol(s) where isBinary(tokens, i):
                if let other = swapped[s] { out.append(Variant(kind: "operator swapped", text: replacing(span, with: other))) }
                let operand = self.operand(tokens, from: i + 1, chars)
                let dropped = String(chars[span.lowerBound ..< operand.upperBound].filter { !$0.isWhitespace })
                out.append(Variant(kind: identities.contains(dropped) ? identityDropped : "term dropped",
                                   text: replacing(span.lowerBound ..< operand.upperBound, with: "")))
            case let .identifier(name):
                out.append(Variant(kind: "name misspelt", text: replacing(span, with: ShippedFileMutations.misspelled(name))))
            case .int, .double:
                out.append(Variant(kind: "type changed", text: replacing(span, with: "'\(String(chars[span]))'")))
            case .string:
                out.append(Variant(kind: "type changed", text: replacing(span, with: "1")))
            default:
                break
            }
        }
        return out
    }

    /// Whether the symbol at `i` joins two operands (a `-` or `!` after an operator or at the start is a prefix).
    static func isBinary(_ tokens: [ExprToken], _ i: Int) -> Bool {
        guard case let .symbol(s) = tokens[i].kind, swapped[s] != nil, i > 0 else { return false }
        switch tokens[i - 1].kind {
        case .identifier, .int, .double, .string: return true
        case let .symbol(p): return p == ")" || p == "]"
        case .end: return false
        }
    }

    /// The characters of token `i` (without the spaces after it).
    static func span(_ tokens: [ExprToken], _ i: Int, _ chars: [Character]) -> Range<Int> {
        let start = tokens[i].column - 1
        var end = i + 1 < tokens.count ? tokens[i + 1].column - 1 : chars.count
        while end > start + 1, chars[end - 1].isWhitespace { end -= 1 }
        return start ..< min(end, chars.count)
    }

    /// The operand starting at token `i`: prefixes, then a name with its `.name`s, call and index, a literal, or a
    /// bracketed group.
    static func operand(_ tokens: [ExprToken], from start: Int, _ chars: [Character]) -> Range<Int> {
        var i = start
        while i < tokens.count - 1, tokens[i].kind == .symbol("!") || tokens[i].kind == .symbol("-") { i += 1 }
        var last = closing(tokens, i)
        while last + 2 < tokens.count, [.symbol("."), .symbol("("), .symbol("[")].contains(tokens[last + 1].kind) {
            last = tokens[last + 1].kind == .symbol(".") ? last + 2 : closing(tokens, last + 1)
        }
        let lower = span(tokens, start, chars).lowerBound
        return lower ..< max(lower, span(tokens, min(last, tokens.count - 1), chars).upperBound)
    }

    /// The index of the token closing the bracket at `i` (`i` itself when it opens none).
    static func closing(_ tokens: [ExprToken], _ i: Int) -> Int {
        guard tokens[i].kind == .symbol("(") || tokens[i].kind == .symbol("[") else { return i }
        var depth = 0
        for j in i ..< tokens.count {
            if tokens[j].kind == .symbol("(") || tokens[j].kind == .symbol("[") { depth += 1 }
            if tokens[j].kind == .symbol(")") || tokens[j].kind == .symbol("]") { depth -= 1 }
            if depth == 0 { return j }
        }
        return tokens.count - 1
    }
}
