/// What the simulator needs to know about a payload, read in one pass without building objects:
/// whether it is well-formed JSON with an object at the top, the keys directly inside `aps`, and the
/// string value of `aps.event` (Live Activities). Faster than JSONSerialization, so validating mode
/// stays close to fast mode.
struct PayloadShape {
    /// Well-formed JSON whose top level is an object.
    var isObject = false
    /// Keys of the top-level `aps` object (nil when there is no `aps` object).
    var apsKeys: Set<String>?
    /// `aps.event` when it is a string.
    var event: String?

    /// `collectAps` false skips `apsKeys` and `event` (nil then): a Set of Strings per payload costs more
    /// than the parse itself, and only Live Activity rules read them.
    init(_ bytes: UnsafeRawBufferPointer, collectAps: Bool = true) {
        var p = Parser(bytes: bytes)
        p.skipSpace()
        guard p.peek == UInt8(ascii: "{") else { return }
        guard p.object(depth: 0, collect: collectAps ? .top : .none), p.atEnd else { return }
        isObject = true
        apsKeys = p.apsKeys
        event = p.event
    }

    private struct Parser {
        enum Collect { case none, top, aps }
        let bytes: UnsafeRawBufferPointer
        var i = 0
        var apsKeys: Set<String>?
        var event: String?

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }
        var atEnd: Bool {
            mutating get { skipSpace(); return i == bytes.count }
        }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func expect(_ c: UInt8) -> Bool {
            skipSpace()
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }

        /// A string; returns its raw bytes' range (escapes left as they are), or nil.
        mutating func string() -> Range<Int>? {
            guard expect(UInt8(ascii: "\"")) else { return nil }
            let start = i
            // Walks a local index over the bytes (most of a payload is string bytes).
            let n = bytes.count
            var j = i
            while j < n {
                let c = bytes[j]
                // Neither a quote (0x22), a backslash (0x5C) nor a control character: the common case.
                if c > 0x5C || (c > 0x22 && c < 0x5C) || c == 0x20 || c == 0x21 {
                    j += 1
                    continue
                }
                if c == UInt8(ascii: "\"") { i = j + 1; return start..<j }
                if c < 0x20 { i = j; return nil }
                // A backslash.
                j += 1
                guard j < n else { i = j; return nil }
                switch bytes[j] {
                case UInt8(ascii: "u"):
                    guard j + 4 < n else { i = j; return nil }
                    for k in 1...4 where !Self.isHex(bytes[j + k]) { i = j; return nil }
                    j += 4
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                default: i = j; return nil
                }
                j += 1
            }
            i = j
            return nil
        }

        static func isHex(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x66) }

        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[r]), as: UTF8.self) }

        func equals(_ r: Range<Int>, _ s: StaticString) -> Bool {
            guard r.count == s.utf8CodeUnitCount else { return false }
            for k in 0..<r.count where bytes[r.lowerBound + k] != s.utf8Start[k] { return false }
            return true
        }

        mutating func number() -> Bool {
            let start = i
            if peek == UInt8(ascii: "-") { i += 1 }
            guard let first = peek, first >= 0x30, first <= 0x39 else { return false }
            if first == 0x30 { i += 1 } else { while let c = peek, c >= 0x30, c <= 0x39 { i += 1 } }
            if peek == UInt8(ascii: ".") {
                i += 1
                guard let c = peek, c >= 0x30, c <= 0x39 else { return false }
                while let c = peek, c >= 0x30, c <= 0x39 { i += 1 }
            }
            if let e = peek, e | 0x20 == UInt8(ascii: "e") {
                i += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
                guard let c = peek, c >= 0x30, c <= 0x39 else { return false }
                while let c = peek, c >= 0x30, c <= 0x39 { i += 1 }
            }
            return i > start
        }

        mutating func literal(_ s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            guard i + n <= bytes.count else { return false }
            for k in 0..<n where bytes[i + k] != s.utf8Start[k] { return false }
            i += n
            return true
        }

        mutating func value(depth: Int, collect: Collect = .none) -> Bool {
            guard depth < 64 else { return false }
            skipSpace()
            guard let c = peek else { return false }
            switch c {
            case UInt8(ascii: "{"): return object(depth: depth + 1, collect: collect)
            case UInt8(ascii: "["):
                i += 1
                skipSpace()
                if peek == UInt8(ascii: "]") { i += 1; return true }
                while true {
                    guard value(depth: depth + 1) else { return false }
                    skipSpace()
                    if peek == UInt8(ascii: ",") { i += 1; continue }
                    return expect(UInt8(ascii: "]"))
                }
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func object(depth: Int, collect: Collect) -> Bool {
            guard expect(UInt8(ascii: "{")) else { return false }
            if collect == .aps { apsKeys = [] }
            skipSpace()
            if peek == UInt8(ascii: "}") { i += 1; return true }
            while true {
                guard let key = string(), expect(UInt8(ascii: ":")) else { return false }
                switch collect {
                case .top where equals(key, "aps"):
                    skipSpace()
                    guard value(depth: depth, collect: peek == UInt8(ascii: "{") ? .aps : .none) else { return false }
                case .aps:
                    let name = text(key)
                    apsKeys?.insert(name)
                    skipSpace()
                    if equals(key, "event"), peek == UInt8(ascii: "\"") {
                        guard let v = string() else { return false }
                        event = text(v)
                    } else {
                        guard value(depth: depth) else { return false }
                    }
                default:
                    guard value(depth: depth) else { return false }
                }
                skipSpace()
                if peek == UInt8(ascii: ",") { i += 1; continue }
                return expect(UInt8(ascii: "}"))
            }
        }
    }
}
