import APNsCore

/// The statistics `compare` decides "significant or within noise" with, on per-run values (one number
/// per repeated run: a run's p99, its pushes/s). Pure functions, deterministic: the bootstrap draws from
/// a fixed-seed ``SplitMix64``, so the same reports always give the same verdict.
///
/// Why a bootstrap of the median difference and not Mann–Whitney U: with 3 runs per side (what a CI job
/// can afford) the exact two-sided Mann–Whitney p-value is at least 0.1 even when every new run is worse
/// than every baseline run, so it could never call a change significant at 5 %. The percentile bootstrap
/// of the difference of medians does: a clean shift gives an interval that excludes 0, and one outlier
/// run does not move a median.
public enum Statistics {
    /// The median of `values`; the mean of the two middle values for an even count; nil when empty.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        let mid = s.count / 2
        return s.count % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
    }

    /// A confidence interval of `new − baseline`.
    public struct Interval: Codable, Sendable, Equatable {
        public var lower: Double
        public var upper: Double

        public init(lower: Double, upper: Double) {
            self.lower = lower
            self.upper = upper
        }

        /// Whether the interval lies wholly above 0 (new larger) or wholly below (new smaller).
        public var excludesZero: Bool { lower > 0 || upper < 0 }
    }

    /// The seed every comparison's bootstrap starts from.
    public static let bootstrapSeed: UInt64 = 0x00C0_FFEE_5EED_0012

    /// Percentile-bootstrap confidence interval of `median(new) − median(baseline)`: each of `resamples`
    /// rounds draws both samples again with replacement (each side its own size) and takes the difference
    /// of their medians; the interval is the central `confidence` share of those differences.
    ///
    /// - Returns: nil when either side has fewer than 2 values (one run has no spread to resample).
    public static func bootstrapMedianDifference(
        baseline: [Double], new: [Double], confidence: Double = 0.95, resamples: Int = 2_000, seed: UInt64 = bootstrapSeed
    ) -> Interval? {
        guard baseline.count >= 2, new.count >= 2, resamples > 0, confidence > 0, confidence < 1 else { return nil }
        var rng = SplitMix64(seed: seed)
        var differences = [Double]()
        differences.reserveCapacity(resamples)
        var a = [Double](repeating: 0, count: baseline.count)
        var b = [Double](repeating: 0, count: new.count)
        for _ in 0..<resamples {
            for i in a.indices { a[i] = baseline[Int(rng.next() % UInt64(baseline.count))] }
            for i in b.indices { b[i] = new[Int(rng.next() % UInt64(new.count))] }
            differences.append(median(b)! - median(a)!)
        }
        differences.sort()
        let tail = (1 - confidence) / 2
        func at(_ q: Double) -> Double {
            let i = Int((q * Double(differences.count - 1)).rounded())
            return differences[Swift.min(Swift.max(i, 0), differences.count - 1)]
        }
        return Interval(lower: at(tail), upper: at(1 - tail))
    }
}
