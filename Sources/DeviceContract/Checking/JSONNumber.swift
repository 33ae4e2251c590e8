import APNsCore

/// Reads a scanned JSON number the way `JSONDecoder` (swift-foundation) does when it decodes one.
///
/// - Grammar: RFC 8259's (``JSONNumberForm``); anything else is "not valid JSON" (`01`, `1.`, `.5`,
///   `-`, `1e`, `1-2`).
/// - Integers: digits only must fit the type exactly. With a fraction or exponent the text is read as
///   a `Double` that must be a whole number the type holds (`1.0`, `1e3`, `10.0e-1` and even `1e-400`,
///   which rounds to 0, are accepted; `1.5`, `1e-2`, `1e20` are not). At or above 2^53 the text is read
///   again as a `Decimal` whose fraction is dropped (`9007199254740993.5` gives 9007199254740993), and a
///   negative value must then fit the positive range (`-9223372036854775808.0` fails for `Int64`).
/// - `Double` and `Float`: the nearest value must be finite, and may be zero only if the text is
///   zero as `JSONDecoder` tests it: it scans four bytes at a time, then the one to three bytes left
///   last to first, stopping at `e`/`E` (zero) or a non-zero digit (not zero). So `1e-400` fails, and
///   so do `0e5` and `0.000e1`, whose last bytes are scanned before their `e`.
enum JSONNumber {
    enum Integer {
        case value(IntegerValue)
        case malformed
        case doesNotFit
    }

    enum Floating {
        case fits
        case malformed
        case doesNotFit
    }

    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ node: JSONNode, as kind: IntegerKind) -> Integer {
        let start = node.start, end = node.end
        guard let shape = JSONNumberForm(bytes, start, end) else { return .malformed }
        let negative = bytes[start] == UInt8(ascii: "-")
        if !shape.hasFraction && !shape.hasExponent {
            var magnitude: UInt64 = 0
            for index in (negative ? start + 1 : start)..<end {
                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return .doesNotFit }
                magnitude = sum
            }
            let value = IntegerValue(negative: negative, magnitude: magnitude)
            return kind.holds(value) ? .value(value) : .doesNotFit
        }
        guard let double = Double(text(bytes, start, end)), double.isFinite, double.rounded(.towardZero) == double else {
            return .doesNotFit
        }
        let limit = kind.bitWidth == 64 ? 18_446_744_073_709_551_616.0 : Double(UInt64(1) << UInt64(kind.bitWidth))
        let upper = kind.isSigned ? limit / 2 : limit          // exclusive
        let lower = kind.isSigned ? -(limit / 2) : 0           // inclusive
        guard double >= lower, double < upper else { return .doesNotFit }
        if double.magnitude < 9_007_199_254_740_992.0 {
            return .value(IntegerValue(negative: double < 0, magnitude: UInt64(double.magnitude)))
        }
        return decimalInteger(bytes, start, end, negative: negative, kind: kind)
    }

    static func floating(_ bytes: UnsafeBufferPointer<UInt8>, _ node: JSONNode, isFloat: Bool) -> Floating {
        let start = node.start, end = node.end
        guard let shape = JSONNumberForm(bytes, start, end) else { return .malformed }
        if !shape.hasFraction && !shape.hasExponent && end - start <= 15 { return .fits }
        let string = text(bytes, start, end)
        let value: Double?
        if isFloat {
            value = Float(string).map(Double.init)
        } else {
            value = Double(string)
        }
        guard let value, value.isFinite else { return .doesNotFit }
        if value == 0 && !isTrueZero(bytes, start, end) { return .doesNotFit }
        return .fits
    }

    // MARK: Foundation's quirks

    /// swift-foundation's `JSONDecoderImpl.isTrueZero`, byte order included.
    private static func isTrueZero(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        func check(_ byte: UInt8) -> Bool? {
            switch byte {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            default: return nil
            }
        }
        var index = start
        while end - index >= 4 {
            for offset in 0..<4 {
                if let result = check(bytes[index + offset]) { return result }
            }
            index += 4
        }
        var last = end - 1
        while last >= index {
            if let result = check(bytes[last]) { return result }
            last -= 1
        }
        return true
    }

    /// The `Decimal` path of `_slowpath_unwrapFixedWidthInteger`: the exact value with its fraction
    /// dropped, provided the significant digits (at most 38, trailing zeros removed) fit a UInt64.
    /// Length: Foundation's steps (digits, exponent, trailing zeros, the 38-digit cut, the fit) in its order,
    /// kept side by side with it so that each verdict can be checked against the original.
    private static func decimalInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                       negative: Bool, kind: IntegerKind) -> Integer {
        var digits: [UInt8] = []
        var exponent = 0
        var index = negative ? start + 1 : start
        var inFraction = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - UInt8(ascii: "0")) }
                if inFraction { exponent -= 1 }
            }
            index += 1
        }
        if index < end {
            index += 1
            var exponentNegative = false
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            while index < end {
                written = min(written * 10 + Int(bytes[index] - UInt8(ascii: "0")), 100_000)
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }
        if digits.count > 38 {
            exponent += digits.count - 38
            digits.removeLast(digits.count - 38)
        }
        while let lastDigit = digits.last, lastDigit == 0 {
            digits.removeLast()
            exponent += 1
        }
        var magnitude: UInt64 = 0
        for digit in digits {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return .doesNotFit }
            magnitude = sum
        }
        if exponent < 0 {
            for _ in 0..<min(-exponent, 40) { magnitude /= 10 }
        } else {
            for _ in 0..<min(exponent, 40) {
                let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return .doesNotFit }
                magnitude = times10
            }
            if exponent > 40 && magnitude != 0 { return .doesNotFit }
        }
        if negative {
            guard kind.isSigned, magnitude <= kind.maxPositive else { return .doesNotFit }
        } else {
            guard magnitude <= kind.maxPositive else { return .doesNotFit }
        }
        return .value(IntegerValue(negative: negative, magnitude: magnitude))
    }

    // MARK: Helpers

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
