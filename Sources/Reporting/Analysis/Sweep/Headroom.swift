/// The knee set against the traffic it must carry: the recording's busiest second and busiest minute (at
/// its own pace), and a peak the planner gives (`--peak RATE`, or the profile's `capacity_peak_per_second`).
/// When no step above the knee failed, the knee is a lower bound and so is every headroom: "at least".
public struct Headroom: Codable, Sendable, Equatable {
    public struct Against: Codable, Sendable, Equatable {
        /// `busiest second`, `busiest minute`, `given peak`.
        public var what: String
        /// Its rate, pushes a second.
        public var rate: Double
        /// Knee ÷ rate.
        public var factor: Double
    }

    public var knee: Double
    /// No rate above the knee failed: every factor is a lower bound.
    public var atLeast: Bool
    public var against: [Against]

    /// Nil without a knee or anything to set it against.
    /// `recordedPace`: with a sweep over recorded-pace multiples, the recording's own rate at x1 over the
    /// knee's step (the knee ÷ its multiple), so that the multiple is a headroom too.
    public init?(knee: Double?, atLeast: Bool, busiestSecond: Double?, busiestMinute: Double?, givenPeak: Double?, recordedPace: Double? = nil) {
        guard let knee, knee > 0 else { return nil }
        let pairs: [(String, Double?)] = [("busiest second", busiestSecond), ("busiest minute", busiestMinute), ("given peak", givenPeak),
                                          ("recorded pace", recordedPace)]
        against = pairs.compactMap { what, rate in rate.flatMap { $0 > 0 ? Against(what: what, rate: $0, factor: knee / $0) : nil } }
        guard !against.isEmpty else { return nil }
        self.knee = knee
        self.atLeast = atLeast
    }

    /// `at least 125.4× the busiest second (26 pushes/s)`, one per peak.
    public var lines: [String] {
        against.map { a in
            (atLeast ? "at least " : "") + Format.fixed(a.factor, places: 1) + "× the " + a.what
                + " (" + Format.fixed(a.rate, places: a.rate < 10 ? 1 : 0) + " pushes/s)"
        }
    }
}

/// The knee held to the peak a planner must carry: `--peak RATE` (or the profile's `capacity_peak_per_second`)
/// times `--min-headroom X` (or `capacity_min_headroom`; 1 when neither says). A knee under it misses the
/// requirement as a missed SLO does: a ✗ line and exit 99.
public struct PeakRequirement: Codable, Sendable, Equatable {
    public var peak: Double
    public var minHeadroom: Double
    /// The knee it was set against, pushes a second; nil when no step passed.
    public var knee: Double?
    /// The knee is a lower bound (no rate above it failed).
    public var atLeast: Bool

    public init(peak: Double, minHeadroom: Double, knee: Double?, atLeast: Bool) {
        self.peak = peak
        self.minHeadroom = minHeadroom
        self.knee = knee
        self.atLeast = atLeast
    }

    /// The rate the knee must reach: peak × minimum headroom.
    public var required: Double { peak * minHeadroom }

    /// The knee reached the required rate.
    public var met: Bool { (knee ?? 0) >= required }

    /// `✓ knee 4,019 pushes/s carries 4.0× the given peak (1,000 pushes/s), at least the 1.5× required`, or
    /// `✗ knee 310 pushes/s is under the 1.5× headroom over the given peak (400 pushes/s) required: 600 pushes/s; it carries 0.78×`.
    public var line: String {
        let peakText = "the given peak (" + KneeVerdict.number(peak) + " pushes/s)"
        let times = Format.fixed(minHeadroom, places: (minHeadroom * 10).rounded() == minHeadroom * 10 ? 1 : 2) + "×"
        guard let knee else {
            return "✗ no knee: no step passed, so nothing carries " + times + " " + peakText
        }
        let factor = Format.fixed(knee / peak, places: 2) + "×"
        let k = "knee " + (atLeast ? "at least " : "") + KneeVerdict.number(knee) + " pushes/s"
        if met { return "✓ " + k + " carries " + factor + " " + peakText + ", at least the " + times + " required" }
        let need = KneeVerdict.number(required.rounded(.up))
        return "✗ " + k + " is under the " + times + " headroom over " + peakText + " required: " + need + " pushes/s; it carries " + factor
            + (atLeast ? " (no rate above it failed: search up to \(need) pushes/s to know whether it carries more)" : "")
    }
}
