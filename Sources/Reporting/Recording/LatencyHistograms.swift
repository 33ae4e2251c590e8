import APNsCore
import Histogram

/// The two latency views of one set of pushes (delivered ones, or one class of undelivered ones), in microseconds:
/// `service` from the actual send, `response` from the intended send (coordinated-omission corrected).
public struct LatencyHistograms: Sendable {
    /// The lowest value the histograms tell apart from 0: 1 µs.
    public static let lowestMicros: UInt64 = 1
    /// The highest value tracked: 1 hour in µs. Larger values are recorded as this value.
    public static let highestMicros: UInt64 = 3_600_000_000

    /// From the actual send (hand-off to the transport) to completion.
    public private(set) var service: Histogram<UInt64>
    /// From the intended send time to completion.
    public private(set) var response: Histogram<UInt64>

    /// Empty histograms: 1 µs … 1 h, 3 significant digits. Allocates all buckets now, so recording never does.
    public init() {
        service = Self.makeHistogram()
        response = Self.makeHistogram()
    }

    /// A pair of histograms read back from a report (``RunReport/EncodedPair/decoded()``).
    init(service: Histogram<UInt64>, response: Histogram<UInt64>) {
        self.service = service
        self.response = response
    }

    static func makeHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: lowestMicros, highestTrackableValue: highestMicros, numberOfSignificantValueDigits: .three)
    }

    /// Records one push; values above ``highestMicros`` are clamped to it.
    @inline(__always)
    mutating func record(serviceMicros: UInt64, responseMicros: UInt64) {
        service.record(Swift.min(serviceMicros, Self.highestMicros))
        response.record(Swift.min(responseMicros, Self.highestMicros))
    }

    /// Adds another pair's counts.
    mutating func add(_ other: LatencyHistograms) {
        service.add(other.service)
        response.add(other.response)
    }

    /// Values recorded (the same in both views).
    public var count: Int { Int(clamping: service.totalCount) }

    /// Both views encoded (``EncodedHistogram``).
    public var encoded: RunReport.EncodedPair {
        RunReport.EncodedPair(serviceTime: EncodedHistogram.encode(service), responseTime: EncodedHistogram.encode(response))
    }

    /// Both views summarized.
    public var summary: RunReport.PriorityLatency {
        RunReport.PriorityLatency(serviceTime: LatencySummary(histogram: service), responseTime: LatencySummary(histogram: response))
    }
}

extension OutcomeDetail.BucketCounts {
    /// A histogram's values counted at the fixed bounds (a plain read of its counts); the sum is its mean
    /// times its count, to HdrHistogram's precision.
    public init(_ h: Histogram<UInt64>) {
        self.init()
        count = h.totalCount
        guard count > 0 else { return }
        sumMicros = h.mean * Double(count)
        var below: UInt64 = 0
        var low: UInt64 = 0
        for (i, bound) in Self.boundsMicros.enumerated() {
            if low <= bound { below += h.count(within: low...bound) }
            cumulative[i] = below
            low = h.highestEquivalentForValue(bound) + 1
        }
    }
}
