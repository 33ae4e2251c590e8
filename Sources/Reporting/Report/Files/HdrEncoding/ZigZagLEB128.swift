/// The variable-length integers of HdrHistogram's V2 encoding: ZigZag (so small negative numbers stay
/// short) then LEB128, little-endian groups of 7 bits with a continuation bit — except that a ninth
/// byte, when needed, carries the last 8 bits whole, so a 64-bit value never takes more than 9 bytes.
enum ZigZagLEB128 {
    /// Appends `value`.
    static func append(_ value: Int64, to bytes: inout [UInt8]) {
        var v = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        for _ in 0..<8 {
            if v < 0x80 {
                bytes.append(UInt8(v))
                return
            }
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    /// Reads one value at `offset` and moves `offset` past it; nil if the bytes end inside it.
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> Int64? {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        for _ in 0..<8 {
            guard offset < bytes.count else { return nil }
            let b = bytes[offset]
            offset += 1
            v |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return decodeZigZag(v) }
            shift += 7
        }
        guard offset < bytes.count else { return nil }
        v |= UInt64(bytes[offset]) << 56
        offset += 1
        return decodeZigZag(v)
    }

    @inline(__always)
    private static func decodeZigZag(_ v: UInt64) -> Int64 {
        Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }
}
