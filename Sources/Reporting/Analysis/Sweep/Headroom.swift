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
