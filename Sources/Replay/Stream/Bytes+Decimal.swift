extension Array where Element == UInt8 {
    /// Appends `value` in decimal digits (a `-` first when negative), allocating nothing beyond the array's growth.
    @inline(__always)
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var x = value.magnitude
        let start = count
        repeat {
            append(UInt8(truncatingIfNeeded: 48 + x % 10))
            x /= 10
        } while x > 0
        var lo = start, hi = count - 1
        while lo < hi {
            swapAt(lo, hi)
            lo += 1
            hi -= 1
        }
    }
}
