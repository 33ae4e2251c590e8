import APNsCore

/// Splits Swift source into ``Token``s: names, numbers, string literals (single-line, multi-line and
/// raw, with interpolation), one-character punctuation; skips whitespace and comments (`//`, `///`,
/// nested `/* */`). Every failure is a ``ModelError`` naming the line; no input makes it trap.
struct SwiftLexer {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    /// Where the current line starts in `bytes`, for a token's column.
    private var lineStart = 0
    private var sawLineBreak = true
    private var tokens: [Token] = []

    /// Interpolations nested deeper than this are refused rather than followed.
    private static let maxNesting = 16

    init(source: String, file: String) {
        self.bytes = Array(source.utf8)
        self.file = file
    }

    static func tokenize(source: String, file: String) throws(ModelError) -> [Token] {
        var lexer = SwiftLexer(source: source, file: file)
        return try lexer.run()
    }

    private mutating func run() throws(ModelError) -> [Token] {
        while true {
            try skipTrivia()
            guard let byte = peek() else { break }
            let startLine = line
            let startColumn = index - lineStart + 1
            let startsLine = sawLineBreak
            sawLineBreak = false
            let before = tokens.count
            defer { if tokens.count > before { tokens[before].column = startColumn } }
            if isIdentifierStart(byte) {
                let start = index
                while let next = peek(), isIdentifierContinue(next) { index += 1 }
                append(.identifier, text(start, index), startLine, startsLine)
            } else if byte == UInt8(ascii: "`") {
                index += 1
                let start = index
                while let next = peek(), isIdentifierContinue(next) { index += 1 }
                guard peek() == UInt8(ascii: "`"), index > start else {
                    throw error(startLine, "unterminated or empty backquoted name")
                }
                let name = text(start, index)
                index += 1
                tokens.append(Token(kind: .identifier, text: name, line: startLine, startsLine: startsLine, isEscaped: true, stringValue: nil))
            } else if isDigit(byte) {
                let start = index
                scanNumber()
                append(.number, text(start, index), startLine, startsLine)
            } else if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && isRawStringStart()) {
                let start = index
                let value = try scanStringLiteral(depth: 0)
                tokens.append(Token(kind: .string, text: text(start, index), line: startLine, startsLine: startsLine, isEscaped: false, stringValue: value))
            } else {
                index += 1
                append(.punctuation, String(decoding: [byte], as: UTF8.self), startLine, startsLine)
            }
        }
        tokens.append(Token(kind: .endOfFile, text: "", line: line, startsLine: true, isEscaped: false, stringValue: nil))
        return tokens
    }

    // MARK: Trivia

    private mutating func skipTrivia() throws(ModelError) {
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C:
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                newLine()
            case UInt8(ascii: "\r"):
                index += 1
                if peek() != UInt8(ascii: "\n") { newLine() }
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                while let next = peek(), next != UInt8(ascii: "\n"), next != UInt8(ascii: "\r") { index += 1 }
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                try skipBlockComment()
            default:
                return
            }
        }
    }

    private mutating func skipBlockComment() throws(ModelError) {
        let startLine = line
        var depth = 0
        repeat {
            guard let byte = peek() else { throw error(startLine, "unterminated /* comment") }
            if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if byte == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
            } else {
                index += 1
                if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && peek() != UInt8(ascii: "\n")) { newLine() }
            }
        } while depth > 0
    }

    private mutating func newLine() {
        line += 1
        lineStart = index
        sawLineBreak = true
    }

    // MARK: Numbers

    private mutating func scanNumber() {
        let isHex = peek() == UInt8(ascii: "0") && (peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X"))
        while let byte = peek() {
            if isIdentifierContinue(byte) && byte < 0x80 {
                index += 1
                let exponentMark = isHex ? (byte == UInt8(ascii: "p") || byte == UInt8(ascii: "P"))
                                         : (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E"))
                if exponentMark, let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
                   let digit = peek(1), isDigit(digit) {
                    index += 1
                }
            } else if byte == UInt8(ascii: "."), let next = peek(1), isDigit(next) || (isHex && DeviceToken.isHexDigit(next)) {
                index += 1
            } else {
                return
            }
        }
    }

    // MARK: Strings

    private func isRawStringStart() -> Bool {
        var offset = 0
        while peek(offset) == UInt8(ascii: "#") { offset += 1 }
        return peek(offset) == UInt8(ascii: "\"")
    }

    /// Scans a string literal starting at `index` (at its `#`s or opening quote). Returns its value,
    /// or nil when it has interpolation, is multi-line, or has an escape this lexer does not decode.
    private mutating func scanStringLiteral(depth: Int) throws(ModelError) -> String? {
        let startLine = line
        guard depth < Self.maxNesting else { throw error(startLine, "string interpolation nested too deeply") }
        var hashes = 0
        while peek() == UInt8(ascii: "#") { hashes += 1; index += 1 }
        guard peek() == UInt8(ascii: "\"") else { throw error(startLine, "malformed string literal") }
        let multiline = peek(1) == UInt8(ascii: "\"") && peek(2) == UInt8(ascii: "\"")
        index += multiline ? 3 : 1
        var value: [UInt8]? = multiline ? nil : []
        while true {
            guard let byte = peek() else { throw error(startLine, "unterminated string literal") }
            if byte == UInt8(ascii: "\"") && closesString(multiline: multiline, hashes: hashes) {
                index += (multiline ? 3 : 1) + hashes
                return value.map { String(decoding: $0, as: UTF8.self) }
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                guard multiline else { throw error(startLine, "unterminated string literal") }
                index += 1
                if !(byte == UInt8(ascii: "\r") && peek() == UInt8(ascii: "\n")) { newLine() }
                continue
            }
            if byte == UInt8(ascii: "\\") && escapeFollows(hashes: hashes) {
                index += 1 + hashes
                guard let escaped = peek() else { throw error(startLine, "unterminated string literal") }
                index += 1
                switch escaped {
                case UInt8(ascii: "("):
                    try skipInterpolation(depth: depth, startLine: startLine)
                    value = nil
                case UInt8(ascii: "n"): value?.append(0x0A)
                case UInt8(ascii: "t"): value?.append(0x09)
                case UInt8(ascii: "r"): value?.append(0x0D)
                case UInt8(ascii: "0"): value?.append(0x00)
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): value?.append(escaped)
                case UInt8(ascii: "u"):
                    let scalar = scanUnicodeEscape()
                    if let scalar, value != nil { value?.append(contentsOf: Array(String(Character(scalar)).utf8)) } else { value = nil }
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    // A line continuation inside a multi-line literal.
                    index -= 1
                    value = nil
                default:
                    value = nil
                }
                continue
            }
            value?.append(byte)
            index += 1
        }
    }

    private func closesString(multiline: Bool, hashes: Int) -> Bool {
        let quotes = multiline ? 3 : 1
        for offset in 0..<quotes where peek(offset) != UInt8(ascii: "\"") { return false }
        for offset in 0..<hashes where peek(quotes + offset) != UInt8(ascii: "#") { return false }
        return true
    }

    private func escapeFollows(hashes: Int) -> Bool {
        for offset in 0..<hashes where peek(1 + offset) != UInt8(ascii: "#") { return false }
        return true
    }

    /// After `\u`: reads `{hex}` and returns the scalar, or nil (leaving `index` past what was read).
    private mutating func scanUnicodeEscape() -> Unicode.Scalar? {
        guard peek() == UInt8(ascii: "{") else { return nil }
        index += 1
        var scalar: UInt32 = 0
        var digits = 0
        while let byte = peek(), DeviceToken.isHexDigit(byte) {
            scalar = digits < 8 ? scalar &* 16 &+ UInt32(hexValue(byte)) : scalar
            digits += 1
            index += 1
        }
        guard peek() == UInt8(ascii: "}"), (1...8).contains(digits) else { return nil }
        index += 1
        return Unicode.Scalar(scalar)
    }

    /// After `\(`: skips to the matching `)`, following nested parentheses and string literals.
    private mutating func skipInterpolation(depth: Int, startLine: Int) throws(ModelError) {
        var parens = 1
        while parens > 0 {
            guard let byte = peek() else { throw error(startLine, "unterminated string interpolation") }
            if byte == UInt8(ascii: "\"") || (byte == UInt8(ascii: "#") && isRawStringStart()) {
                _ = try scanStringLiteral(depth: depth + 1)
                continue
            }
            index += 1
            if byte == UInt8(ascii: "(") { parens += 1 }
            if byte == UInt8(ascii: ")") { parens -= 1 }
            if byte == UInt8(ascii: "\n") { newLine() }
        }
    }

    // MARK: Helpers

    private func peek(_ offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func append(_ kind: Token.Kind, _ text: String, _ line: Int, _ startsLine: Bool) {
        tokens.append(Token(kind: kind, text: text, line: line, startsLine: startsLine, isEscaped: false, stringValue: nil))
    }

    private func error(_ line: Int, _ message: String) -> ModelError {
        ModelError(file: file, line: line, message: message)
    }

    private func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private func isIdentifierContinue(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func hexValue(_ byte: UInt8) -> UInt8 {
        if isDigit(byte) { return byte - UInt8(ascii: "0") }
        if byte >= UInt8(ascii: "a") { return byte - UInt8(ascii: "a") + 10 }
        return byte - UInt8(ascii: "A") + 10
    }
}
