/// Percentiles read straight from an encoded histogram's non-zero counts (``EncodedHistogram``).
///
/// The values are those `Histogram.valueAtPercentile` gives for the decoded histogram (the tests check it),
/// found in one walk over the few non-zero buckets instead of one walk over the full counts array per
/// percentile: a one-hour timeline has 3600 histograms and the spectrum asks for 161 percentiles each.
enum EncodedPercentiles {
    /// The value at each percentile (in percent, any order), or nil when the text does not decode or the
    /// histogram is empty.
    static func values(_ base64: String, at percentiles: [Double]) -> [UInt64]? {
        guard let (layout, counts) = try? EncodedHistogram.decodeCounts(base64), let last = counts.last else { return nil }
        let total = counts.reduce(UInt64(0)) { $0 + $1.count }
        guard total > 0 else { return nil }
        let lowest = layout.highestValue(at: counts[0].index)
        let highest = layout.highestValue(at: last.index)
        // The rank each percentile asks for, as valueAtPercentile computes it (1 ulp below, rounded up, at least 1).
        let ranks: [UInt64] = percentiles.map { p in
            guard p < 100 else { return total }
            let requested = Swift.min(Swift.max(p.nextDown, 0), 100)
            return Swift.max(1, UInt64(((requested * Double(total)) / 100).rounded(.up)))
        }
        var out = [UInt64](repeating: 0, count: percentiles.count)
        var cumulative: UInt64 = 0
        var next = 0
        let order = ranks.indices.sorted { ranks[$0] < ranks[$1] }
        for c in counts {
            cumulative += c.count
            while next < order.count, ranks[order[next]] <= cumulative {
                out[order[next]] = layout.highestValue(at: c.index)
                next += 1
            }
            if next == order.count { break }
        }
        for (i, p) in percentiles.enumerated() where p <= 0 { out[i] = lowest }
        for (i, p) in percentiles.enumerated() where p >= 100 { out[i] = highest }
        return out
    }
}
