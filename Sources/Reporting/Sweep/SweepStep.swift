import APNsCore

/// One open-loop step of a rate sweep, as the knee criteria read it: taken from the step's report.
public struct SweepStep: Codable, Sendable, Equatable {
    /// The rate the step offered, pushes a second.
    public var offeredRate: Double
    /// First sends a second over the step's scheduled length (resends not counted).
    public var achievedRate: Double
    /// p99 response time from the intended send (corrected for coordinated omission), ms.
    public var p99Millis: Double
    /// Delivered share of the pushes sent to the target (answered or not).
    public var deliveredShare: Double
    /// Rejection reasons of the 429 and 5xx classes seen (the capacity's signs).
    public var overloadReasons: [String]
    /// p99 of each interval of the step, ms, in order (intervals with deliveries).
    public var intervalP99Millis: [Double]
    /// The process's CPU over the step's wall time (1.0 is one core busy): client and embedded simulator.
    public var processCPU: Double?
    /// The recording ran out before the step's scheduled end: the step offered less than its rate.
    public var streamEnded = false
    /// The in-flight window (connections × streams), and whether it was ever full: then sends waited on
    /// the target's answers, not on the client.
    public var window: Int?
    public var windowFilled = false
    /// The busiest engine thread's share of a core over the step (the workers' average): near 1, the
    /// harness was its own bottleneck.
    public var engineCPU: Double?

    public init(offeredRate: Double, achievedRate: Double, p99Millis: Double, deliveredShare: Double,
                overloadReasons: [String] = [], intervalP99Millis: [Double] = [], processCPU: Double? = nil) {
        self.offeredRate = offeredRate
        self.achievedRate = achievedRate
        self.p99Millis = p99Millis
        self.deliveredShare = deliveredShare
        self.overloadReasons = overloadReasons
        self.intervalP99Millis = intervalP99Millis
        self.processCPU = processCPU
    }

    /// The step a report describes: `stepSeconds` is its scheduled length (the drain after it is not the
    /// offered load's).
    public init(report r: RunReport, offeredRate: Double, stepSeconds: Double, processCPU: Double? = nil) {
        let interval = Double(r.configuration.timelineIntervalSeconds)
        let sentInStep = r.timeline.filter { Double($0.second) < stepSeconds }.reduce(0) { $0 + $1.sent }
        let resends = r.engine.retriesTotal
        // Of the pushes that went to the target: what the stream itself leaves unsent (no token, no
        // recipients, dead tokens, the step's end) is not the target's doing.
        let sent = r.pushes.delivered + r.pushes.rejectedTotal + r.pushes.failedTotal + r.pushes.timedOut
        self.init(
            offeredRate: offeredRate,
            achievedRate: Double(max(0, sentInStep - resends)) / stepSeconds,
            p99Millis: Double(r.latency.responseTime.p99) / 1000,
            deliveredShare: sent > 0 ? Double(r.pushes.delivered) / Double(sent) : 0,
            overloadReasons: r.pushes.rejected.filter { $0.value.status == 429 || $0.value.status >= 500 }.keys.sorted(),
            intervalP99Millis: r.timeline.filter { Double($0.second) + interval <= stepSeconds }.compactMap { e in
                e.responseTime.flatMap { EncodedPercentiles.values($0, at: [99])?.first }.map { Double($0) / 1000 }
            },
            processCPU: processCPU)
        streamEnded = r.pushes.notSent["run_stopped"] == nil && r.durationSeconds < stepSeconds * 0.95
        window = r.configuration.transport.window
        if r.durationSeconds > 0 {
            engineCPU = Double(r.engine.engineCPUMillis) / 1000 / r.durationSeconds / Double(max(1, r.configuration.transport.workers))
        }
        windowFilled = r.engine.peakInFlight >= r.configuration.transport.window
    }
}
