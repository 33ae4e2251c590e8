import APNsCore
import DeviceDelivery
import Histogram

/// The push accounting of one run: every planned push ends in exactly one class, and the classes add
/// up (``pushesBalance``). Events are counted apart, by the workload driver (`EventTally`), and the
/// engine's own counters by the engine (`EngineCounters`); the report is built from all three.
///
/// Single-threaded: only the engine (or the worker pool's producer) calls
/// ``record(_:priority:intended:sent:completed:)``, on its own thread. There are no locks; a
/// multi-worker run keeps one recorder per worker and adds them (``+=(_:_:)``) after the workers join.
///
/// Recording a delivered push does not allocate: the histograms' buckets and the timeline's storage
/// are allocated in `init`; the first delivery of a new second moves the last second's histogram into
/// storage reserved up front that grows by doubling (once in a while, never per push). The
/// dictionaries keyed by reason, transport error and cause are touched only for rejected, failed and
/// not-sent pushes. Read the histograms (and build the report) after
/// the run: reading them while recording continues makes the next record copy their storage.
///
/// Latency, in microseconds: **delivered** pushes go into ``latency`` and the per-priority histograms;
/// pushes that were sent and then rejected, failed or timed out (with a completion time) go into
/// ``latencyRejected``, ``latencyFailed`` and ``latencyTimedOut``, and are counted in ``undeliveredSent``.
/// - service time = completed − sent (from the hand-off to the transport);
/// - response time = completed − intended (from the intended send time, so a schedule that fell
///   behind shows up as latency: coordinated-omission corrected). An intended time of 0 ("as soon as
///   possible") or one later than the send counts from the send, so response time ≥ service time.
/// Each delivery's response time also goes into its completion second's histogram on the timeline.
public final class RunRecorder: OutcomeSink, ProgressReportingSink {
    // MARK: Pushes

    /// The number of pushes the workload said it would plan, if known. ``pushesBalance`` requires
    /// ``planned`` to equal it. Default nil (not checked).
    public var expectedPlanned: Int?
    /// Pushes recorded: one per ``record(_:priority:intended:sent:completed:)`` call.
    public private(set) var planned = 0
    public private(set) var delivered = 0
    /// Of ``delivered``: the pushes the device would not decode (``recordWouldNotDecode(_:)``).
    public private(set) var wouldNotDecode = WouldNotDecodeTally()
    /// Rejected pushes by reason (`Reason.rawValue`), with the reason's HTTP status.
    public private(set) var rejected: [String: RunReport.Rejection] = [:]
    public private(set) var rejectedTotal = 0
    /// Failed pushes by `TransportError.key`.
    public private(set) var failed: [String: Int] = [:]
    public private(set) var failedTotal = 0
    public private(set) var timedOut = 0
    /// Pushes never sent, by `NotSentCause.rawValue`.
    public private(set) var notSent: [String: Int] = [:]
    public private(set) var notSentTotal = 0
    /// Pushes with a send time (sent ≠ 0).
    public private(set) var sent = 0
    /// Sent pushes with a completion time (completed ≠ 0), whatever their outcome.
    public private(set) var completed = 0
    /// Sent pushes that were not delivered, so are not in the latency histograms.
    public private(set) var undeliveredSent = 0
    /// Monotonic nanoseconds of the earliest send and the latest completion; 0 = none yet.
    public private(set) var firstSentNanos: UInt64 = 0
    public private(set) var lastCompletedNanos: UInt64 = 0

    /// Latency of all delivered pushes, in microseconds.
    public private(set) var latency = LatencyHistograms()
    /// Latency of delivered pushes at `apns-priority` 1, 5 and 10.
    public private(set) var latencyByPriority = ByPriority(LatencyHistograms())
    /// Latency of sent pushes that APNs rejected, that failed in transport, and that timed out.
    public private(set) var latencyRejected = LatencyHistograms()
    public private(set) var latencyFailed = LatencyHistograms()
    public private(set) var latencyTimedOut = LatencyHistograms()

    var timeline: Timeline

    /// A recorder with all storage allocated.
    /// - Parameter expectedSeconds: timeline seconds to reserve up front (default 3 600, at most 86 400);
    ///   a longer run grows the timeline once in a while, never per push.
    /// - Parameter intervalSeconds: the timeline's interval (the run's `timelineIntervalSeconds`).
    public init(expectedSeconds: Int = 3_600, intervalSeconds: Int = 1) {
        timeline = Timeline(reservedSeconds: expectedSeconds, intervalSeconds: intervalSeconds)
    }

    /// Connection events go into the timeline's interval of `nanos`.
    public func recordResend(cause: String, at nanos: UInt64) {
        timeline.recordResend(cause: cause, at: nanos)
    }

    public func recordConnections(_ change: ConnectionTally, at nanos: UInt64) {
        timeline.recordConnections(change, at: nanos)
        connections += change
    }

    /// Connection events over the whole run so far.
    public private(set) var connections = ConnectionTally()

    /// Whether ``progressSnapshot()`` carries ``OutcomeDetail`` (by reason, response-time buckets): for the
    /// live metrics endpoint. Default false: a progress line needs only the totals.
    public var detailedProgress = false

    /// The counts so far and the last interval's p99, for a progress line; call on the recording thread.
    public func progressSnapshot() -> OutcomeProgress {
        var p = OutcomeProgress(delivered: delivered, rejected: rejectedTotal, failed: failedTotal, timedOut: timedOut,
                                notSent: notSentTotal, lastIntervalP99Micros: timeline.lastIntervalP99)
        if detailedProgress { p.detail = outcomeDetail() }
        return p
    }

    /// Outcomes by reason and cause, delivered pushes' response-time buckets by priority, connections open.
    /// Reads the histograms in place (no copy is kept, so recording goes on without copying them).
    public func outcomeDetail() -> OutcomeDetail {
        var d = OutcomeDetail()
        d.rejected = rejected.mapValues(\.count)
        d.failed = failed
        d.notSent = notSent
        for priority in Priority.allCases {
            let buckets = OutcomeDetail.BucketCounts(latencyByPriority[priority].response)
            if buckets.count > 0 { d.responseTime[priority.rawValue] = buckets }
        }
        d.connectionsOpen = connections.open
        return d
    }

    /// Sets second 0 of the timeline, in monotonic nanoseconds (`MonotonicTime.now()`). Without it,
    /// the first send starts the timeline.
    public func start(atNanos nanos: UInt64) {
        timeline.start(atNanos: nanos)
    }

    /// Monotonic nanoseconds of timeline second 0, or nil if the timeline has not started.
    public var startNanos: UInt64? { timeline.started ? timeline.startNanos : nil }

    // MARK: Recording pushes

    /// Counts one planned push in exactly one terminal class; see the type's documentation for latency.
    /// - Parameters:
    ///   - intended, sent, completed: monotonic nanoseconds; `sent` and `completed` are 0 for a push never sent.
    public func record(_ outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64) {
        planned += 1
        let wasSent = sent != 0
        let hasCompletion = wasSent && completed != 0
        if wasSent {
            self.sent += 1
            if firstSentNanos == 0 || sent < firstSentNanos { firstSentNanos = sent }
        }
        if hasCompletion {
            self.completed += 1
            if completed > lastCompletedNanos { lastCompletedNanos = completed }
        }

        switch outcome {
        case .delivered:
            delivered += 1
            var response: UInt64 = 0
            if hasCompletion {
                response = recordLatency(priority: priority, intended: intended, sent: sent, completed: completed)
            }
            if wasSent { timeline.record(sent: sent, completed: completed, as: .delivered, responseMicros: response) }
            return
        case .rejected(let reason):
            // Looked up by index, not `rejected[key, default: …]`: the default's closure captures the
            // reason and costs two allocations per rejection; this path costs none once a reason is known.
            if let index = rejected.index(forKey: reason.rawValue) {
                rejected.values[index].count += 1
            } else {
                rejected[reason.rawValue] = RunReport.Rejection(status: reason.status, count: 1)
            }
            rejectedTotal += 1
            if wasSent { recordUndelivered(&latencyRejected, .rejected, intended: intended, sent: sent, completed: completed) }
        case .failed(let error):
            failed[error.key, default: 0] += 1
            failedTotal += 1
            if wasSent { recordUndelivered(&latencyFailed, .failed, intended: intended, sent: sent, completed: completed) }
        case .timedOut:
            timedOut += 1
            if wasSent { recordUndelivered(&latencyTimedOut, .timedOut, intended: intended, sent: sent, completed: completed) }
        case .notSent(let cause):
            notSent[cause.rawValue, default: 0] += 1
            notSentTotal += 1
            if wasSent { timeline.record(sent: sent, completed: completed, as: .other) }
        }
    }

    /// When set, every delivered push is passed on to it: the device model's input. Default nil (off).
    public var deviceFeed: DeviceDeliveryFeed?

    public func recordDelivered(_ push: OutgoingPush) {
        deviceFeed?.observe(push)
    }

    /// A delivered push whose payload failed the device-contract check: a sub-class of ``delivered``, by its
    /// failure set. Touched only for such pushes.
    public func recordWouldNotDecode(_ push: OutgoingPush) {
        wouldNotDecode.record(set: push.contractFailure, sample: push.contractSample)
    }

    /// A sent push that was rejected, failed or timed out: counted, on the timeline, and (with a
    /// completion time) in its class's histograms.
    @inline(__always)
    private func recordUndelivered(_ histograms: inout LatencyHistograms, _ completion: Timeline.Completion,
                                   intended: UInt64, sent: UInt64, completed: UInt64) {
        undeliveredSent += 1
        timeline.record(sent: sent, completed: completed, as: completion)
        guard completed != 0 else { return }
        let (service, response) = Self.latencyMicros(intended: intended, sent: sent, completed: completed)
        histograms.record(serviceMicros: service, responseMicros: response)
    }

    /// Service and response time in whole microseconds; see the type's documentation.
    @inline(__always)
    static func latencyMicros(intended: UInt64, sent: UInt64, completed: UInt64) -> (service: UInt64, response: UInt64) {
        let from = intended != 0 && intended <= sent ? intended : sent
        return (micros(from: sent, to: completed), micros(from: from, to: completed))
    }

    @inline(__always)
    private func recordLatency(priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64) -> UInt64 {
        let (service, response) = Self.latencyMicros(intended: intended, sent: sent, completed: completed)
        latency.record(serviceMicros: service, responseMicros: response)
        latencyByPriority[priority].record(serviceMicros: service, responseMicros: response)
        return response
    }

    /// Whole microseconds from `start` to `end` (nanoseconds); 0 if `end` is not after `start`.
    @inline(__always)
    static func micros(from start: UInt64, to end: UInt64) -> UInt64 {
        end > start ? (end - start) / 1_000 : 0
    }

    /// The latency histograms of one priority.
    public func latency(priority: Priority) -> LatencyHistograms { latencyByPriority[priority] }

    // MARK: Balances

    /// Whether `planned == delivered + rejected + failed + timedOut + notSent`, whether the delivered pushes
    /// that would not decode are a part of `delivered`, and, when ``expectedPlanned`` is set, whether
    /// `planned` equals it.
    public var pushesBalance: Bool { balances(expectedPlanned: expectedPlanned) }

    /// ``pushesBalance`` against `expectedPlanned` (nil: not checked).
    func balances(expectedPlanned: Int?) -> Bool {
        let classes = delivered + rejectedTotal + failedTotal + timedOut + notSentTotal
        guard classes == planned, wouldNotDecode.total <= delivered else { return false }
        if let expectedPlanned, expectedPlanned != planned { return false }
        return true
    }

    /// The timeline so far, one entry per second from 0 to the last second with activity.
    public var timelineEntries: [RunReport.TimelineEntry] { timeline.entries }

    // MARK: Merging

    /// Adds another recorder's counts, histograms and timeline (for a run with one recorder per worker).
    /// Timelines are aligned by their start times. ``expectedPlanned`` becomes the sum when both sides
    /// know it; if either does not, the merged value is nil (unknown), since that side's share is unknown.
    public static func += (mine: RunRecorder, other: RunRecorder) {
        mine.merge(other)
    }

    /// See ``+=(_:_:)``.
    public func merge(_ other: RunRecorder) {
        precondition(other !== self, "a recorder cannot be merged into itself")
        if let mine = expectedPlanned, let theirs = other.expectedPlanned {
            expectedPlanned = mine + theirs
        } else {
            expectedPlanned = nil
        }
        planned += other.planned
        delivered += other.delivered
        wouldNotDecode = wouldNotDecode + other.wouldNotDecode
        for (reason, r) in other.rejected {
            rejected[reason, default: RunReport.Rejection(status: r.status, count: 0)].count += r.count
        }
        rejectedTotal += other.rejectedTotal
        for (key, n) in other.failed { failed[key, default: 0] += n }
        failedTotal += other.failedTotal
        timedOut += other.timedOut
        for (cause, n) in other.notSent { notSent[cause, default: 0] += n }
        notSentTotal += other.notSentTotal
        sent += other.sent
        completed += other.completed
        undeliveredSent += other.undeliveredSent
        if other.firstSentNanos != 0, firstSentNanos == 0 || other.firstSentNanos < firstSentNanos {
            firstSentNanos = other.firstSentNanos
        }
        lastCompletedNanos = Swift.max(lastCompletedNanos, other.lastCompletedNanos)
        connections += other.connections

        latency.add(other.latency)
        for p in Priority.allCases { latencyByPriority[p].add(other.latencyByPriority[p]) }
        latencyRejected.add(other.latencyRejected)
        latencyFailed.add(other.latencyFailed)
        latencyTimedOut.add(other.latencyTimedOut)
        timeline.add(other.timeline)
    }
}
