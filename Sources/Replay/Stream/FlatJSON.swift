#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small, strict, fast parser for one JSON object per line (the lines of a recorded stream).
///
/// What it accepts: a single JSON object (RFC 8259), surrounded by optional whitespace, nothing
/// after it. Its top-level fields are indexed and read through `FlatJSONObject`'s typed accessors;
/// values are strings, numbers, booleans, null, or arrays. Nested objects and arrays are
/// **skipped but validated**: the line is rejected if they are not valid JSON or nest deeper than
/// `maxNestingDepth`. A nested object's fields are indexed only when asked for, by
/// `FlatJSONObject.nested(_:)`.
///
/// Strict where JSON is loose: duplicate top-level keys are an error (`notJSON`), and so are
/// invalid UTF-8, unescaped control characters, and `\u` escapes with an unpaired surrogate.
/// Full escapes are supported (`\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` `\uXXXX`, surrogate pairs);
/// raw UTF-8 passes through. Duplicate keys inside a nested object are found when it is read with
/// `nested(_:)`, not when the line is parsed.
///
/// Cost: parsing validates every byte once and records each field's position; it decodes nothing.
/// A string is decoded when an accessor asks for it, a number is parsed during validation.
/// Allocations per line: the field table (and one string per key that uses escapes).
public enum FlatJSON {
    /// The JSON type of a value, as named in error messages.
    public enum ValueType: String, Equatable, Sendable, CustomStringConvertible {
        case string
        /// A number without fraction or exponent (`-12`, `0`), even if it is out of `Int` range.
        case integer
        /// A number with a fraction or an exponent (`1.5`, `1e3`, `1.0`).
        case number
        case boolean
        case null
        case array
        case object

        /// With an article, for messages: "a string", "an integer", "null".
        public var phrase: String {
            switch self {
            case .string: return "a string"
            case .integer: return "an integer"
            case .number: return "a number"
            case .boolean: return "a boolean"
            case .null: return "null"
            case .array: return "an array"
            case .object: return "an object"
            }
        }

        public var description: String { rawValue }
    }

    /// How deep arrays and objects may nest inside the line's object (that object is level 0).
    public static let maxNestingDepth = 64

    /// Parses one line.
    /// - Parameters:
    ///   - bytes: The line's bytes (UTF-8), without its terminator.
    ///   - line: The line number (1-based) to put into errors, here and in the object's accessors.
    /// - Throws: `StreamLineError` with cause `.notJSON(detail)`; the detail gives a 1-based byte
    ///   position within the line, e.g. `unterminated string at byte 41`.
    public static func parse(_ bytes: ArraySlice<UInt8>, line: Int) throws -> FlatJSONObject {
        try parseLine(bytes, line: line)
    }

    /// Parses one line given as text (convenience for tests and tools). Throws `StreamLineError`.
    public static func parse(_ text: String, line: Int = 1) throws -> FlatJSONObject {
        try parseLine(Array(text.utf8)[...], line: line)
    }

    /// `parse(_:line:)` with a typed error (the public API throws untyped errors: see `StreamError`).
    static func parseLine(_ bytes: ArraySlice<UInt8>, line: Int) throws(StreamLineError) -> FlatJSONObject {
        let result: Result<Parser.Output, StreamLineError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(buffer: buffer, line: line)
            return Result { () throws(StreamLineError) in try parser.parseLine() }
        }
        let output = try result.get()
        return FlatJSONObject(line: line, bytes: bytes, fields: output.fields, escapedKeys: output.escapedKeys)
    }

    // MARK: - Scanners shared by the parser and the accessors

    /// Why a scanner stopped; `at` is a 0-based byte offset.
    enum ScanError: Error {
        case unterminatedString(at: Int)
        case invalidEscape(at: Int)
        case invalidUnicodeEscape(at: Int)
        case unpairedSurrogate(at: Int)
        case controlCharacter(at: Int)
        case invalidUTF8(at: Int)
        case invalidNumber(at: Int)

        var detail: String {
            switch self {
            case let .unterminatedString(at): return "unterminated string at byte \(at + 1)"
            case let .invalidEscape(at): return "invalid escape at byte \(at + 1)"
            case let .invalidUnicodeEscape(at): return "invalid \\u escape at byte \(at + 1)"
            case let .unpairedSurrogate(at): return "unpaired UTF-16 surrogate at byte \(at + 1)"
            case let .controlCharacter(at): return "unescaped control character in string at byte \(at + 1)"
            case let .invalidUTF8(at): return "invalid UTF-8 at byte \(at + 1)"
            case let .invalidNumber(at): return "invalid number at byte \(at + 1)"
            }
        }
    }

    /// A scanned string: its content is `start..<end` (between the quotes).
    struct StringToken {
        var start: Int
        var end: Int
        var hasEscapes: Bool
    }

    /// A scanned number. `value` is meaningful when `isInteger && !overflow`.
    struct NumberToken {
        var isInteger: Bool
        var value: Int64
        var overflow: Bool
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The type of the value that starts with `byte`, or nil if no JSON value starts with it.
    static func valueType(startingWith byte: UInt8) -> ValueType? {
        switch byte {
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), 0x30 ... 0x39: return .integer
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "{"): return .object
        default: return nil
        }
    }

    /// The value of a hex digit, or nil.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30 ... 0x39: return UInt32(byte - 0x30)
        case 0x41 ... 0x46: return UInt32(byte - 0x41 + 10)
        case 0x61 ... 0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }

    /// The code unit of the `\uXXXX` escape whose backslash is at `at`, or nil if malformed or
    /// cut off by `limit`.
    static func unicodeEscape(_ p: UnsafeBufferPointer<UInt8>, at: Int, limit: Int) -> UInt32? {
        guard at + 6 <= limit, p[at] == UInt8(ascii: "\\"), p[at + 1] == UInt8(ascii: "u"),
              let a = hexValue(p[at + 2]), let b = hexValue(p[at + 3]),
              let c = hexValue(p[at + 4]), let d = hexValue(p[at + 5])
        else { return nil }
        return a << 12 | b << 8 | c << 4 | d
    }

    /// Scans a string whose opening quote is at `i`, validating escapes and UTF-8; leaves `i`
    /// after the closing quote.
    static func scanString(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, limit: Int) throws(ScanError) -> StringToken {
        let open = i
        i += 1
        let contentStart = i
        var hasEscapes = false
        while true {
            // Fast path: skip 8 plain ASCII bytes at a time (no quote, backslash, control, non-ASCII).
            if let base = p.baseAddress {
                let raw = UnsafeRawPointer(base)
                while i + 8 <= limit {
                    let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    if hasSpecialByte(word) { break }
                    i += 8
                }
            }
            guard i < limit else { throw .unterminatedString(at: open) }
            let byte = p[i]
            if byte == UInt8(ascii: "\"") {
                let token = StringToken(start: contentStart, end: i, hasEscapes: hasEscapes)
                i += 1
                return token
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                guard i + 1 < limit else { throw .unterminatedString(at: open) }
                switch p[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"),
                     UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard let unit = unicodeEscape(p, at: i, limit: limit) else {
                        throw .invalidUnicodeEscape(at: i)
                    }
                    if unit >= 0xD800 && unit <= 0xDBFF {
                        guard let low = unicodeEscape(p, at: i + 6, limit: limit), low >= 0xDC00 && low <= 0xDFFF else {
                            throw .unpairedSurrogate(at: i)
                        }
                        i += 12
                    } else if unit >= 0xDC00 && unit <= 0xDFFF {
                        throw .unpairedSurrogate(at: i)
                    } else {
                        i += 6
                    }
                default:
                    throw .invalidEscape(at: i)
                }
                continue
            }
            if byte < 0x20 { throw .controlCharacter(at: i) }
            if byte < 0x80 {
                i += 1
                continue
            }
            try scanUTF8Sequence(p, &i, limit: limit)
        }
    }

    /// Whether any byte of `word` is a quote, a backslash, a control character or non-ASCII
    /// (the bytes `scanString` must look at one by one). Bit tricks from "Bit Twiddling Hacks".
    @inline(__always)
    static func hasSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let control = (word &- ones &* 0x20) & ~word & highs  // some byte < 0x20 (or ≥ 0x80)
        let quote = hasZeroByte(word ^ (ones &* 0x22))
        let backslash = hasZeroByte(word ^ (ones &* 0x5C))
        return (word & highs) | control | quote | backslash != 0
    }

    /// Validates one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF)
    /// starting at `i` and steps over it.
    @inline(__always)
    static func scanUTF8Sequence(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, limit: Int) throws(ScanError) {
        let lead = p[i]
        let length: Int
        var secondLow: UInt8 = 0x80
        var secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0: length = 3; secondLow = 0xA0
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
        case 0xED: length = 3; secondHigh = 0x9F
        case 0xF0: length = 4; secondLow = 0x90
        case 0xF1 ... 0xF3: length = 4
        case 0xF4: length = 4; secondHigh = 0x8F
        default: throw .invalidUTF8(at: i)
        }
        guard i + length <= limit else { throw .invalidUTF8(at: i) }
        let second = p[i + 1]
        guard second >= secondLow && second <= secondHigh else { throw .invalidUTF8(at: i) }
        var index = i + 2
        while index < i + length {
            guard p[index] & 0xC0 == 0x80 else { throw .invalidUTF8(at: i) }
            index += 1
        }
        i += length
    }

    /// Scans a number starting at `i` (JSON grammar) and leaves `i` after it. Integers (no fraction,
    /// no exponent) are converted to Int64, with `overflow` set if they do not fit.
    static func scanNumber(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, limit: Int) throws(ScanError) -> NumberToken {
        let start = i
        var negative = false
        if i < limit && p[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < limit, isDigit(p[i]) else { throw .invalidNumber(at: start) }
        // Accumulate negatively so that Int64.min fits.
        var value: Int64 = 0
        var overflow = false
        if p[i] == 0x30 {
            i += 1
            if i < limit && isDigit(p[i]) { throw .invalidNumber(at: start) }  // leading zero
        } else {
            while i < limit, isDigit(p[i]) {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(Int64(p[i] - 0x30))
                overflow = overflow || o1 || o2
                value = next
                i += 1
            }
        }
        var isInteger = true
        if i < limit && p[i] == UInt8(ascii: ".") {
            i += 1
            guard i < limit, isDigit(p[i]) else { throw .invalidNumber(at: start) }
            while i < limit, isDigit(p[i]) { i += 1 }
            isInteger = false
        }
        if i < limit && (p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E")) {
            i += 1
            if i < limit && (p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < limit, isDigit(p[i]) else { throw .invalidNumber(at: start) }
            while i < limit, isDigit(p[i]) { i += 1 }
            isInteger = false
        }
        if !negative && !overflow {
            if value == Int64.min { overflow = true } else { value = -value }
        }
        return NumberToken(isInteger: isInteger, value: overflow ? 0 : value, overflow: overflow)
    }

    /// Whether `p[i...]` starts with `literal`.
    @inline(__always)
    static func matches(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, limit: Int, _ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { word in
            guard i + word.count <= limit else { return false }
            for k in 0 ..< word.count where p[i + k] != word[k] { return false }
            return true
        }
    }

    /// Decodes the string content `start..<end` (already validated by `scanString`).
    /// Length: every string of every recording line passes here; escapes, `\\u` surrogate pairs and the copy
    /// without escapes share one loop over the bytes, with no call per character.
    static func decodeString(_ p: UnsafeBufferPointer<UInt8>, _ token: StringToken) -> String {
        let count = token.end - token.start
        guard count > 0 else { return "" }
        guard token.hasEscapes else {
            return String(decoding: UnsafeBufferPointer(rebasing: p[token.start ..< token.end]), as: UTF8.self)
        }
        // Decoded text is never longer than its escaped form (`\uXXXX` is 6 bytes, at most 3 in
        // UTF-8; a surrogate pair is 12 bytes, 4 in UTF-8).
        return String(unsafeUninitializedCapacity: count) { out in
            var w = 0
            var i = token.start
            func put(_ byte: UInt8) {
                if w < out.count {
                    out[w] = byte
                    w += 1
                }
            }
            func put(scalar: UInt32) {
                switch scalar {
                case 0 ..< 0x80:
                    put(UInt8(scalar))
                case 0x80 ..< 0x800:
                    put(UInt8(0xC0 | scalar >> 6))
                    put(UInt8(0x80 | scalar & 0x3F))
                case 0x800 ..< 0x10000:
                    put(UInt8(0xE0 | scalar >> 12))
                    put(UInt8(0x80 | scalar >> 6 & 0x3F))
                    put(UInt8(0x80 | scalar & 0x3F))
                default:
                    put(UInt8(0xF0 | scalar >> 18))
                    put(UInt8(0x80 | scalar >> 12 & 0x3F))
                    put(UInt8(0x80 | scalar >> 6 & 0x3F))
                    put(UInt8(0x80 | scalar & 0x3F))
                }
            }
            while i < token.end {
                let byte = p[i]
                guard byte == UInt8(ascii: "\\"), i + 1 < token.end else {
                    put(byte)
                    i += 1
                    continue
                }
                switch p[i + 1] {
                case UInt8(ascii: "b"): put(0x08); i += 2
                case UInt8(ascii: "f"): put(0x0C); i += 2
                case UInt8(ascii: "n"): put(0x0A); i += 2
                case UInt8(ascii: "r"): put(0x0D); i += 2
                case UInt8(ascii: "t"): put(0x09); i += 2
                case UInt8(ascii: "u"):
                    guard let unit = unicodeEscape(p, at: i, limit: token.end) else {
                        put(scalar: 0xFFFD)
                        i += 2
                        continue
                    }
                    if unit >= 0xD800 && unit <= 0xDBFF,
                       let low = unicodeEscape(p, at: i + 6, limit: token.end), low >= 0xDC00 && low <= 0xDFFF {
                        put(scalar: 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                        i += 12
                    } else if unit >= 0xD800 && unit <= 0xDFFF {
                        put(scalar: 0xFFFD)
                        i += 6
                    } else {
                        put(scalar: unit)
                        i += 6
                    }
                default:  // `\"`, `\\`, `\/`: the character itself
                    put(p[i + 1])
                    i += 2
                }
            }
            return w
        }
    }

    // MARK: - The line parser

    struct Parser {
        struct Output {
            var fields: [FlatJSONObject.Field]
            var escapedKeys: [String]
        }

        let p: UnsafeBufferPointer<UInt8>
        let line: Int
        var i = 0
        var fields: [FlatJSONObject.Field] = []
        var escapedKeys: [String] = []
        /// Decoded keys, used instead of pairwise comparison once an object has many keys.
        var keySet: Set<[UInt8]>?

        /// Above this many keys, duplicates are found with a hash set rather than by comparison.
        static let linearKeyLimit = 24

        init(buffer: UnsafeBufferPointer<UInt8>, line: Int) {
            self.p = buffer
            self.line = line
        }

        func fail(_ detail: String) -> StreamLineError {
            StreamLineError(line: line, cause: .notJSON(detail))
        }

        func fail(_ error: ScanError) -> StreamLineError { fail(error.detail) }

        /// "expected X at byte N", or "unexpected end of line, expected X" at the end.
        func expected(_ what: String) -> StreamLineError {
            i < p.count ? fail("expected \(what) at byte \(i + 1)") : fail("unexpected end of line, expected \(what)")
        }

        /// After a member of an array or object: steps over `,` and returns false (another member follows),
        /// or over the closing `close` and returns true (the container ended); anything else is an error.
        mutating func endOfMember(close: UInt8) throws(StreamLineError) -> Bool {
            let what = close == UInt8(ascii: "]") ? "',' or ']'" : "',' or '}'"
            guard i < p.count else { throw expected(what) }
            if p[i] == UInt8(ascii: ",") {
                i += 1
                return false
            }
            if p[i] == close {
                i += 1
                return true
            }
            throw expected(what)
        }

        @inline(__always)
        mutating func skipWhitespace() {
            while i < p.count && FlatJSON.isWhitespace(p[i]) { i += 1 }
        }

        mutating func parseLine() throws(StreamLineError) -> Output {
            skipWhitespace()
            guard i < p.count else { throw fail("empty line") }
            guard p[i] == UInt8(ascii: "{") else {
                if let type = FlatJSON.valueType(startingWith: p[i]) {
                    throw fail("top level is \(type.phrase), not an object")
                }
                throw expected("'{'")
            }
            try parseMembers()
            skipWhitespace()
            guard i == p.count else { throw fail("unexpected characters after the object at byte \(i + 1)") }
            return Output(fields: fields, escapedKeys: escapedKeys)
        }

        /// Parses a nested object whose `{` is at `i` and whose `}` is the buffer's last byte (the
        /// buffer is the line up to there, validated when the line was parsed; only its duplicate
        /// keys are new checks).
        mutating func parseNestedObject() throws(StreamLineError) -> Output {
            try parseMembers()
            guard i == p.count else { throw fail("unexpected characters after the object at byte \(i + 1)") }
            return Output(fields: fields, escapedKeys: escapedKeys)
        }

        /// Parses the members of the object whose `{` is at `i`, through its `}`.
        mutating func parseMembers() throws(StreamLineError) {
            i += 1
            fields.reserveCapacity(12)
            skipWhitespace()
            if i < p.count && p[i] == UInt8(ascii: "}") {
                i += 1
                return
            }
            while true {
                skipWhitespace()
                guard i < p.count, p[i] == UInt8(ascii: "\"") else { throw expected("a key in double quotes") }
                let keyOffset = i
                let key: StringToken
                do throws(ScanError) { key = try FlatJSON.scanString(p, &i, limit: p.count) } catch { throw fail(error) }
                let escapedKey = try register(key: key, at: keyOffset)
                skipWhitespace()
                guard i < p.count, p[i] == UInt8(ascii: ":") else { throw expected("':'") }
                i += 1
                skipWhitespace()
                var field = FlatJSONObject.Field(
                    keyStart: key.start, keyEnd: key.end, escapedKey: escapedKey,
                    type: .null, valueStart: i, valueEnd: i, hasEscapes: false, intValue: 0, overflow: false)
                try scanFieldValue(into: &field)
                fields.append(field)
                skipWhitespace()
                if try endOfMember(close: UInt8(ascii: "}")) { return }
            }
        }

        /// Checks that `key` is new; returns the index of its decoded form in `escapedKeys`, or -1
        /// when the key has no escapes (its raw bytes are the key).
        mutating func register(key: StringToken, at offset: Int) throws(StreamLineError) -> Int {
            var escapedIndex = -1
            if key.hasEscapes {
                escapedIndex = escapedKeys.count
                escapedKeys.append(FlatJSON.decodeString(p, key))
            }
            if fields.count < Parser.linearKeyLimit {
                for field in fields where sameKey(field, key, escapedIndex) {
                    throw duplicate(key, escapedIndex, offset)
                }
                return escapedIndex
            }
            if keySet == nil {
                var set = Set<[UInt8]>(minimumCapacity: fields.count * 2)
                for field in fields { set.insert(keyBytes(field.keyStart, field.keyEnd, field.escapedKey)) }
                keySet = set
            }
            let decoded = keyBytes(key.start, key.end, escapedIndex)
            if keySet?.insert(decoded).inserted == false {
                throw duplicate(key, escapedIndex, offset)
            }
            return escapedIndex
        }

        func duplicate(_ key: StringToken, _ escapedIndex: Int, _ offset: Int) -> StreamLineError {
            let name = String(decoding: keyBytes(key.start, key.end, escapedIndex), as: UTF8.self)
            return fail("duplicate key '\(StreamLineError.Cause.clip(name))' at byte \(offset + 1)")
        }

        /// The decoded bytes of a key.
        func keyBytes(_ start: Int, _ end: Int, _ escapedIndex: Int) -> [UInt8] {
            escapedIndex >= 0 ? Array(escapedKeys[escapedIndex].utf8) : Array(p[start ..< end])
        }

        func sameKey(_ field: FlatJSONObject.Field, _ key: StringToken, _ escapedIndex: Int) -> Bool {
            if field.escapedKey < 0 && escapedIndex < 0 {
                let length = key.end - key.start
                guard field.keyEnd - field.keyStart == length else { return false }
                guard length > 0, let base = p.baseAddress else { return true }
                return memcmp(base + field.keyStart, base + key.start, length) == 0
            }
            return keyBytes(field.keyStart, field.keyEnd, field.escapedKey) == keyBytes(key.start, key.end, escapedIndex)
        }

        /// Scans a top-level field's value at `i` and records its type and position.
        mutating func scanFieldValue(into field: inout FlatJSONObject.Field) throws(StreamLineError) {
            guard i < p.count else { throw expected("a value") }
            field.valueStart = i
            switch p[i] {
            case UInt8(ascii: "\""):
                let token: StringToken
                do throws(ScanError) { token = try FlatJSON.scanString(p, &i, limit: p.count) } catch { throw fail(error) }
                field.type = .string
                field.valueStart = token.start
                field.valueEnd = token.end
                field.hasEscapes = token.hasEscapes
                return
            case UInt8(ascii: "-"), 0x30 ... 0x39:
                let number: NumberToken
                do throws(ScanError) { number = try FlatJSON.scanNumber(p, &i, limit: p.count) } catch { throw fail(error) }
                field.type = number.isInteger ? .integer : .number
                field.intValue = number.value
                field.overflow = number.overflow
            case UInt8(ascii: "["):
                try skipArray(depth: 1)
                field.type = .array
            case UInt8(ascii: "{"):
                try skipObject(depth: 1)
                field.type = .object
            default:
                field.type = try scanLiteral()
            }
            field.valueEnd = i
        }

        /// `true`, `false` or `null` at `i`.
        mutating func scanLiteral() throws(StreamLineError) -> ValueType {
            if FlatJSON.matches(p, i, limit: p.count, "true") {
                i += 4
                return .boolean
            }
            if FlatJSON.matches(p, i, limit: p.count, "false") {
                i += 5
                return .boolean
            }
            if FlatJSON.matches(p, i, limit: p.count, "null") {
                i += 4
                return .null
            }
            throw expected("a value")
        }

        /// Validates any value at `i` (nested in an array or object) and steps over it.
        mutating func skipValue(depth: Int) throws(StreamLineError) {
            guard i < p.count else { throw expected("a value") }
            switch p[i] {
            case UInt8(ascii: "\""):
                do throws(ScanError) { _ = try FlatJSON.scanString(p, &i, limit: p.count) } catch { throw fail(error) }
            case UInt8(ascii: "-"), 0x30 ... 0x39:
                do throws(ScanError) { _ = try FlatJSON.scanNumber(p, &i, limit: p.count) } catch { throw fail(error) }
            case UInt8(ascii: "["):
                try skipArray(depth: depth + 1)
            case UInt8(ascii: "{"):
                try skipObject(depth: depth + 1)
            default:
                _ = try scanLiteral()
            }
        }

        /// Steps into the array or object whose opening bracket is at `i`, at nesting level `depth`: true when
        /// it is empty (`close` follows), and then it is stepped over whole.
        @inline(__always)
        mutating func enterContainer(depth: Int, close: UInt8) throws(StreamLineError) -> Bool {
            guard depth <= FlatJSON.maxNestingDepth else {
                throw fail("nesting deeper than \(FlatJSON.maxNestingDepth) levels at byte \(i + 1)")
            }
            i += 1
            skipWhitespace()
            guard i < p.count && p[i] == close else { return false }
            i += 1
            return true
        }

        /// Validates the array whose `[` is at `i`, at nesting level `depth`, and steps over it.
        mutating func skipArray(depth: Int) throws(StreamLineError) {
            if try enterContainer(depth: depth, close: UInt8(ascii: "]")) { return }
            while true {
                skipWhitespace()
                try skipValue(depth: depth)
                skipWhitespace()
                if try endOfMember(close: UInt8(ascii: "]")) { return }
            }
        }

        /// Validates the object whose `{` is at `i`, at nesting level `depth`, and steps over it.
        mutating func skipObject(depth: Int) throws(StreamLineError) {
            if try enterContainer(depth: depth, close: UInt8(ascii: "}")) { return }
            while true {
                skipWhitespace()
                guard i < p.count, p[i] == UInt8(ascii: "\"") else { throw expected("a key in double quotes") }
                do throws(ScanError) { _ = try FlatJSON.scanString(p, &i, limit: p.count) } catch { throw fail(error) }
                skipWhitespace()
                guard i < p.count, p[i] == UInt8(ascii: ":") else { throw expected("':'") }
                i += 1
                skipWhitespace()
                try skipValue(depth: depth)
                skipWhitespace()
                if try endOfMember(close: UInt8(ascii: "}")) { return }
            }
        }
    }
}
