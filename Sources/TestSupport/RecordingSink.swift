import APNsCore

/// An outcome sink for tests and benchmarks: counts every outcome by class, and keeps each record with
/// its times when asked (`keepEntries`; benchmarks count only, so recording allocates nothing).
public final class RecordingSink: OutcomeSink {
    public struct Entry: Sendable {
        public var outcome: Outcome
        public var priority: Priority
        public var intended: UInt64
        public var sent: UInt64
        public var completed: UInt64
    }

    public let keepEntries: Bool
    public private(set) var entries: [Entry] = []
    public private(set) var recorded = 0
    public private(set) var delivered = 0
    /// Rejected pushes by reason.
    public private(set) var rejected: [String: Int] = [:]
    /// Not-sent pushes by cause.
    public private(set) var notSent: [String: Int] = [:]
    /// The first outcome that was not a delivery, for error messages.
    public private(set) var firstProblem: Outcome?

    public init(keepEntries: Bool = true) { self.keepEntries = keepEntries }

    public func record(_ outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64) {
        recorded += 1
        if keepEntries { entries.append(Entry(outcome: outcome, priority: priority, intended: intended, sent: sent, completed: completed)) }
        switch outcome {
        case .delivered:
            delivered += 1
            return
        case .rejected(let r): rejected[r.rawValue, default: 0] += 1
        case .notSent(let cause): notSent[cause.rawValue, default: 0] += 1
        case .failed, .timedOut: break
        }
        if firstProblem == nil { firstProblem = outcome }
    }

    /// Every outcome recorded, in order (`keepEntries` only).
    public var outcomes: [Outcome] { entries.map(\.outcome) }
    /// Pushes not sent because the run stopped.
    public var runStopped: Int { notSent[NotSentCause.runStopped.rawValue] ?? 0 }
    /// How many records were `outcome` (`keepEntries` only).
    public func count(_ outcome: Outcome) -> Int { entries.filter { $0.outcome == outcome }.count }
    /// Forgets everything (benchmarks reuse one sink).
    public func reset() {
        entries.removeAll(keepingCapacity: true)
        recorded = 0
        delivered = 0
        rejected.removeAll()
        notSent.removeAll()
        firstProblem = nil
    }
}
