import Foundation

/// A JSON payload serialized once, with named slots that are filled per push by writing only the slot
/// values, JSON-escaped, into a reused byte buffer. No JSONEncoder or JSONSerialization per push.
///
/// Template text is JSON in which strings may hold slots:
/// - `"{{name}}"` as a whole string value: a string slot, written quoted and escaped (`null` when nil);
/// - `"{{#name}}"` as a whole string value: an integer slot, written as a bare number (`null` when nil);
/// - `{{name}}` inside a longer string: the escaped text is spliced into that string.
/// A whole-value slot may carry a format after `|` (``SlotFormat``): `"{{#response_time|reference_date}}"`
/// says how the workload writes a time there, `"{{reason|or_empty}}"` writes `""` instead of `null`.
/// White space outside strings is dropped, so a pretty-printed file costs nothing on the wire.
public struct PayloadTemplate: Sendable {
    /// How one slot is written.
    public enum SlotKind: Sendable, Equatable { case string, integer, splice }

    /// A value for a slot. Strings are written escaped; nil writes `null` (or nothing, when spliced).
    public enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        /// `units` × 10^-`places`, written as a bare decimal number without trailing zeros:
        /// `.fixedPoint(766490692875, places: 3)` writes `766490692.875`, `.fixedPoint(1500, places: 3)` `1.5`.
        case fixedPoint(Int64, places: Int)
        case null
        /// Leaves the slot's member out: `"key": "{{slot}}"` and its comma are not written (an array element
        /// is dropped the same way); a spliced slot writes nothing.
        case omit
    }

    /// A whole-value slot's format, after `|` in the slot: `"{{#response_time|reference_date}}"`.
    ///
    /// The time formats say how a recipe writes a time into an integer slot (the recorded time turned into
    /// the number); each is what one `JSONDecoder` date strategy reads.
    /// A time in a string slot without a format is written as ISO 8601 text (`.iso8601`).
    public enum SlotFormat: String, Sendable, CaseIterable {
        /// Seconds since 2001-01-01 00:00:00 UTC, Foundation's reference date, with milliseconds as a
        /// fraction: what `Date`'s own `Decodable` reads, so what a default `JSONDecoder` (`.deferredToDate`)
        /// and so ActivityKit decode. An integer slot only.
        case referenceDate = "reference_date"
        /// Seconds since 1970-01-01 00:00:00 UTC, with milliseconds as a fraction (`.secondsSince1970`). An
        /// integer slot only.
        case unix
        /// Whole milliseconds since 1970-01-01 00:00:00 UTC (`.millisecondsSince1970`). An integer slot only.
        case unixMillis = "unix_ms"
        /// A string slot that writes `""` where its value is missing, for a non-optional `String` on the
        /// device. A string slot only.
        case orEmpty = "or_empty"

        /// Whether it is one of the time formats.
        public var isTime: Bool { self != .orEmpty }
    }

    enum Part: Sendable {
        case literal(Range<Int>)
        /// `orEmpty`: the slot's format is ``SlotFormat/orEmpty``.
        case slot(index: Int, kind: SlotKind, orEmpty: Bool)
    }

    /// The slot names, in order of first appearance; a slot's index is its position here.
    public let slotNames: [String]
    /// The kind each slot is written as (a name used twice must be used the same way).
    public let slotKinds: [SlotKind]
    /// Each slot's format, nil where it has none (a name used twice must have the same format).
    public let slotFormats: [SlotFormat?]
    private let literalBytes: [UInt8]
    private let parts: [Part]

    public enum CompileError: Error, CustomStringConvertible, Equatable {
        case notJSON(source: String, detail: String)
        case unterminatedSlot(source: String, offset: Int)
        case badSlotName(source: String, name: String)
        case slotKindConflict(source: String, name: String)
        case notAnObject(source: String)
        case unknownFormat(source: String, name: String, format: String)
        case formatNeedsKind(source: String, name: String, format: SlotFormat)
        case slotFormatConflict(source: String, name: String)

        public var description: String {
            switch self {
            case let .notJSON(s, d): return "template \(s): not valid JSON (\(d))"
            case let .unterminatedSlot(s, o): return "template \(s): '{{' at byte \(o) has no closing '}}'"
            case let .badSlotName(s, n): return "template \(s): slot name '\(n)' must be letters, digits and '_'"
            case let .slotKindConflict(s, n):
                return "template \(s): slot '\(n)' is used both as a string and as an integer; give the integer use its own name, "
                    + "\"{{#\(n)_number}}\", and fill both from one source in the recipe (slots: {\(n)_number: \(n)})"
            case let .notAnObject(s): return "template \(s): the payload must be a JSON object"
            case let .unknownFormat(s, n, f):
                return "template \(s): slot '\(n)' has the format '\(f)'; formats are \(SlotFormat.allCases.map(\.rawValue).joined(separator: ", "))"
            case let .formatNeedsKind(s, n, f):
                return f.isTime
                    ? "template \(s): slot '\(n)' has the time format '\(f.rawValue)', which writes a number: write it \"{{#\(n)|\(f.rawValue)}}\""
                    : "template \(s): slot '\(n)' has the format '\(f.rawValue)', which is for string slots: write it \"{{\(n)|\(f.rawValue)}}\""
            case let .slotFormatConflict(s, n): return "template \(s): slot '\(n)' is used with two different formats"
            }
        }
    }

    /// Compiles template text. `source` names it in errors (a file path, usually).
    public init(json text: String, source: String = "template") throws {
        let bytes = Array(text.utf8)
        // The template itself must be JSON (slots live inside strings, so it is).
        do {
            let object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            guard object is [String: Any] else { throw CompileError.notAnObject(source: source) }
        } catch let e as CompileError { throw e } catch {
            throw CompileError.notJSON(source: source, detail: "\(error.localizedDescription)")
        }

        var compiler = TemplateCompiler(bytes: bytes, source: source)
        try compiler.run()
        self.literalBytes = compiler.literal
        self.parts = compiler.parts
        self.slotNames = compiler.names
        self.slotKinds = compiler.kinds
        self.slotFormats = compiler.formats
    }


    /// The index of a slot, or nil if the template has none of that name.
    public func slotIndex(named name: String) -> Int? { slotNames.firstIndex(of: name) }

    /// Writes the payload for `values` (indexed like `slotNames`) into `buffer`, replacing its contents
    /// and keeping its capacity.
    @inlinable
    public func render(into buffer: inout [UInt8], values: [Value]) {
        buffer.removeAll(keepingCapacity: true)
        renderAppending(into: &buffer, values: values)
    }

    /// Appends the payload for `values` to `buffer`.
    public func renderAppending(into buffer: inout [UInt8], values: [Value]) {
        literalBytes.withUnsafeBufferPointer { lit in
            // After an omitted first member, the next member's leading comma goes too.
            var dropComma = false
            for part in parts {
                switch part {
                case let .literal(r):
                    var r = r
                    if dropComma, !r.isEmpty, lit[r.lowerBound] == UInt8(ascii: ",") { r = (r.lowerBound + 1)..<r.upperBound }
                    dropComma = false
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: lit[r]))
                case let .slot(index, kind, orEmpty):
                    if case .omit = values[index] {
                        if kind != .splice { dropComma = Self.unwriteMember(&buffer) }
                    } else {
                        Self.write(values[index], kind: kind, orEmpty: orEmpty, into: &buffer)
                    }
                }
            }
        }
    }

    /// Takes back what was written of an omitted whole-value slot's member: its `"key":` (in an object) and
    /// the comma before it. Returns true when there was none before it (the first member), so the comma after
    /// it must go instead.
    static func unwriteMember(_ buffer: inout [UInt8]) -> Bool {
        if buffer.last == UInt8(ascii: ":") {
            buffer.removeLast()
            // The key: back to its opening quote (one not escaped).
            var i = buffer.count - 2
            while i > 0, !(buffer[i] == UInt8(ascii: "\"") && buffer[i - 1] != UInt8(ascii: "\\")) { i -= 1 }
            buffer.removeSubrange(i...)
        }
        if buffer.last == UInt8(ascii: ",") {
            buffer.removeLast()
            return false
        }
        return true
    }

    /// Renders into a new array (tests and setup; the hot path reuses a buffer).
    public func render(_ values: [Value]) -> [UInt8] {
        var out: [UInt8] = []
        render(into: &out, values: values)
        return out
    }

    /// Renders with every slot set from `sample`: checks at start that a filled template is a JSON object.
    public func validate(sample: [Value], source: String) throws {
        let bytes = render(sample)
        guard (try? JSONSerialization.jsonObject(with: Data(bytes))) is [String: Any] else {
            throw CompileError.notJSON(source: source, detail: "filled with sample values it does not parse")
        }
    }

    @inline(__always)
    static func write(_ value: Value, kind: SlotKind, orEmpty: Bool, into buffer: inout [UInt8]) {
        switch (value, kind) {
        case let (.string(s), .string):
            buffer.append(UInt8(ascii: "\""))
            JSONEscaping.append(s, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        case let (.string(s), .splice):
            JSONEscaping.append(s, to: &buffer)
        case let (.string(s), .integer):
            // An integer slot given text: write it as a string so the payload stays JSON.
            buffer.append(UInt8(ascii: "\""))
            JSONEscaping.append(s, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
        case let (.integer(n), .splice):
            JSONEscaping.appendDecimal(n, to: &buffer)
        case let (.integer(n), _):
            JSONEscaping.appendDecimal(n, to: &buffer)
        case let (.fixedPoint(n, places), _):
            JSONEscaping.appendFixedPoint(n, places: places, to: &buffer)
        case (.null, .splice):
            break
        case (.null, .string) where orEmpty:
            buffer.append(UInt8(ascii: "\"")); buffer.append(UInt8(ascii: "\""))
        case (.null, _):
            buffer.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
        case (.omit, _):
            break
        }
    }
}

/// JSON string escaping and integer formatting into byte buffers, without allocating.
public enum JSONEscaping {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `s` escaped for the inside of a JSON string: `"` `\` and control characters are escaped,
    /// everything else (all of UTF-8, emoji included) is copied as is.
    @inline(__always)
    public static func append(_ s: String, to buffer: inout [UInt8]) {
        var s = s
        s.withUTF8 { utf8 in
            var runStart = 0
            for i in 0..<utf8.count {
                let c = utf8[i]
                guard c < 0x20 || c == 0x22 || c == 0x5C else { continue }
                if i > runStart { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                runStart = i + 1
                buffer.append(0x5C)
                switch c {
                case 0x22: buffer.append(0x22)
                case 0x5C: buffer.append(0x5C)
                case 0x0A: buffer.append(0x6E)  // n
                case 0x0D: buffer.append(0x72)  // r
                case 0x09: buffer.append(0x74)  // t
                case 0x08: buffer.append(0x62)  // b
                case 0x0C: buffer.append(0x66)  // f
                default:
                    buffer.append(0x75); buffer.append(0x30); buffer.append(0x30)  // u00
                    buffer.append(hex[Int(c >> 4)]); buffer.append(hex[Int(c & 0xF)])
                }
            }
            if utf8.count > runStart { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
    }

    /// Appends `units` × 10^-`places` as a JSON number: the whole part, then the fraction without its
    /// trailing zeros (none when it is 0). `places` is 0–18.
    @inline(__always)
    public static func appendFixedPoint(_ units: Int64, places: Int, to buffer: inout [UInt8]) {
        precondition((0...18).contains(places), "0 to 18 decimal places")
        guard places > 0 else { return appendDecimal(Int(units), to: &buffer) }
        var scale: UInt64 = 1
        for _ in 0..<places { scale *= 10 }
        let magnitude = units.magnitude
        if units < 0 { buffer.append(0x2D) }
        appendDecimal(Int(magnitude / scale), to: &buffer)
        var fraction = magnitude % scale
        guard fraction != 0 else { return }
        var digits = places  // the fraction's digits, its leading zeros included
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        buffer.append(0x2E)  // .
        var significant = 0
        var rest = fraction
        while rest > 0 {
            rest /= 10
            significant += 1
        }
        for _ in 0..<(digits - significant) { buffer.append(0x30) }
        appendDecimal(Int(fraction), to: &buffer)
    }

    /// Appends the decimal digits of `n`.
    @inline(__always)
    public static func appendDecimal(_ n: Int, to buffer: inout [UInt8]) {
        if n == 0 { buffer.append(0x30); return }
        var v = n.magnitude
        if n < 0 { buffer.append(0x2D) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of stack for up to 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            while v > 0 {
                raw[count] = UInt8(truncatingIfNeeded: v % 10) + 0x30
                v /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                buffer.append(raw[count])
            }
        }
    }
}
