/// What became of every event read from a recorded stream: each ends in exactly one class (it planned
/// pushes, it only changed state, no condition of its push rules held, or it was a bad line), so `read ==
/// producedPushes + stateOnly + noPushCondition + invalidTotal` (``balanced``).
///
/// The workload driver counts into its own tally on the thread that reads the stream; the report is
/// built from it after the run. Merged with ``+(_:_:)`` (shards).
public struct EventTally: Equatable, Sendable {
    /// Bad lines kept as samples; later ones are only counted.
    public static let badLineSampleLimit = 100
    /// A bad line's detail is cut to this many characters in the samples.
    public static let badLineDetailLimit = 200
    /// The kind counted for a bad line whose kind could not be read.
    public static let unknownKind = "?"

    /// One bad line as kept for the report; `detail` has device tokens redacted.
    public struct BadLine: Codable, Sendable, Equatable {
        /// 1-based line number in the stream.
        public var line: Int
        /// The bounded cause key, e.g. `bad_json`.
        public var cause: String
        /// A short explanation, at most ``EventTally/badLineDetailLimit`` characters.
        public var detail: String

        public init(line: Int, cause: String, detail: String) {
            self.line = line
            self.cause = cause
            self.detail = detail
        }
    }

    /// Events read, bad lines included.
    public private(set) var read = 0
    /// Events by kind; bad lines without a readable kind count under ``unknownKind``.
    public private(set) var byKind: [String: Int] = [:]
    /// Events that planned at least one push.
    public private(set) var producedPushes = 0
    /// Pushes those events planned, summed.
    public private(set) var pushesPlanned = 0
    /// Events that only changed state.
    public private(set) var stateOnly = 0
    /// Events with push rules none of whose conditions held ("no push (condition)"), and by kind.
    public private(set) var noPushCondition = 0
    public private(set) var noPushConditionByKind: [String: Int] = [:]
    /// Invalid events by cause.
    public private(set) var invalid: [String: Int] = [:]
    public private(set) var invalidTotal = 0
    /// The first ``badLineSampleLimit`` bad lines, in the order read.
    public private(set) var badLineSamples: [BadLine] = []
    /// Pushes planned by each push rule, by event kind and rule name (an event's only rule, unnamed, is `1`):
    /// they add up to ``pushesPlanned``. Set by the workload that knows its rules; empty otherwise.
    public var pushesByRule: [String: [String: Int]] = [:]
    /// Pushes planned at a priority of their own (their rule's or event's), out of the profile's `priority`'s reach.
    public var pushesAtOwnPriority = 0
    /// What became of each push rule's pushes where the workload planned them, by event kind and rule name (as
    /// ``pushesByRule``): handed to the sender, or not sent by cause. Set by the workload that knows its rules.
    public var ruleOutcomes: [String: [String: RuleOutcome]] = [:]
    /// Pushes handed to the sender, by push kind (``OutgoingPush/kind``) and priority (10, 5, 1).
    public var toSendByKind: [Int32: [Int: Int]] = [:]

    /// One push rule's pushes as the workload handed them out.
    public struct RuleOutcome: Equatable, Sendable {
        public var toSend = 0
        public var notSent: [String: Int] = [:]
        public init(toSend: Int = 0, notSent: [String: Int] = [:]) {
            self.toSend = toSend
            self.notSent = notSent
        }
    }

    public init() {}

    /// Pushes every push-planning event and every bad line (which may have planned one) account for:
    /// the number of outcomes the run must end with.
    public var expectedPushes: Int { pushesPlanned + invalidTotal }

    /// Whether every event read is in exactly one class.
    public var balanced: Bool { read == producedPushes + stateOnly + noPushCondition + invalidTotal }

    /// Counts one event by kind and by how it ended. `.producedPushes(n)` counts as a producing event
    /// even for n = 0; a caller that planned nothing should say `.stateOnly`.
    public mutating func record(kind: String, _ result: EventResult) {
        read += 1
        byKind[kind, default: 0] += 1
        switch result {
        case .producedPushes(let count):
            producedPushes += 1
            pushesPlanned += max(0, count)
        case .stateOnly:
            stateOnly += 1
        case .noPushCondition:
            noPushCondition += 1
            noPushConditionByKind[kind, default: 0] += 1
        case .invalid(let cause):
            invalid[cause, default: 0] += 1
            invalidTotal += 1
        }
    }

    /// Counts a line that could not be used: an invalid event by `cause`, under `kind`. The first
    /// ``badLineSampleLimit`` are kept with their line number and `detail`, cut to
    /// ``badLineDetailLimit`` characters with device tokens replaced by `<token>`.
    public mutating func recordBadLine(line: Int, cause: String, detail: String, kind: String = EventTally.unknownKind) {
        record(kind: kind, .invalid(cause: cause))
        if badLineSamples.count < Self.badLineSampleLimit {
            badLineSamples.append(BadLine(line: line, cause: cause, detail: Redaction.sanitize(detail, limit: Self.badLineDetailLimit)))
        }
    }

    /// Keeps a sample of one push not sent because a value read for its recipient failed (`bad_line`): the
    /// event is counted as it planned, and its other pushes went on; the sample says why this one did not.
    public mutating func recordFailedPush(line: Int, detail: String) {
        if badLineSamples.count < Self.badLineSampleLimit {
            badLineSamples.append(BadLine(line: line, cause: "bad_line", detail: Redaction.sanitize(detail, limit: Self.badLineDetailLimit)))
        }
    }

    /// Both tallies added; the samples appended up to the limit.
    public static func + (a: EventTally, b: EventTally) -> EventTally {
        var s = a
        s.read += b.read
        for (kind, n) in b.byKind { s.byKind[kind, default: 0] += n }
        s.producedPushes += b.producedPushes
        s.pushesPlanned += b.pushesPlanned
        s.stateOnly += b.stateOnly
        s.noPushCondition += b.noPushCondition
        for (kind, n) in b.noPushConditionByKind { s.noPushConditionByKind[kind, default: 0] += n }
        for (cause, n) in b.invalid { s.invalid[cause, default: 0] += n }
        s.invalidTotal += b.invalidTotal
        s.badLineSamples.append(contentsOf: b.badLineSamples.prefix(max(0, badLineSampleLimit - s.badLineSamples.count)))
        for (kind, rules) in b.pushesByRule {
            for (rule, n) in rules { s.pushesByRule[kind, default: [:]][rule, default: 0] += n }
        }
        s.pushesAtOwnPriority += b.pushesAtOwnPriority
        for (kind, rules) in b.ruleOutcomes {
            for (rule, o) in rules {
                s.ruleOutcomes[kind, default: [:]][rule, default: RuleOutcome()].toSend += o.toSend
                for (cause, n) in o.notSent { s.ruleOutcomes[kind, default: [:]][rule, default: RuleOutcome()].notSent[cause, default: 0] += n }
            }
        }
        for (kind, priorities) in b.toSendByKind {
            for (p, n) in priorities { s.toSendByKind[kind, default: [:]][p, default: 0] += n }
        }
        return s
    }
}
