import APNsCore

/// Several recordings replayed together (`workload: mix`): each part is a ``WorkloadDriver`` with its own
/// rules, template and push kind (``OutgoingPush/kind``: its push type and topic), and the parts' pushes
/// are interleaved in recorded time, each recording aligned at its first event. So a mix of a busy morning
/// of leave requests and an hour of store orders starts both at once, and each keeps its own rhythm; the
/// pushes carry recorded times on the first part's clock, which pacing, coalescing and the Live Activity
/// budget read.
///
/// Counts add up as for one recording: every push a part plans comes out exactly once, as `.push` or as
/// `.notSent(cause)` (passed through at once: they need no order), and ``events`` is the parts' sum.
/// A part that stops at a bad line (`bad_lines: stop`) or fails to read stops the whole mix: what the other
/// parts hold or still planned ends as `.notSent(.runStopped)`.
public final class MixedWorkload: ReplaySource {
    public let parts: [WorkloadDriver]
    /// One push read ahead per part, waiting for its turn; `ready[i]` says whether `held[i]` holds one.
    private var held: [OutgoingPush]
    private var ready: [Bool]
    private var ended: [Bool]
    private var stopping = false
    /// The part whose push the latest `next(into:)` returned; -1 before the first and after the end.
    private var answered = -1

    /// - Parameter parts: the recordings in the profile's order; part i's pushes must carry kind i.
    public init(parts: [WorkloadDriver]) {
        precondition(!parts.isEmpty, "a mix has parts")
        self.parts = parts
        held = parts.map { _ in OutgoingPush() }
        ready = Array(repeating: false, count: parts.count)
        ended = Array(repeating: false, count: parts.count)
    }

    public var events: EventTally { parts.dropFirst().reduce(parts[0].events) { $0 + $1.events } }
    public var followersNotSubscribed: Int { parts.reduce(0) { $0 + $1.followersNotSubscribed } }
    public var stopError: StreamLineError? { parts.lazy.compactMap(\.stopError).first }
    public var failedRead: (stream: String, error: Error)? { parts.lazy.compactMap(\.failedRead).first }
    public var recordedSpan: (first: Int64, last: Int64)? {
        let spans = parts.compactMap(\.recordedSpan)
        guard let first = spans.map(\.first).min(), let last = spans.map(\.last).max() else { return nil }
        return (first, last)
    }
    public var origin: PushOrigin? { answered >= 0 ? parts[answered].origin : nil }
    public var streamProgress: (bytes: Int, of: Int?) {
        var bytes = 0, total: Int? = 0
        for p in parts {
            let (b, of) = p.streamProgress
            bytes += b
            total = total.flatMap { t in of.map { t + $0 } }
        }
        return (bytes, total)
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        // Every part that has not ended holds its next push, so the earliest can be chosen.
        for i in parts.indices where !ready[i] && !ended[i] {
            switch parts[i].next(into: &held[i]) {
            case .push:
                ready[i] = true
            case .notSent(let cause):
                swap(&push, &held[i])
                answered = i
                if !stopping, parts[i].stopError != nil || parts[i].failedRead != nil { abandon() }
                return .notSent(cause)
            case .end:
                ended[i] = true
                if !stopping, parts[i].stopError != nil || parts[i].failedRead != nil { abandon() }
            case .idle:
                answered = -1
                return .idle  // a driver never idles; kept for the contract
            }
        }
        var chosen = -1
        var earliest = Int64.max
        for i in parts.indices where ready[i] {
            if stopping { chosen = i; break }
            let at = aligned(held[i].recordedMillis, part: i)
            if at < earliest { earliest = at; chosen = i }
        }
        guard chosen >= 0 else { answered = -1; return .end }
        answered = chosen
        ready[chosen] = false
        swap(&push, &held[chosen])
        if stopping { return .notSent(.runStopped) }
        push.recordedMillis = earliest
        return .push
    }

    /// `millis` of part `i` on the first part's clock: its offset from the part's first event, from the
    /// first part's first event (a part whose start is not known yet keeps its own time).
    private func aligned(_ millis: Int64, part i: Int) -> Int64 {
        guard let start = parts[i].firstRecordedMillis else { return millis }
        let base = parts.lazy.compactMap(\.firstRecordedMillis).first ?? start
        return millis - start + base
    }

    /// Every part stops; the pushes held for their turn and the parts' remaining plans end as not sent.
    public func abandon() {
        stopping = true
        for p in parts { p.abandon() }
    }
}
