/// One JSON value in a ``JSONTape``. Object members follow their object as key, value, key, value…;
/// array elements follow their array; `next` skips a whole subtree.
struct JSONNode {
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    let kind: Kind
    /// For a string: no backslash and no control character (JSONDecoder's fast path).
    var isSimple = true
    /// For a string: every byte is ASCII.
    var isASCII = true
    /// String: first byte after the opening quote. Number: its first byte. Others: the first byte.
    let start: Int
    /// String: the closing quote. Number and literals: one past the last byte. Containers: one past
    /// the closing bracket.
    var end: Int
    /// Object: members. Array: elements.
    var count = 0
    /// Index of the node after this value and everything inside it.
    var next = 0

    init(kind: Kind, start: Int, end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
    }
}

/// A syntax error: where, and what.
struct JSONSyntaxError: Error {
    let offset: Int
    let message: String
}

/// Scans a JSON document once into a flat array of ``JSONNode``s, accepting exactly what
/// Foundation's `JSONDecoder` (swift-foundation's `JSONScanner`) accepts before decoding starts:
///
/// - a UTF-8 byte-order mark is skipped; whitespace is space, tab, LF and CR only;
/// - a trailing comma is allowed before `]` and `}` (`[1,]`, `{"a":1,}`), an empty element is not;
/// - containers nest at most 512 deep;
/// - a number is scanned as `-` or a digit followed by any of `0-9 . + - e E`; its grammar is checked
///   only when the number is decoded (``JSONNumber``);
/// - a string ends at the first unescaped `"`; `\u` must be followed by four bytes that are not `"`;
///   escapes, control characters and UTF-8 are checked only when the string is decoded
///   (``JSONString``);
/// - nothing but whitespace may follow the top-level value.
///
/// Payloads in UTF-16 or UTF-32 (which `JSONDecoder` transcodes) are reported as syntax errors.
struct JSONTape {
    static let maxDepth = 512

    private(set) var nodes: [JSONNode] = []
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        nodes.reserveCapacity(max(8, bytes.count / 8))
    }

    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<[JSONNode], JSONSyntaxError> {
        var tape = JSONTape(bytes: bytes)
        do throws(JSONSyntaxError) {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { tape.index = 3 }
            try tape.scanValue()
            tape.skipWhitespace()
            guard tape.index == bytes.count else {
                throw JSONSyntaxError(offset: tape.index, message: "unexpected \(tape.describeByte()) after the top-level value")
            }
            return .success(tape.nodes)
        } catch {
            return .failure(error)
        }
    }

    // MARK: Values

    private mutating func scanValue() throws(JSONSyntaxError) {
        skipWhitespace()
        guard index < bytes.count else { throw endOfData() }
        switch bytes[index] {
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "{"): try scanObject()
        case UInt8(ascii: "["): try scanArray()
        case UInt8(ascii: "t"): try scanLiteral("true", .true)
        case UInt8(ascii: "f"): try scanLiteral("false", .false)
        case UInt8(ascii: "n"): try scanLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): scanNumber()
        default: throw JSONSyntaxError(offset: index, message: "unexpected \(describeByte()) where a value should start")
        }
    }

    private mutating func scanArray() throws(JSONSyntaxError) {
        guard depth < Self.maxDepth else { throw JSONSyntaxError(offset: index, message: "more than \(Self.maxDepth) nested arrays and objects") }
        depth += 1
        defer { depth -= 1 }
        let slot = nodes.count
        nodes.append(JSONNode(kind: .array, start: index, end: index))
        index += 1
        skipWhitespace()
        var count = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
        } else {
            elements: while true {
                try scanValue()
                count += 1
                skipWhitespace()
                guard index < bytes.count else { throw endOfData() }
                switch bytes[index] {
                case UInt8(ascii: "]"):
                    index += 1
                    break elements
                case UInt8(ascii: ","):
                    index += 1
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        break elements
                    }
                default:
                    throw JSONSyntaxError(offset: index, message: "unexpected \(describeByte()) in an array")
                }
            }
        }
        nodes[slot].count = count
        nodes[slot].end = index
        nodes[slot].next = nodes.count
    }

    private mutating func scanObject() throws(JSONSyntaxError) {
        guard depth < Self.maxDepth else { throw JSONSyntaxError(offset: index, message: "more than \(Self.maxDepth) nested arrays and objects") }
        depth += 1
        defer { depth -= 1 }
        let slot = nodes.count
        nodes.append(JSONNode(kind: .object, start: index, end: index))
        index += 1
        skipWhitespace()
        var count = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            members: while true {
                skipWhitespace()
                guard index < bytes.count else { throw endOfData() }
                guard bytes[index] == UInt8(ascii: "\"") else {
                    throw JSONSyntaxError(offset: index, message: "unexpected \(describeByte()) where an object key should start")
                }
                try scanString()
                skipWhitespace()
                guard index < bytes.count else { throw endOfData() }
                guard bytes[index] == UInt8(ascii: ":") else {
                    throw JSONSyntaxError(offset: index, message: "unexpected \(describeByte()) where ':' should follow a key")
                }
                index += 1
                try scanValue()
                count += 1
                skipWhitespace()
                guard index < bytes.count else { throw endOfData() }
                switch bytes[index] {
                case UInt8(ascii: "}"):
                    index += 1
                    break members
                case UInt8(ascii: ","):
                    index += 1
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        break members
                    }
                default:
                    throw JSONSyntaxError(offset: index, message: "unexpected \(describeByte()) in an object")
                }
            }
        }
        nodes[slot].count = count
        nodes[slot].end = index
        nodes[slot].next = nodes.count
    }

    private mutating func scanString() throws(JSONSyntaxError) {
        let quote = index
        index += 1
        let start = index
        var isSimple = true
        var isASCII = true
        while true {
            guard index < bytes.count else { throw JSONSyntaxError(offset: quote, message: "unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                isSimple = false
                guard index + 1 < bytes.count else { throw JSONSyntaxError(offset: quote, message: "unterminated string") }
                let escaped = bytes[index + 1]
                index += 2
                if escaped == UInt8(ascii: "u") {
                    guard index + 4 <= bytes.count else { throw JSONSyntaxError(offset: quote, message: "unterminated string") }
                    for offset in 0..<4 where bytes[index + offset] == UInt8(ascii: "\"") {
                        throw JSONSyntaxError(offset: index, message: "'\"' inside a \\u escape")
                    }
                    index += 4
                }
                continue
            }
            if byte < 0x20 { isSimple = false }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        var node = JSONNode(kind: .string, start: start, end: index)
        node.isSimple = isSimple
        node.isASCII = isASCII
        node.next = nodes.count + 1
        nodes.append(node)
        index += 1
    }

    private mutating func scanNumber() {
        let start = index
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"),
                 UInt8(ascii: "e"), UInt8(ascii: "E"):
                index += 1
            default:
                appendLeaf(.number, start: start)
                return
            }
        }
        appendLeaf(.number, start: start)
    }

    private mutating func scanLiteral(_ word: StaticString, _ kind: JSONNode.Kind) throws(JSONSyntaxError) {
        let start = index
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw endOfData() }
        let matches = word.withUTF8Buffer { expected in
            (0..<length).allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches else { throw JSONSyntaxError(offset: start, message: "invalid literal (expected \(word))") }
        index += length
        appendLeaf(kind, start: start)
    }

    private mutating func appendLeaf(_ kind: JSONNode.Kind, start: Int) {
        var node = JSONNode(kind: kind, start: start, end: index)
        node.next = nodes.count + 1
        nodes.append(node)
    }

    // MARK: Helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func endOfData() -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: "unexpected end of data")
    }

    private func describeByte() -> String {
        guard index < bytes.count else { return "end of data" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
