/// A number's text read by RFC 8259's grammar, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
/// (which `JSONDecoder` applies when it decodes a number): ``JSONTape`` scans a looser run of bytes, so a
/// reader checks each number it uses. Refused: `01`, `1.`, `.5`, `-`, `1e`, `1-2`.
public struct JSONNumberForm: Sendable, Equatable {
    public var hasFraction = false
    public var hasExponent = false

    /// The form of `bytes[start..<end]` (a number node's `start` and `end`), or nil when it is not a JSON number.
    @inlinable
    public init?(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        guard start < end, end <= bytes.count else { return nil }
        var index = start
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < end, Self.isDigit(bytes[index]) else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < end, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            hasFraction = true
            index += 1
            guard index < end, Self.isDigit(bytes[index]) else { return nil }
            while index < end, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            hasExponent = true
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < end, Self.isDigit(bytes[index]) else { return nil }
            while index < end, Self.isDigit(bytes[index]) { index += 1 }
        }
        guard index == end else { return nil }
    }

    @usableFromInline
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
