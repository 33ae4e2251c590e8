/// HdrHistogram's bucket arithmetic: which counts-array index holds a value, and which values an
/// index stands for. Every HdrHistogram implementation (Java, C, Python, Swift) uses this same layout,
/// which is what lets an encoded histogram — a list of counts by index — travel between them.
///
/// hdrhistogram-swift keeps its own copy private, so the codec carries this one; the tests check it
/// against the library's public `lowestEquivalentForValue` / `highestEquivalentForValue`.
struct HistogramLayout: Equatable, Sendable {
    let lowestDiscernibleValue: UInt64
    let highestTrackableValue: UInt64
    let significantDigits: Int
    let unitMagnitude: Int
    let subBucketHalfCountMagnitude: Int
    let subBucketHalfCount: Int
    let subBucketMask: UInt64
    let leadingZeroCountBase: Int
    /// Length of the counts array that covers ``highestTrackableValue``.
    let countsLength: Int

    /// The layout of a histogram built with these settings; nil for settings no implementation accepts.
    init?(lowestDiscernibleValue lowest: UInt64, highestTrackableValue highest: UInt64, significantDigits digits: Int) {
        guard lowest >= 1, lowest <= UInt64.max / 2, highest >= 2 * lowest, (0...5).contains(digits) else { return nil }
        lowestDiscernibleValue = lowest
        highestTrackableValue = highest
        significantDigits = digits
        unitMagnitude = 63 - lowest.leadingZeroBitCount
        var largestSingleUnit: UInt64 = 2
        for _ in 0..<digits { largestSingleUnit *= 10 }
        // The smallest power of two >= 2 * 10^digits.
        let subBucketCountMagnitude = 64 - (largestSingleUnit - 1).leadingZeroBitCount
        subBucketHalfCountMagnitude = Swift.max(subBucketCountMagnitude, 1) - 1
        guard unitMagnitude + subBucketHalfCountMagnitude <= 61 else { return nil }
        let subBucketCount = 1 << (subBucketHalfCountMagnitude + 1)
        subBucketHalfCount = subBucketCount / 2
        subBucketMask = UInt64(subBucketCount - 1) << UInt64(unitMagnitude)
        leadingZeroCountBase = 64 - unitMagnitude - subBucketHalfCountMagnitude - 1

        var smallestUntrackable = UInt64(subBucketCount) << UInt64(unitMagnitude)
        var buckets = 1
        while smallestUntrackable <= highest {
            if smallestUntrackable > UInt64.max / 2 {
                buckets += 1
                break
            }
            smallestUntrackable <<= 1
            buckets += 1
        }
        countsLength = (buckets + 1) * subBucketHalfCount
    }

    /// The counts-array index that holds `value`.
    @inline(__always)
    func index(of value: UInt64) -> Int {
        let bucket = leadingZeroCountBase - (value | subBucketMask).leadingZeroBitCount
        let subBucket = Int(truncatingIfNeeded: value >> UInt64(bucket + unitMagnitude))
        return ((bucket + 1) << subBucketHalfCountMagnitude) + (subBucket - subBucketHalfCount)
    }

    /// The lowest value that `index` stands for.
    func value(at index: Int) -> UInt64 {
        var bucket = (index >> subBucketHalfCountMagnitude) - 1
        var subBucket = (index & (subBucketHalfCount - 1)) + subBucketHalfCount
        if bucket < 0 {
            subBucket -= subBucketHalfCount
            bucket = 0
        }
        return UInt64(subBucket) << UInt64(bucket + unitMagnitude)
    }

    /// The highest value that `index` stands for (the values it shares the index with are all below it).
    func highestValue(at index: Int) -> UInt64 {
        let lowest = value(at: index)
        let bucket = Swift.max(0, (index >> subBucketHalfCountMagnitude) - 1)
        return lowest + (UInt64(1) << UInt64(bucket + unitMagnitude)) - 1
    }
}
