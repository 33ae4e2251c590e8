/// One step of a rate sweep as `sweep.html` draws it (``SweepHtml``): the rate offered and achieved, the
/// latency ladder, and the knee criteria's verdict. Filled from the step's report and its ``SweepStep``.
public struct SweepStepPoint: Codable, Sendable, Equatable {
    /// The rate the step offered, pushes a second.
    public var offered: Double
    /// First sends a second the step achieved.
    public var achieved: Double
    /// Response time from the intended send (corrected for coordinated omission), ms.
    public var p50Millis: Double
    public var p99Millis: Double
    public var p999Millis: Double
    /// The step met every knee criterion.
    public var passed: Bool
    /// What the table says of the step: `pass`, or the failed criteria (``KneeCriteria/failures(of:first:)``).
    public var verdict: String
    /// What limited a failing step (``StepLimiter/line``); nil when it passed.
    public var limiter: String?

    public init(offered: Double, achieved: Double, p50Millis: Double, p99Millis: Double, p999Millis: Double,
                passed: Bool, verdict: String, limiter: String? = nil) {
        self.limiter = limiter
        self.offered = offered
        self.achieved = achieved
        self.p50Millis = p50Millis
        self.p99Millis = p99Millis
        self.p999Millis = p999Millis
        self.passed = passed
        self.verdict = verdict
    }
}
