import Histogram

/// The percentile ladder of one latency histogram, in microseconds.
///
/// Percentiles come from `Histogram.valueAtPercentile`, so they carry HdrHistogram's precision
/// (3 significant digits: exact below 2 048 µs, within 0.1 % above). `min` and `max` are the exact
/// recorded extremes. All fields are 0 when `count` is 0.
public struct LatencySummary: Codable, Sendable, Equatable {
    /// Always `"us"` (microseconds).
    public var unit: String
    /// Values recorded.
    public var count: Int
    public var min: Int
    public var p50: Int
    public var p90: Int
    public var p99: Int
    public var p999: Int
    public var max: Int
    /// Arithmetic mean, in microseconds.
    public var mean: Double

    public init(unit: String = "us", count: Int, min: Int, p50: Int, p90: Int, p99: Int, p999: Int, max: Int, mean: Double) {
        self.unit = unit
        self.count = count
        self.min = min
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
        self.mean = mean
    }

    /// A summary with no values.
    public static let empty = LatencySummary(count: 0, min: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, mean: 0)

    /// Summarizes a histogram whose values are in `unit` (microseconds by default).
    public init(histogram h: Histogram<UInt64>, unit: String = "us") {
        guard h.totalCount > 0 else {
            self = .empty
            return
        }
        func int(_ v: UInt64) -> Int { Int(clamping: v) }
        self.init(
            unit: unit,
            count: int(h.totalCount),
            min: int(h.min),
            p50: int(h.valueAtPercentile(50)),
            p90: int(h.valueAtPercentile(90)),
            p99: int(h.valueAtPercentile(99)),
            p999: int(h.valueAtPercentile(99.9)),
            max: int(h.maxRecorded),
            mean: h.mean.isFinite ? h.mean : 0
        )
    }
}
