/// Compiles a template's text into literal runs and slots: one pass over its bytes, outside strings
/// (whitespace dropped, a whole-value slot `"{{name}}"` or `"{{#name|format}}"`) and inside them (escapes
/// kept, a splice `{{name}}`).
struct TemplateCompiler {
    typealias Part = PayloadTemplate.Part
    typealias SlotKind = PayloadTemplate.SlotKind
    typealias SlotFormat = PayloadTemplate.SlotFormat
    typealias CompileError = PayloadTemplate.CompileError

    let bytes: [UInt8]
    let source: String
    var literal: [UInt8] = []
    var parts: [Part] = []
    var names: [String] = []
    var kinds: [SlotKind] = []
    var formats: [SlotFormat?] = []
    private var literalStart = 0
    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), brace = UInt8(ascii: "{"), close = UInt8(ascii: "}")

    init(bytes: [UInt8], source: String) {
        self.bytes = bytes
        self.source = source
    }

    mutating func run() throws {
        var i = 0
        var inString = false
        while i < bytes.count {
            let c = bytes[i]
            if !inString {
                if c == Self.quote {
                    if let next = try wholeValueSlot(at: i) { i = next; continue }
                    inString = true
                    literal.append(c)
                } else if c != 0x20, c != 0x0A, c != 0x0D, c != 0x09 {
                    literal.append(c)
                }
                i += 1
                continue
            }
            if c == Self.backslash, i + 1 < bytes.count {
                literal.append(c); literal.append(bytes[i + 1]); i += 2; continue
            }
            if c == Self.quote { inString = false; literal.append(c); i += 1; continue }
            if c == Self.brace, i + 1 < bytes.count, bytes[i + 1] == Self.brace {
                i = try splice(at: i)
                continue
            }
            literal.append(c)
            i += 1
        }
        flush()
    }

    /// A whole-value slot, `"{{name}}"` or `"{{#name}}"` (with `|format`), at the quote at `i`: the index after
    /// its closing quote; nil when the string there is not one.
    private mutating func wholeValueSlot(at i: Int) throws -> Int? {
        guard i + 2 < bytes.count, bytes[i + 1] == Self.brace, bytes[i + 2] == Self.brace,
              let end = Self.find(Self.close, Self.close, in: bytes, from: i + 3), end + 2 < bytes.count, bytes[end + 2] == Self.quote
        else { return nil }
        var name = String(decoding: bytes[(i + 3)..<end], as: UTF8.self)
        let kind: SlotKind = name.hasPrefix("#") ? .integer : .string
        if kind == .integer { name.removeFirst() }
        var format: SlotFormat?
        if let bar = name.firstIndex(of: "|") {
            let text = String(name[name.index(after: bar)...])
            name = String(name[..<bar])
            guard let f = SlotFormat(rawValue: text) else {
                throw CompileError.unknownFormat(source: source, name: name, format: text)
            }
            guard f.isTime == (kind == .integer) else { throw CompileError.formatNeedsKind(source: source, name: name, format: f) }
            format = f
        }
        flush()
        parts.append(.slot(index: try slotIndex(name, kind, format), kind: kind, orEmpty: format == .orEmpty))
        return end + 3
    }

    /// A splice `{{name}}` inside a string, at `i`: the index after it.
    private mutating func splice(at i: Int) throws -> Int {
        guard let end = Self.find(Self.close, Self.close, in: bytes, from: i + 2) else {
            throw CompileError.unterminatedSlot(source: source, offset: i)
        }
        let name = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
        flush()
        parts.append(.slot(index: try slotIndex(name, .splice), kind: .splice, orEmpty: false))
        return end + 2
    }

    private mutating func flush() {
        if literal.count > literalStart { parts.append(.literal(literalStart..<literal.count)) }
        literalStart = literal.count
    }

    /// The slot's index, added on first use; a name used again must keep its kind and format.
    private mutating func slotIndex(_ name: String, _ kind: SlotKind, _ format: SlotFormat? = nil) throws -> Int {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 == 0x5F || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }) else {
            throw CompileError.badSlotName(source: source, name: name)
        }
        if let i = names.firstIndex(of: name) {
            let wasInteger = kinds[i] == .integer, isInteger = kind == .integer
            guard wasInteger == isInteger else { throw CompileError.slotKindConflict(source: source, name: name) }
            guard formats[i] == format else { throw CompileError.slotFormatConflict(source: source, name: name) }
            return i
        }
        names.append(name)
        kinds.append(kind)
        formats.append(format)
        return names.count - 1
    }

    private static func find(_ a: UInt8, _ b: UInt8, in bytes: [UInt8], from: Int) -> Int? {
        var j = from
        while j + 1 < bytes.count {
            if bytes[j] == a, bytes[j + 1] == b { return j }
            if bytes[j] == UInt8(ascii: "\"") { return nil }  // slots do not span strings
            j += 1
        }
        return nil
    }
}
