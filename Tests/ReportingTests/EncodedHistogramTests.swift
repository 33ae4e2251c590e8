import APNsCore
import Foundation
import Histogram
import XCTest
@testable import Reporting

/// HdrHistogram's V2 compressed encoding: our layout arithmetic against the library's, the variable-length
/// integers, a round trip, another implementation's bytes, and refusal of bad input.
final class EncodedHistogramTests: XCTestCase {
    func makeHistogram() -> Histogram<UInt64> { LatencyHistograms.makeHistogram() }

    func testLayoutAgreesWithTheLibraryOnEveryBucketEdge() throws {
        let h = makeHistogram()
        let layout = try XCTUnwrap(HistogramLayout(h))
        var values: [UInt64] = Array(0...5_000)
        var v: UInt64 = 5_000
        while v < LatencyHistograms.highestMicros {
            values += [v - 1, v, v + 1]
            v = v * 3 / 2
        }
        values.append(LatencyHistograms.highestMicros)
        for value in values {
            let index = layout.index(of: value)
            XCTAssertLessThan(index, layout.countsLength, "value \(value)")
            XCTAssertEqual(layout.value(at: index), h.lowestEquivalentForValue(value), "lowest equivalent of \(value)")
            XCTAssertEqual(layout.highestValue(at: index), h.highestEquivalentForValue(value), "highest equivalent of \(value)")
        }
    }

    func testZigZagLEB128KnownBytesAndRoundTrip() {
        func bytes(_ v: Int64) -> [UInt8] {
            var b: [UInt8] = []
            ZigZagLEB128.append(v, to: &b)
            return b
        }
        XCTAssertEqual(bytes(0), [0x00])
        XCTAssertEqual(bytes(1), [0x02])
        XCTAssertEqual(bytes(-1), [0x01])
        XCTAssertEqual(bytes(64), [0x80, 0x01])
        XCTAssertEqual(bytes(Int64.max).count, 9)
        XCTAssertEqual(bytes(Int64.min).count, 9)
        let samples: [Int64] = [0, 1, -1, 63, 64, -64, -65, 300, -23_552, 1 << 35, 1 << 55, 1 << 56, -(1 << 56), .max, .min]
        var all: [UInt8] = []
        for s in samples { ZigZagLEB128.append(s, to: &all) }
        var decoded: [Int64] = []
        all.withUnsafeBytes { raw in
            var offset = 0
            while let v = ZigZagLEB128.read(raw, at: &offset) { decoded.append(v) }
            XCTAssertEqual(offset, raw.count)
        }
        XCTAssertEqual(decoded, samples)
    }

    func testRoundTripKeepsEveryCountAndPercentile() throws {
        var h = makeHistogram()
        var rng = SplitMix64(seed: 11)
        for _ in 0..<20_000 {
            // Log-uniform over 1 µs … ~30 s, plus a few at the clamp.
            let exponent = Double.random(in: 0...24.8, using: &rng)
            h.record(UInt64(pow(2, exponent)))
        }
        h.record(LatencyHistograms.highestMicros, count: 3)
        h.record(0, count: 2)
        let decoded = try EncodedHistogram.decode(EncodedHistogram.encode(h))

        XCTAssertEqual(decoded.totalCount, h.totalCount)
        var buckets = 0
        for v in h.recordedValues() {
            XCTAssertEqual(decoded.countForValue(v.value), v.count, "count at \(v.value)")
            buckets += 1
        }
        XCTAssertEqual(Array(decoded.recordedValues()).count, buckets, "no count appears that was not recorded")
        for p in [0.0, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100] {
            XCTAssertEqual(decoded.valueAtPercentile(p), h.highestEquivalentForValue(h.valueAtPercentile(p)), "p\(p)")
        }
        XCTAssertEqual(decoded.lowestDiscernibleValue, h.lowestDiscernibleValue)
        XCTAssertEqual(decoded.highestTrackableValue, h.highestTrackableValue)
        XCTAssertEqual(decoded.numberOfSignificantValueDigits, h.numberOfSignificantValueDigits)
    }

    func testValuesBelow2048ComeBackExactly() throws {
        var h = makeHistogram()
        for v in [UInt64(1), 2, 2, 3, 17, 250, 1_999, 2_047] { h.record(v) }
        let decoded = try EncodedHistogram.decode(EncodedHistogram.encode(h))
        XCTAssertEqual(LatencySummary(histogram: decoded), LatencySummary(histogram: h))
    }

    func testEmptyHistogramRoundTrips() throws {
        let decoded = try EncodedHistogram.decode(EncodedHistogram.encode(makeHistogram()))
        XCTAssertEqual(decoded.totalCount, 0)
        XCTAssertEqual(try EncodedHistogram.maxValue(EncodedHistogram.encode(makeHistogram())), 0)
    }

    /// Written by the PyPI package hdrhistogram 0.10 (`HdrHistogram(1, 3600000000, 3)`, values
    /// 1×5, 7×3, 1500×2, 2049×4, 123456×1, 3000000×2, then `encode()`).
    func testDecodesPythonHdrhistogramsEncoding() throws {
        let h = try EncodedHistogram.decode("HISTFAAAAC94nJNpmSzMwMAgwAABzFCaEURcm7yEwf4DVICLk225OMtRDo7+OKbbHiwAtocIXg==")
        XCTAssertEqual(h.totalCount, 17)
        XCTAssertEqual(h.countForValue(1), 5)
        XCTAssertEqual(h.countForValue(7), 3)
        XCTAssertEqual(h.countForValue(1_500), 2)
        XCTAssertEqual(h.countForValue(2_049), 4)
        XCTAssertEqual(h.countForValue(123_456), 1)
        XCTAssertEqual(h.countForValue(3_000_000), 2)
        // hdrhistogram's own answers: p50 1500, p99 and max 3000319.
        XCTAssertEqual(h.valueAtPercentile(50), 1_500)
        XCTAssertEqual(h.valueAtPercentile(99), 3_000_319)
        XCTAssertEqual(try EncodedHistogram.maxValue("HISTFAAAAC94nJNpmSzMwMAgwAABzFCaEURcm7yEwf4DVICLk225OMtRDo7+OKbbHiwAtocIXg=="), 3_000_319)
    }

    func testRefusesWhatIsNotAnEncodedHistogram() {
        func error(_ s: String) -> String {
            do {
                _ = try EncodedHistogram.decode(s)
                return "decoded"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(error("%%%"), "not base64")
        XCTAssertTrue(error(Data([0x1c, 0x84, 0x93, 0x12, 0, 0, 0, 0]).base64EncodedString()).contains("cookie 0x1c849312"))
        XCTAssertTrue(error(Data([0x1c, 0x84, 0x93, 0x14, 0, 0, 0, 9, 1, 2]).base64EncodedString()).contains("compressed length 9"))
        XCTAssertTrue(error(Data([0x1c, 0x84, 0x93, 0x14, 0, 0, 0, 2, 1, 2]).base64EncodedString()).contains("not zlib"))
        // A valid encoding cut short inside its compressed part.
        var h = makeHistogram()
        h.record(42)
        var bytes = [UInt8](Data(base64Encoded: EncodedHistogram.encode(h))!)
        bytes.removeLast(4)
        bytes[7] = UInt8(bytes.count - 8)
        XCTAssertNotEqual(error(Data(bytes).base64EncodedString()), "decoded")
    }
}
