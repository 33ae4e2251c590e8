/// Epoch times written as JSON numbers → epoch milliseconds, exactly: the number's digits are
/// shifted, never converted through `Double`, so `1744797600.123` is 1744797600123 ms.
enum EpochTime {
    /// The range `Timestamp` can write back as RFC 3339 text: 0000-01-01T00:00:00Z through
    /// 9999-12-31T23:59:59.999Z, epoch milliseconds.
    static let millisRange: ClosedRange<Int64> = -62_167_219_200_000 ... 253_402_300_799_999

    /// Epoch milliseconds of a JSON number of seconds given as its UTF-8 text (already validated
    /// as a JSON number), or nil when it lies outside `millisRange`. Digits beyond milliseconds
    /// are truncated toward zero.
    static func millis(fromSeconds p: UnsafeBufferPointer<UInt8>) -> Int64? {
        let n = p.count
        var i = 0
        let negative = i < n && p[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        // The mantissa's digits (integer part then fraction) as one integer M; the value is
        // M × 10^(exponent − fractionDigits) seconds.
        let mantissaStart = i
        var mantissaDigits = 0
        var fractionDigits = 0
        var inFraction = false
        while i < n {
            if FlatJSON.isDigit(p[i]) {
                mantissaDigits += 1
                if inFraction { fractionDigits += 1 }
            } else if p[i] == UInt8(ascii: ".") {
                inFraction = true
            } else {
                break
            }
            i += 1
        }
        let mantissaEnd = i
        var exponent = 0
        if i < n {  // `e` or `E`, an optional sign, digits
            i += 1
            var exponentNegative = false
            if i < n && (p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-")) {
                exponentNegative = p[i] == UInt8(ascii: "-")
                i += 1
            }
            while i < n && FlatJSON.isDigit(p[i]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] - 0x30) }
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // Milliseconds = M × 10^shift: keep M's first `keep` digits and pad with zeros.
        let shift = exponent + 3 - fractionDigits
        let keep = mantissaDigits + shift
        guard keep > 0 else { return 0 }
        var value: Int64 = 0
        var used = 0
        var k = mantissaStart
        while used < keep {
            if k >= mantissaEnd && value == 0 { break }  // zero, however many zeros follow
            var digit: Int64 = 0
            if k < mantissaEnd {
                if p[k] == UInt8(ascii: ".") { k += 1 }
                digit = Int64(p[k] - 0x30)
                k += 1
            }
            guard value <= (Int64.max - 9) / 10 else { return nil }
            value = value * 10 + digit
            used += 1
        }
        if negative { value = -value }
        return millisRange.contains(value) ? value : nil
    }

    /// Epoch milliseconds of an integer number of seconds, or nil outside `millisRange`.
    static func millis(fromSeconds seconds: Int64) -> Int64? {
        let (value, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return !overflow && millisRange.contains(value) ? value : nil
    }
}
