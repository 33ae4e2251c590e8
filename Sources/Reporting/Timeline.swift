/// Per-second counters of a run, indexed by whole seconds since its start. Used on the engine
/// thread only. Storage is reserved up front; a run longer than ``maxSeconds`` folds the rest into
/// the last entry, so memory stays bounded.
struct Timeline {
    /// The most seconds kept (one day); later seconds count in the last one.
    static let maxSeconds = 86_400

    struct Counts: Equatable {
        var sent = 0
        var completed = 0
        var delivered = 0
        var errors = 0

        static let zero = Counts()

        static func += (lhs: inout Counts, rhs: Counts) {
            lhs.sent += rhs.sent
            lhs.completed += rhs.completed
            lhs.delivered += rhs.delivered
            lhs.errors += rhs.errors
        }
    }

    /// Monotonic nanoseconds of second 0; meaningful only when `started`.
    private(set) var startNanos: UInt64 = 0
    private(set) var started = false
    private(set) var seconds: [Counts] = []

    init(reservedSeconds: Int) {
        seconds.reserveCapacity(Swift.max(1, Swift.min(reservedSeconds, Self.maxSeconds)))
    }

    mutating func start(atNanos nanos: UInt64) {
        startNanos = nanos
        started = true
    }

    /// The entry for a monotonic time: starts the timeline at `nanos` if not started, clamps times
    /// before the start to second 0 and folds seconds past ``maxSeconds`` into the last entry.
    @inline(__always)
    mutating func index(of nanos: UInt64) -> Int {
        if !started { start(atNanos: nanos) }
        let elapsed = nanos > startNanos ? nanos - startNanos : 0
        let second = Int(Swift.min(elapsed / 1_000_000_000, UInt64(Self.maxSeconds - 1)))
        while seconds.count <= second { seconds.append(.zero) }
        return second
    }

    /// Records one sent push: its send, and (if `completed` is not 0) its completion, which counts as
    /// delivered, as an error (rejected, failed, timed out), or neither.
    @inline(__always)
    mutating func record(sent: UInt64, completed: UInt64, delivered: Bool, error: Bool) {
        seconds[index(of: sent)].sent += 1
        guard completed != 0 else { return }
        let i = index(of: completed)
        seconds[i].completed += 1
        if delivered { seconds[i].delivered += 1 }
        if error { seconds[i].errors += 1 }
    }

    /// Adds another timeline, aligning both by their start times (seconds the other began before
    /// this one count in second 0).
    mutating func add(_ other: Timeline) {
        guard other.started else { return }
        guard started else {
            self = other
            return
        }
        var offset = 0
        if other.startNanos > startNanos {
            offset = Int(Swift.min((other.startNanos - startNanos) / 1_000_000_000, UInt64(Self.maxSeconds)))
        } else if other.startNanos < startNanos {
            offset = -Int(Swift.min((startNanos - other.startNanos) / 1_000_000_000, UInt64(Self.maxSeconds)))
        }
        for (second, counts) in other.seconds.enumerated() {
            let target = Swift.min(Swift.max(second + offset, 0), Self.maxSeconds - 1)
            while seconds.count <= target { seconds.append(.zero) }
            seconds[target] += counts
        }
    }

    /// The report's entries, one per second from 0 to the last second with any activity.
    var entries: [RunReport.TimelineEntry] {
        seconds.enumerated().map { second, c in
            RunReport.TimelineEntry(second: second, sent: c.sent, completed: c.completed, delivered: c.delivered, errors: c.errors)
        }
    }
}
