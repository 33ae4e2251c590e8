import APNsCore

/// What the simulator needs to know about a payload: whether it is well-formed JSON with an object at the
/// top, which of the keys it watches stand directly inside `aps`, and whether `aps.event` is `"start"`
/// (Live Activities). Read off one `JSONTape` scan, reusing the caller's tape, so that validating mode
/// stays close to fast mode; nothing is allocated once the tape has grown to the payloads' size.
///
/// Well-formed is RFC 8259's JSON, stricter than the tape's `JSONDecoder` grammar, so the nodes are checked
/// after the scan: nothing but whitespace before the top-level object (no byte-order mark), no trailing
/// comma, every number by RFC 8259's grammar, no control character in a string and only JSON's escapes
/// (`\u` with four hex digits), and no value more than 64 levels below the top-level object.
///
/// Keys and `aps.event` are compared byte for byte as they stand in the payload, escapes not decoded. With
/// several `aps` keys at the top, `apsKeys` are those of the last one whose value is an object; `aps.event`
/// is the last string one read in any of them.
struct PayloadShape {
    /// Well-formed JSON whose top level is an object.
    var isObject = false
    /// Which watched keys the top-level `aps` object holds (nil when there is no `aps` object, or none
    /// were watched).
    var apsKeys: KeySet?
    /// `aps.event` is the string `start`.
    var isStartEvent = false

    /// Which of the watched keys stand in an object: bit i is `keys[i]` of the list the shape was read with.
    struct KeySet: Equatable {
        var bits: UInt64 = 0
        func contains(_ index: Int) -> Bool { bits & (1 << UInt64(index)) != 0 }
    }

    /// Values deeper than this below the top-level object (inside more containers) are refused.
    static let maxDepth = 64

    /// `watching` nil reads no keys (`apsKeys` nil, `isStartEvent` false); at most 64 keys. `tape` holds
    /// the payload's nodes afterwards.
    init(_ bytes: UnsafeRawBufferPointer, watching keys: [[UInt8]]?, tape: inout JSONTape) {
        let bytes = bytes.assumingMemoryBound(to: UInt8.self)
        do throws(JSONSyntaxError) { try tape.scan(bytes) } catch { return }
        let reader = Reader(bytes: bytes, nodes: tape.nodes)
        guard reader.nodes[0].kind == .object, tape.deepest <= Self.maxDepth,
              reader.onlyWhitespace(before: reader.nodes[0].start), reader.isStrict() else { return }
        isObject = true
        if let keys { readAps(reader, watching: keys) }
    }

    /// `apsKeys` and `isStartEvent` from the top-level object's members.
    private mutating func readAps(_ reader: Reader, watching keys: [[UInt8]]) {
        let nodes = reader.nodes
        var key = 1
        for _ in 0..<nodes[0].count {
            let value = key + 1
            if reader.equals(key, "aps"), nodes[value].kind == .object {
                var found = KeySet()
                var member = value + 1
                for _ in 0..<nodes[value].count {
                    for (i, name) in keys.enumerated() where reader.equals(member, name) { found.bits |= 1 << UInt64(i) }
                    if reader.equals(member, "event"), nodes[member + 1].kind == .string {
                        isStartEvent = reader.equals(member + 1, "start")
                    }
                    member = nodes[member + 1].next
                }
                apsKeys = found
            }
            key = nodes[value].next
        }
    }

    /// A scanned payload's bytes and nodes.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let nodes: [JSONNode]

        func onlyWhitespace(before end: Int) -> Bool {
            for i in 0..<end where !JSONTape.isWhitespace(bytes[i]) { return false }
            return true
        }

        /// Whether every node is RFC 8259's JSON (the checks the tape's grammar leaves out); nesting is
        /// checked on the tape.
        func isStrict() -> Bool {
            for node in nodes {
                switch node.kind {
                case .object, .array:
                    if node.count > 0, hasTrailingComma(node) { return false }
                case .string:
                    if !node.isSimple, !isStrictString(node) { return false }
                case .number:
                    if JSONNumberForm(bytes, node.start, node.end) == nil { return false }
                case .true, .false, .null:
                    break
                }
            }
            return true
        }

        /// A comma before the closing bracket (whitespace aside), which the tape allows.
        func hasTrailingComma(_ node: JSONNode) -> Bool {
            var i = node.end - 2
            while i > node.start, JSONTape.isWhitespace(bytes[i]) { i -= 1 }
            return bytes[i] == UInt8(ascii: ",")
        }

        /// A string with a backslash or a control character: only JSON's escapes, no control character.
        func isStrictString(_ node: JSONNode) -> Bool {
            var i = node.start
            while i < node.end {
                let c = bytes[i]
                if c < 0x20 { return false }
                guard c == UInt8(ascii: "\\") else { i += 1; continue }
                guard i + 1 < node.end else { return false }
                switch bytes[i + 1] {
                case UInt8(ascii: "u"):
                    guard i + 5 < node.end else { return false }
                    for k in 2...5 where !DeviceToken.isHexDigit(bytes[i + k]) { return false }
                    i += 6
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                default:
                    return false
                }
            }
            return true
        }

        /// Whether string node `index` is `text`, byte for byte.
        func equals(_ index: Int, _ text: StaticString) -> Bool {
            equals(index, UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        func equals(_ index: Int, _ text: [UInt8]) -> Bool {
            text.withUnsafeBufferPointer { equals(index, $0) }
        }

        func equals(_ index: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
            let node = nodes[index]
            guard node.kind == .string, node.end - node.start == text.count else { return false }
            for k in 0..<text.count where bytes[node.start + k] != text[k] { return false }
            return true
        }
    }
}
