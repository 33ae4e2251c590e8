import Foundation
import Histogram

/// HdrHistogram's standard **V2 compressed** encoding, base64: the form of one line of an `.hlog`
/// interval log, readable by the Java, C, Python, Go and Rust HdrHistogram libraries.
/// hdrhistogram-swift 0.2.0 has no encoder (only `Codable` of its whole counts array), so this is ours.
///
/// Layout, all integers big-endian:
/// ```
/// compressed cookie 0x1c849314 (UInt32) · length of what follows (UInt32) · zlib(
///     encoding cookie 0x1c849313 (UInt32) · payload length (UInt32) · normalizing index offset 0 (UInt32)
///     · significant digits (UInt32) · lowest discernible value (UInt64) · highest trackable value (UInt64)
///     · integer-to-double conversion ratio 1.0 (Float64)
///     · counts from index 0 to the highest non-zero one, each ZigZag LEB128 (``ZigZagLEB128``);
///       a run of n > 1 zero counts is written once, as -n )
/// ```
public enum EncodedHistogram {
    static let compressedCookie: UInt32 = 0x1c84_9314
    static let encodingCookie: UInt32 = 0x1c84_9313
    static let headerSize = 40
    /// Decompressed payloads larger than this are refused: far above any histogram of 1 µs … 1 h.
    static let maxDecodedBytes = 64 << 20

    /// Why an encoded histogram could not be read.
    public struct DecodeError: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The histogram, encoded.
    public static func encode(_ histogram: Histogram<UInt64>) -> String {
        guard let layout = HistogramLayout(histogram) else { preconditionFailure("hdrhistogram-swift accepted settings HdrHistogram refuses") }
        var counts: [SparseCount] = []
        for v in histogram.recordedValues() {
            counts.append(SparseCount(index: layout.index(of: v.value), count: v.count))
        }
        return encode(counts: counts, layout: layout)
    }

    /// Counts given as (index, count) pairs, in any order; pairs of one index add up.
    static func encode(counts: [SparseCount], layout: HistogramLayout) -> String {
        var sorted = counts.sorted { $0.index < $1.index }
        // Merge equal indices.
        var merged: [SparseCount] = []
        merged.reserveCapacity(sorted.count)
        for c in sorted where c.count > 0 {
            if let last = merged.last, last.index == c.index {
                merged[merged.count - 1].count += c.count
            } else {
                merged.append(c)
            }
        }
        sorted = []

        var payload: [UInt8] = []
        payload.reserveCapacity(merged.count * 3)
        var next = 0
        for c in merged {
            let zeros = c.index - next
            if zeros == 1 {
                ZigZagLEB128.append(0, to: &payload)
            } else if zeros > 1 {
                ZigZagLEB128.append(-Int64(zeros), to: &payload)
            }
            ZigZagLEB128.append(Int64(clamping: c.count), to: &payload)
            next = c.index + 1
        }

        var plain: [UInt8] = []
        plain.reserveCapacity(headerSize + payload.count)
        append(encodingCookie, to: &plain)
        append(UInt32(payload.count), to: &plain)
        append(UInt32(0), to: &plain)
        append(UInt32(layout.significantDigits), to: &plain)
        append(layout.lowestDiscernibleValue, to: &plain)
        append(layout.highestTrackableValue, to: &plain)
        append((1.0 as Double).bitPattern, to: &plain)
        plain += payload

        // compress2 fails only on a bad level or too small a buffer, neither of which can happen here.
        let compressed = (try? Zlib.compress(plain)) ?? []
        var out: [UInt8] = []
        out.reserveCapacity(8 + compressed.count)
        append(compressedCookie, to: &out)
        append(UInt32(compressed.count), to: &out)
        out += compressed
        return Data(out).base64EncodedString()
    }

    /// Decodes an encoded histogram into a hdrhistogram-swift `Histogram` with the encoded settings.
    ///
    /// The encoding keeps counts per bucket, not the exact values recorded, so each count comes back at
    /// its bucket's highest value (as HdrHistogram's percentiles report it): counts, total count,
    /// `valueAtPercentile` and `highestEquivalentForValue` of every percentile equal the original's.
    /// The exact minimum and maximum are not in the encoding; `min` and `maxRecorded` come back as
    /// their buckets' highest values.
    public static func decode(_ base64: String) throws -> Histogram<UInt64> {
        let (layout, counts) = try decodeCounts(base64)
        var h = Histogram<UInt64>(lowestDiscernibleValue: layout.lowestDiscernibleValue, highestTrackableValue: layout.highestTrackableValue,
                                  numberOfSignificantValueDigits: SignificantDigits(rawValue: Int8(layout.significantDigits)) ?? .three)
        for c in counts {
            guard h.record(layout.highestValue(at: c.index), count: c.count) else {
                throw DecodeError("count at index \(c.index) lies beyond the histogram's highest trackable value")
            }
        }
        return h
    }

    /// The largest value an encoded histogram holds (its highest non-empty bucket's highest value), 0 if it is empty.
    public static func maxValue(_ base64: String) throws -> UInt64 {
        let (layout, counts) = try decodeCounts(base64)
        return counts.last.map { layout.highestValue(at: $0.index) } ?? 0
    }

    /// The settings and the non-zero counts, by increasing index.
    static func decodeCounts(_ base64: String) throws -> (HistogramLayout, [SparseCount]) {
        guard let data = Data(base64Encoded: base64) else { throw DecodeError("not base64") }
        let bytes = [UInt8](data)
        guard bytes.count >= 8 else { throw DecodeError("shorter than its 8-byte header") }
        let cookie = readUInt32(bytes, 0)
        guard cookie & ~0xF0 == compressedCookie & ~0xF0 else {
            throw DecodeError(String(format: "cookie 0x%08x is not HdrHistogram's V2 compressed encoding", cookie))
        }
        let length = Int(readUInt32(bytes, 4))
        guard length <= bytes.count - 8 else { throw DecodeError("compressed length \(length) exceeds the \(bytes.count - 8) bytes present") }
        let plain: [UInt8]
        do {
            plain = try Zlib.decompress(bytes[8..<(8 + length)], limit: maxDecodedBytes)
        } catch {
            throw DecodeError("\(error)")
        }
        guard plain.count >= headerSize else { throw DecodeError("decompressed payload shorter than its \(headerSize)-byte header") }
        let inner = readUInt32(plain, 0)
        guard inner & ~0xF0 == encodingCookie & ~0xF0 else {
            throw DecodeError(String(format: "payload cookie 0x%08x is not HdrHistogram's V2 encoding", inner))
        }
        let payloadLength = Int(readUInt32(plain, 4))
        let normalizingOffset = readUInt32(plain, 8)
        let digits = Int(readUInt32(plain, 12))
        let lowest = readUInt64(plain, 16)
        let highest = readUInt64(plain, 24)
        guard normalizingOffset == 0 else { throw DecodeError("normalizing index offset \(normalizingOffset) is not supported") }
        guard payloadLength <= plain.count - headerSize else {
            throw DecodeError("payload length \(payloadLength) exceeds the \(plain.count - headerSize) bytes present")
        }
        guard let layout = HistogramLayout(lowestDiscernibleValue: lowest, highestTrackableValue: highest, significantDigits: digits) else {
            throw DecodeError("invalid settings: lowest \(lowest), highest \(highest), \(digits) significant digits")
        }
        var counts: [SparseCount] = []
        try plain.withUnsafeBytes { raw in
            let payload = UnsafeRawBufferPointer(rebasing: raw[headerSize..<(headerSize + payloadLength)])
            var offset = 0
            var index = 0
            while offset < payload.count {
                guard let v = ZigZagLEB128.read(payload, at: &offset) else { throw DecodeError("payload ends inside a number") }
                if v < 0 {
                    guard v > -Int64(layout.countsLength) else { throw DecodeError("zero run of \(-v) past the end of the counts") }
                    index += Int(-v)
                } else {
                    guard index < layout.countsLength else { throw DecodeError("more counts than the settings allow (\(layout.countsLength))") }
                    if v > 0 { counts.append(SparseCount(index: index, count: UInt64(v))) }
                    index += 1
                }
            }
        }
        return (layout, counts)
    }

    private static func append(_ v: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }

    private static func append(_ v: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
    }

    private static func readUInt32(_ b: [UInt8], _ at: Int) -> UInt32 {
        (at..<(at + 4)).reduce(UInt32(0)) { $0 << 8 | UInt32(b[$1]) }
    }

    private static func readUInt64(_ b: [UInt8], _ at: Int) -> UInt64 {
        (at..<(at + 8)).reduce(UInt64(0)) { $0 << 8 | UInt64(b[$1]) }
    }
}

/// One non-zero count of a histogram, by counts-array index.
struct SparseCount: Equatable, Sendable {
    var index: Int
    var count: UInt64
}

extension HistogramLayout {
    /// The layout of a hdrhistogram-swift histogram.
    init?(_ h: Histogram<UInt64>) {
        self.init(lowestDiscernibleValue: h.lowestDiscernibleValue, highestTrackableValue: h.highestTrackableValue,
                  significantDigits: Int(h.numberOfSignificantValueDigits.rawValue))
    }
}
