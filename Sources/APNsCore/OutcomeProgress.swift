/// Outcome counts so far and the latest interval's p99, as a progress line shows them.
public struct OutcomeProgress: Equatable, Sendable {
    public var delivered = 0
    public var rejected = 0
    public var failed = 0
    public var timedOut = 0
    public var notSent = 0
    /// p99 response time (µs) of the last finished interval that had deliveries.
    public var lastIntervalP99Micros: UInt64?
    /// Counts by reason and cause, and response-time buckets: only from sinks asked for them (live metrics).
    public var detail: OutcomeDetail?

    public init(delivered: Int = 0, rejected: Int = 0, failed: Int = 0, timedOut: Int = 0, notSent: Int = 0,
                lastIntervalP99Micros: UInt64? = nil) {
        self.delivered = delivered
        self.rejected = rejected
        self.failed = failed
        self.timedOut = timedOut
        self.notSent = notSent
        self.lastIntervalP99Micros = lastIntervalP99Micros
    }

    /// Counts added; the p99 is the worse of the two (workers' intervals are not merged for a progress line).
    public static func += (a: inout OutcomeProgress, b: OutcomeProgress) {
        a.delivered += b.delivered
        a.rejected += b.rejected
        a.failed += b.failed
        a.timedOut += b.timedOut
        a.notSent += b.notSent
        if let p = b.lastIntervalP99Micros { a.lastIntervalP99Micros = Swift.max(a.lastIntervalP99Micros ?? 0, p) }
        if let d = b.detail {
            var sum = a.detail ?? OutcomeDetail()
            sum += d
            a.detail = sum
        }
    }
}

/// The live detail behind a progress snapshot, for the metrics endpoint: outcomes by reason, transport error
/// and cause; response-time buckets of delivered pushes by priority; connections open.
public struct OutcomeDetail: Equatable, Sendable {
    /// Rejected pushes by APNs reason.
    public var rejected: [String: Int] = [:]
    /// Failed pushes by transport error key.
    public var failed: [String: Int] = [:]
    /// Pushes not sent, by cause.
    public var notSent: [String: Int] = [:]
    /// Delivered pushes' response time by `apns-priority` (1, 5, 10).
    public var responseTime: [Int: BucketCounts] = [:]
    /// Connections open now (opened less lost and ended).
    public var connectionsOpen = 0

    public init() {}

    public static func += (a: inout OutcomeDetail, b: OutcomeDetail) {
        a.rejected.merge(b.rejected, uniquingKeysWith: +)
        a.failed.merge(b.failed, uniquingKeysWith: +)
        a.notSent.merge(b.notSent, uniquingKeysWith: +)
        for (priority, buckets) in b.responseTime {
            var sum = a.responseTime[priority] ?? BucketCounts()
            sum += buckets
            a.responseTime[priority] = sum
        }
        a.connectionsOpen += b.connectionsOpen
    }

    /// A latency histogram as a Prometheus/OpenMetrics histogram: cumulative counts at fixed upper bounds.
    public struct BucketCounts: Equatable, Sendable {
        /// The buckets' upper bounds in microseconds, the same for every series: 1 ms to 30 s, about
        /// 2.5× apart (APNs answers in tens to hundreds of milliseconds; timeouts are seconds). `+Inf` is implied.
        public static let boundsMicros: [UInt64] = [
            1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000,
            1_000_000, 2_500_000, 5_000_000, 10_000_000, 30_000_000,
        ]
        /// Values at or below each bound (cumulative), index for index with ``boundsMicros``.
        public var cumulative: [UInt64] = Array(repeating: 0, count: boundsMicros.count)
        /// Values in all (the `+Inf` bucket).
        public var count: UInt64 = 0
        /// Sum of the values, microseconds.
        public var sumMicros: Double = 0

        public init() {}

        public static func += (a: inout BucketCounts, b: BucketCounts) {
            for i in a.cumulative.indices { a.cumulative[i] += b.cumulative[i] }
            a.count += b.count
            a.sumMicros += b.sumMicros
        }
    }
}

/// A sink that can say how far it got, from the thread that records into it.
public protocol ProgressReportingSink: OutcomeSink {
    func progressSnapshot() -> OutcomeProgress
}
