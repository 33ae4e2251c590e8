import APNsCore

/// What a walk of a workload's plan counted: every planned push once, as to send or not sent by cause,
/// by the kind of the event that planned it, beside the source's own count of the events it read.
public struct PlanTally: Sendable {
    /// One event kind's pushes.
    public struct KindCounts: Equatable, Sendable {
        public var planned = 0
        public var toSend = 0
        /// Not-sent pushes by ``NotSentCause`` key.
        public var notSent: [String: Int] = [:]
        public init() {}
    }

    /// An event kind and one of its push rules.
    public struct RuleKey: Hashable, Sendable {
        public var kind: String
        public var rule: String
    }

    /// Pushes by the kind of the event that planned them.
    public internal(set) var byKind: [String: KindCounts] = [:]
    /// Pushes by the push rule that planned them, for the workloads that name their rules.
    public internal(set) var byRule: [RuleKey: KindCounts] = [:]
    public internal(set) var planned = 0
    public internal(set) var toSend = 0
    /// Not-sent pushes by cause key, over every kind.
    public internal(set) var notSent: [String: Int] = [:]
    /// The events the source read, by kind and class (``ReplaySource/events``).
    public internal(set) var events = EventTally()
    /// The bad line the stream stopped at under `bad_lines: stop`.
    public internal(set) var stopError: StreamLineError?

    public init() {}

    public var notSentTotal: Int { notSent.values.reduce(0, +) }

    /// Whether every planned push is exactly one of to send or not sent, overall and for each kind, and the
    /// pushes walked are the ones the events read account for (``EventTally/expectedPushes``).
    public var balanced: Bool {
        planned == toSend + notSentTotal
            && planned == events.expectedPushes
            && byKind.values.allSatisfy { $0.planned == $0.toSend + $0.notSent.values.reduce(0, +) }
            && byKind.values.reduce(0) { $0 + $1.planned } == planned
    }

    /// Counts one planned push of an event of `kind`: `cause` nil when it is to be sent.
    @inline(__always)
    mutating func count(kind: String, notSent cause: NotSentCause?) {
        planned += 1
        if let cause {
            notSent[cause.rawValue, default: 0] += 1
            byKind[kind, default: KindCounts()].count(notSent: cause.rawValue)
        } else if kind == runKind {
            // A fan-out's pushes share their event's kind: counted apart until the kind changes.
            runToSend += 1
        } else {
            settleRun()
            runKind = kind
            runToSend = 1
        }
    }

    /// Counts one planned push of the named rule of an event of `kind` (besides ``count(kind:notSent:)``).
    mutating func count(kind: String, rule: String, notSent cause: NotSentCause?) {
        let key = RuleKey(kind: kind, rule: rule)
        if let cause { byRule[key, default: KindCounts()].count(notSent: cause.rawValue) } else { byRule[key, default: KindCounts()].countToSend(1) }
    }

    /// Pushes to send of a run of one kind, not yet in ``byKind``.
    private var runKind = ""
    private var runToSend = 0

    /// Adds the run of pushes to send counted apart to ``byKind`` and ``toSend``; the walk calls it at the end.
    mutating func settleRun() {
        guard runToSend > 0 else { return }
        byKind[runKind, default: KindCounts()].countToSend(runToSend)
        toSend += runToSend
        runToSend = 0
    }
}

extension PlanTally.KindCounts {
    mutating func countToSend(_ n: Int) {
        planned += n
        toSend += n
    }

    mutating func count(notSent cause: String) {
        planned += 1
        notSent[cause, default: 0] += 1
    }
}
