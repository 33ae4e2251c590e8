/// The scan behind ``JSONTape``: one pass over the bytes, appending to `nodes` (the tape's array, moved
/// in for the scan and back out after it, so that its storage is reused).
struct JSONScanner {
    var nodes: [JSONNode] = []
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// The most containers a value has stood inside so far.
    private(set) var deepest = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The whole document: a byte-order mark, one value, whitespace.
    mutating func scanDocument() throws(JSONSyntaxError) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        try scanValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeByte()) after the top-level value")
        }
    }

    // MARK: Values

    private mutating func scanValue() throws(JSONSyntaxError) {
        if depth > deepest { deepest = depth }
        skipWhitespace()
        guard index < bytes.count else { throw endOfData() }
        switch bytes[index] {
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "{"): try scanContainer(.object)
        case UInt8(ascii: "["): try scanContainer(.array)
        case UInt8(ascii: "t"): try scanLiteral("true", .true)
        case UInt8(ascii: "f"): try scanLiteral("false", .false)
        case UInt8(ascii: "n"): try scanLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): scanNumber()
        default: throw JSONSyntaxError(offset: index, message: "unexpected \(describeByte()) where a value should start")
        }
    }

    /// An array or an object: its node, then its elements or members (a trailing comma before the closing
    /// bracket allowed); the node's count, end and next once it is closed.
    private mutating func scanContainer(_ kind: JSONNode.Kind) throws(JSONSyntaxError) {
        guard depth < JSONTape.maxDepth else { throw JSONSyntaxError(offset: index, message: "more than \(JSONTape.maxDepth) nested arrays and objects") }
        depth += 1
        defer { depth -= 1 }
        let isObject = kind == .object
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let slot = nodes.count
        nodes.append(JSONNode(kind: kind, start: index, end: index))
        index += 1
        skipWhitespace()
        var count = 0
        if index < bytes.count, bytes[index] == close {
            index += 1
        } else {
            items: while true {
                if isObject { try scanKey() }
                try scanValue()
                count += 1
                skipWhitespace()
                guard index < bytes.count else { throw endOfData() }
                switch bytes[index] {
                case close:
                    index += 1
                    break items
                case UInt8(ascii: ","):
                    index += 1
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == close {
                        index += 1
                        break items
                    }
                default:
                    throw JSONSyntaxError(offset: index, message: "unexpected \(describeByte()) in \(isObject ? "an object" : "an array")")
                }
            }
        }
        nodes[slot].count = count
        nodes[slot].end = index
        nodes[slot].next = nodes.count
    }

    /// An object member's key and the ':' after it.
    private mutating func scanKey() throws(JSONSyntaxError) {
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
    }

    private mutating func scanString() throws(JSONSyntaxError) {
        let quote = index
        let start = index + 1
        let count = bytes.count
        var isSimple = true
        var highBits: UInt8 = 0  // the bytes outside escapes or-ed: ASCII when its top bit is clear
        // A local index over the bytes: most of a payload is string bytes.
        var i = start
        while true {
            guard i < count else { throw JSONSyntaxError(offset: quote, message: "unterminated string") }
            let byte = bytes[i]
            // Neither a quote (0x22), a backslash (0x5C) nor a control character: the common case.
            if byte > 0x5C || (byte > 0x22 && byte < 0x5C) || byte == 0x20 || byte == 0x21 {
                highBits |= byte
                i += 1
                continue
            }
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 {
                isSimple = false
                i += 1
                continue
            }
            // A backslash.
            isSimple = false
            guard i + 1 < count else { throw JSONSyntaxError(offset: quote, message: "unterminated string") }
            let escaped = bytes[i + 1]
            i += 2
            if escaped == UInt8(ascii: "u") {
                guard i + 4 <= count else { throw JSONSyntaxError(offset: quote, message: "unterminated string") }
                for offset in 0..<4 where bytes[i + offset] == UInt8(ascii: "\"") {
                    throw JSONSyntaxError(offset: i, message: "'\"' inside a \\u escape")
                }
                i += 4
            }
        }
        var node = JSONNode(kind: .string, start: start, end: i)
        node.isSimple = isSimple
        node.isASCII = highBits < 0x80
        node.next = nodes.count + 1
        nodes.append(node)
        index = i + 1
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
        while index < bytes.count, JSONTape.isWhitespace(bytes[index]) { index += 1 }
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
