/// The knee a sweep names, judged by its deciding steps' repeats: the highest rate that passed and the lowest
/// failing rate above it (the bracket), each repeated before the knee is named. A rate with repeats is judged
/// by them alone (a strict majority passes; an even split asks for one more); a rate without, by its latest
/// measurement (a re-measurement of a disturbed step replaces the disturbed one).
public struct KneeVerdict: Codable, Sendable, Equatable {
    /// One measurement of a rate, as the verdict reads it.
    public struct Measurement: Sendable, Equatable {
        public enum Kind: String, Codable, Sendable { case search, remeasure = "re-measure", repeated = "repeat" }
        public var rate: Double
        public var passed: Bool
        public var kind: Kind
        /// The recording ran out: the step judges nothing of the target.
        public var recordingEnded: Bool

        public init(rate: Double, passed: Bool, kind: Kind, recordingEnded: Bool = false) {
            self.rate = rate
            self.passed = passed
            self.kind = kind
            self.recordingEnded = recordingEnded
        }
    }

    /// The highest rate whose verdict is a pass; nil when none passed.
    public var knee: Double?
    /// The lowest rate above the knee whose verdict is a fail; nil when none failed above it.
    public var above: Double?
    /// Repeats at the knee, and how many passed.
    public var kneeRepeats = 0, kneeRepeatsPassed = 0
    /// Repeats at the rate above, and how many passed.
    public var aboveRepeats = 0, aboveRepeatsPassed = 0

    /// The verdict of every measurement so far.
    public static func judge(_ m: [Measurement]) -> KneeVerdict {
        let judged = m.filter { !$0.recordingEnded }
        let rates = Set(judged.map(\.rate)).sorted()
        let passing = rates.filter { ratePassed($0, judged) == true }
        var v = KneeVerdict()
        v.knee = passing.last
        v.above = rates.first { $0 > (v.knee ?? 0) && ratePassed($0, judged) != true }
        if let k = v.knee { (v.kneeRepeats, v.kneeRepeatsPassed) = repeats(k, judged) }
        if let a = v.above { (v.aboveRepeats, v.aboveRepeatsPassed) = repeats(a, judged) }
        return v
    }

    /// The rate to repeat next (the knee first, then the rate above it), or nil when both have `wanted`
    /// repeats that decide them.
    public static func nextRepeat(_ m: [Measurement], wanted: Int) -> Double? {
        guard wanted > 0 else { return nil }
        let v = judge(m)
        for rate in [v.knee, v.above].compactMap({ $0 }) {
            let (n, passed) = repeats(rate, m)
            if n < wanted || (2 * passed == n && n < wanted + 1) { return rate }
        }
        return nil
    }

    /// What to measure next once the search is done: a repeat of a deciding rate (``nextRepeat(_:wanted:)``),
    /// else, when the repeats moved the knee and left its bracket wider than `precision` (relative), the rate
    /// halfway between (a search step, repeated in turn once it decides); nil when the knee is decided.
    public static func next(_ m: [Measurement], wanted: Int, precision: Double) -> (rate: Double, kind: Measurement.Kind)? {
        guard wanted > 0 else { return nil }
        if let rate = nextRepeat(m, wanted: wanted) { return (rate, .repeated) }
        let v = judge(m)
        guard let knee = v.knee, let above = v.above, (above - knee) / knee > precision else { return nil }
        let mid = ((knee + above) / 2).rounded()
        guard mid > knee, mid < above, !m.contains(where: { $0.rate == mid }) else { return nil }
        return (mid, .search)
    }

    /// Pass (true), fail (false) or an even split of its repeats (nil).
    static func ratePassed(_ rate: Double, _ m: [Measurement]) -> Bool? {
        let (n, passed) = repeats(rate, m)
        if n > 0 { return 2 * passed == n ? nil : 2 * passed > n }
        return m.last { $0.rate == rate }?.passed ?? false
    }

    static func repeats(_ rate: Double, _ m: [Measurement]) -> (Int, Int) {
        let r = m.filter { $0.rate == rate && $0.kind == .repeated }
        return (r.count, r.filter(\.passed).count)
    }

    /// `between 3860 and 4120 pushes/s (2 of 2 repeats passed at 3860; 0 of 2 at 4120)`, or `at least …`
    /// when nothing failed above the knee; nil without a knee.
    public var bracket: String? {
        guard let knee else { return nil }
        let k = Self.number(knee)
        let atKnee = kneeRepeats > 0 ? "\(kneeRepeatsPassed) of \(kneeRepeats) repeats passed at \(k)" : "not repeated"
        guard let above else { return "at least \(k) pushes/s (\(atKnee); no rate above it failed)" }
        let atAbove = aboveRepeats > 0 ? "\(aboveRepeatsPassed) of \(aboveRepeats) at \(Self.number(above))" : "\(Self.number(above)) not repeated"
        return "between \(k) and \(Self.number(above)) pushes/s (\(atKnee); \(atAbove))"
    }

    /// `3,860`.
    static func number(_ v: Double) -> String {
        if abs(v - v.rounded()) > 0.005 { return String(format: "%.2f", v) }
        let digits = String(Int(v.rounded()))
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0, i % 3 == 0, c != "-" { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }
}
