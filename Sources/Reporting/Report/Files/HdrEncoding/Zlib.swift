import CZlib

/// DEFLATE in a zlib wrapper (RFC 1950), through the system zlib: the compression of HdrHistogram's
/// compressed encoding.
enum Zlib {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `bytes` compressed at zlib's default level.
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        var capacity = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(capacity))
        let status = out.withUnsafeMutableBufferPointer { dst in
            bytes.withUnsafeBufferPointer { src in
                compress2(dst.baseAddress, &capacity, src.baseAddress, uLong(src.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw Failure(description: "zlib compress failed (\(status))") }
        out.removeSubrange(Int(capacity)...)
        return out
    }

    /// `bytes` decompressed; refuses output longer than `limit` bytes (a bound against hostile input).
    static func decompress(_ bytes: ArraySlice<UInt8>, limit: Int) throws -> [UInt8] {
        var capacity = Swift.max(256, Swift.min(limit, bytes.count * 8))
        while true {
            var produced = uLongf(capacity)
            var out = [UInt8](repeating: 0, count: capacity)
            let status = out.withUnsafeMutableBufferPointer { dst in
                bytes.withUnsafeBufferPointer { src in
                    uncompress(dst.baseAddress, &produced, src.baseAddress, uLong(src.count))
                }
            }
            switch status {
            case Z_OK:
                out.removeSubrange(Int(produced)...)
                return out
            case Z_BUF_ERROR where capacity < limit:
                capacity = Swift.min(limit, capacity * 4)
            case Z_BUF_ERROR:
                throw Failure(description: "decompressed histogram larger than \(limit) bytes")
            default:
                throw Failure(description: "not zlib data (\(status))")
            }
        }
    }
}
