/// Outcome counts so far and the latest interval's p99, as a progress line shows them.
public struct OutcomeProgress: Equatable, Sendable {
    public var delivered = 0
    public var rejected = 0
    public var failed = 0
    public var timedOut = 0
    public var notSent = 0
    /// p99 response time (µs) of the last finished interval that had deliveries.
    public var lastIntervalP99Micros: UInt64?

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
    }
}

/// A sink that can say how far it got, from the thread that records into it.
public protocol ProgressReportingSink: OutcomeSink {
    func progressSnapshot() -> OutcomeProgress
}
