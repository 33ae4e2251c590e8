import APNsCore

/// What the recording generators draw besides numbers: hex strings, UUIDs and picks from a list.
extension SplitMix64 {
    /// `count` random bytes as lowercase hex.
    public mutating func hex(bytes count: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for _ in 0..<count {
            let b = UInt8(truncatingIfNeeded: next())
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An uppercase UUID string (like iOS's `UUID().uuidString`).
    public mutating func uuid() -> String {
        let h = hex(bytes: 16).uppercased()
        let c = Array(h)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    public mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}
