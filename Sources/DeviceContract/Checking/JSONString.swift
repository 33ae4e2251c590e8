import APNsCore

/// Decodes a scanned JSON string the way `JSONDecoder` does when a key or a string value is used:
/// UTF-8 must be valid (no overlong forms, surrogates or values past U+10FFFF), control characters
/// U+0000–U+001F must be escaped, escapes are `\" \\ \/ \b \f \n \r \t \uXXXX`, and a `\u` high
/// surrogate must be followed by a `\u` low surrogate. Anything else is "not valid JSON".
enum JSONString {
    /// The decoded UTF-8 bytes, or nil when `JSONDecoder` would reject the string.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ node: JSONNode) -> [UInt8]? {
        guard node.start <= node.end, node.end <= bytes.count else { return nil }
        if node.isSimple {
            guard node.isASCII || isValidUTF8(bytes, node.start, node.end) else { return nil }
            return Array(bytes[node.start..<node.end])
        }
        var output: [UInt8] = []
        output.reserveCapacity(node.end - node.start)
        var index = node.start
        var chunkStart = index
        while index < node.end {
            let byte = bytes[index]
            if byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            guard isValidUTF8(bytes, chunkStart, index) else { return nil }
            output.append(contentsOf: bytes[chunkStart..<index])
            index += 1
            guard index < node.end else { return nil }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escaped)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                guard let unit = hexUnit(bytes, index, node.end) else { return nil }
                index += 4
                var scalarValue = UInt32(unit)
                if (0xD800...0xDBFF).contains(unit) {
                    guard index + 6 <= node.end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                          let low = hexUnit(bytes, index + 2, node.end), (0xDC00...0xDFFF).contains(low) else { return nil }
                    index += 6
                    scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(scalarValue) else { return nil }
                appendUTF8(scalar, to: &output)
            default:
                return nil
            }
            chunkStart = index
        }
        guard isValidUTF8(bytes, chunkStart, node.end) else { return nil }
        output.append(contentsOf: bytes[chunkStart..<node.end])
        return output
    }

    /// True when `JSONDecoder` can decode the string (without keeping the result).
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, _ node: JSONNode) -> Bool {
        if node.isSimple { return node.isASCII || isValidUTF8(bytes, node.start, node.end) }
        return decode(bytes, node) != nil
    }

    /// True when the string's decoded value equals `expected` as Swift `String`s compare
    /// (canonical equivalence), given the decoded UTF-8 of the string.
    static func equals(_ decoded: [UInt8], _ expected: [UInt8], expectedIsASCII: Bool) -> Bool {
        let decodedIsASCII = decoded.allSatisfy { $0 < 0x80 }
        if decodedIsASCII && expectedIsASCII { return decoded == expected }
        return String(decoding: decoded, as: UTF8.self) == String(decoding: expected, as: UTF8.self)
    }

    /// Strict UTF-8 validation of `bytes[start..<end]`.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return false
            }
            guard index + length <= end else { return false }
            let second = bytes[index + 1]
            guard second >= lower, second <= upper else { return false }
            for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    private static func hexUnit(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt16? {
        guard start + 4 <= end else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = bytes[start + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            output.append(UInt8(value))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (value >> 6)))
            output.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | (value >> 12)))
            output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (value & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (value >> 18)))
            output.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (value & 0x3F)))
        }
    }
}
