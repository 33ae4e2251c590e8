import APNsCore
import Histogram

/// Per-interval counters and response-time histograms of a run, indexed by whole intervals since its
/// start (1 s by default, ``intervalSeconds``). Used on the engine thread only. Storage is reserved up
/// front; a run longer than ``maxSeconds`` intervals folds the rest into the last entry, so memory stays
/// bounded. (The names say "second" for the interval: one second unless the run asked for another.)
///
/// The interval histograms: delivered pushes' response times go into one preallocated histogram for
/// the second being recorded; when a completion falls in a later second, that histogram's non-zero
/// buckets are appended to ``finished`` (a flat array that grows by doubling, so once in a while,
/// never per push) and the histogram is cleared. A completion recorded after a later second has been
/// opened (out of order) counts in the open second's histogram; one recorder sees its completions in
/// time order, so its histograms and its `delivered` counts agree.
struct Timeline {
    /// The most intervals kept (a day of 1 s intervals); later ones count in the last one.
    static let maxSeconds = 86_400

    struct Counts: Equatable {
        var sent = 0
        var completed = 0
        var delivered = 0
        var errors = 0
        var rejected = 0
        var failed = 0
        var timedOut = 0
        /// Connection events in the interval.
        var connections = ConnectionTally.zero

        static let zero = Counts()

        static func += (lhs: inout Counts, rhs: Counts) {
            lhs.sent += rhs.sent
            lhs.completed += rhs.completed
            lhs.delivered += rhs.delivered
            lhs.errors += rhs.errors
            lhs.rejected += rhs.rejected
            lhs.failed += rhs.failed
            lhs.timedOut += rhs.timedOut
            lhs.connections += rhs.connections
        }
    }

    /// The class a completion counts in.
    enum Completion {
        case delivered, rejected, failed, timedOut, other
    }

    /// The finished buckets of one second's response-time histogram: `finished[range]`.
    struct Span {
        var second: Int
        var range: Range<Int>
    }

    /// Monotonic nanoseconds of second 0; meaningful only when `started`.
    private(set) var startNanos: UInt64 = 0
    private(set) var started = false
    private(set) var seconds: [Counts] = []
    /// Resends by interval, then by cause (``recordResend(cause:at:)``).
    private(set) var resends: [Int: [String: Int]] = [:]

    /// Response times (µs) of the deliveries of second ``openSecond``.
    private var open: Histogram<UInt64>
    private var openSecond = -1
    private let layout: HistogramLayout
    private(set) var finished: [SparseCount] = []
    private(set) var spans: [Span] = []
    /// The interval's length.
    let intervalSeconds: Int
    private let intervalNanos: UInt64
    /// p99 response time (µs) of the last interval closed with deliveries, for progress lines.
    private(set) var lastIntervalP99: UInt64?

    init(reservedSeconds: Int, intervalSeconds: Int = 1) {
        self.intervalSeconds = Swift.max(1, intervalSeconds)
        intervalNanos = UInt64(self.intervalSeconds) * 1_000_000_000
        let reserve = Swift.max(1, Swift.min(reservedSeconds / self.intervalSeconds + 1, Self.maxSeconds))
        seconds.reserveCapacity(reserve)
        spans.reserveCapacity(reserve)
        finished.reserveCapacity(Swift.min(reserve * 64, 1 << 16))
        open = LatencyHistograms.makeHistogram()
        layout = HistogramLayout(open)!
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
        let second = Int(Swift.min(elapsed / intervalNanos, UInt64(Self.maxSeconds - 1)))
        while seconds.count <= second { seconds.append(.zero) }
        return second
    }

    /// Records one sent push: its send, and (if `completed` is not 0) its completion in its class;
    /// a delivery's response time (µs) goes into its second's histogram.
    @inline(__always)
    mutating func record(sent: UInt64, completed: UInt64, as completion: Completion, responseMicros: UInt64 = 0) {
        seconds[index(of: sent)].sent += 1
        guard completed != 0 else { return }
        let i = index(of: completed)
        seconds[i].completed += 1
        switch completion {
        case .delivered:
            seconds[i].delivered += 1
            if i > openSecond {
                closeOpenSecond()
                openSecond = i
            }
            open.record(Swift.min(responseMicros, LatencyHistograms.highestMicros))
        case .rejected:
            seconds[i].errors += 1
            seconds[i].rejected += 1
        case .failed:
            seconds[i].errors += 1
            seconds[i].failed += 1
        case .timedOut:
            seconds[i].errors += 1
            seconds[i].timedOut += 1
        case .other:
            break
        }
    }

    /// Adds connection events to the interval of `nanos`.
    mutating func recordConnections(_ change: ConnectionTally, at nanos: UInt64) {
        seconds[index(of: nanos)].connections += change
    }

    /// Counts one resend, by the cause of the attempt before it, in the interval of `nanos`. Resends are
    /// rare (the target refused or failed), so their causes are kept by interval in a dictionary.
    mutating func recordResend(cause: String, at nanos: UInt64) {
        resends[index(of: nanos), default: [:]][cause, default: 0] += 1
    }

    /// Moves the open second's histogram into ``finished`` and clears it.
    ///
    /// Walks the indices from the lowest to the highest recorded value with `countForValue` (a plain
    /// read) rather than `recordedValues()`, whose iterator holds a second reference to the counts and
    /// would make `reset()` copy them: this runs on the engine thread and must not allocate.
    mutating func closeOpenSecond() {
        guard openSecond >= 0, open.totalCount > 0 else { return }
        let first = finished.count
        let low = layout.index(of: open.min)
        let high = layout.index(of: open.maxRecorded)
        var index = low
        while index <= high {
            let count = open.countForValue(layout.value(at: index))
            if count > 0 { finished.append(SparseCount(index: index, count: count)) }
            index += 1
        }
        spans.append(Span(second: openSecond, range: first..<finished.count))
        lastIntervalP99 = open.valueAtPercentile(99)
        open.reset()
    }

    /// Adds another timeline, aligning both by their start times (seconds the other began before
    /// this one count in second 0).
    mutating func add(_ other: Timeline) {
        guard other.started else { return }
        var other = other
        other.closeOpenSecond()
        closeOpenSecond()
        openSecond = -1
        guard started else {
            self = other
            return
        }
        var offset = 0
        if other.startNanos > startNanos {
            offset = Int(Swift.min((other.startNanos - startNanos) / intervalNanos, UInt64(Self.maxSeconds)))
        } else if other.startNanos < startNanos {
            offset = -Int(Swift.min((startNanos - other.startNanos) / intervalNanos, UInt64(Self.maxSeconds)))
        }
        func target(_ second: Int) -> Int { Swift.min(Swift.max(second + offset, 0), Self.maxSeconds - 1) }
        for (second, counts) in other.seconds.enumerated() {
            let t = target(second)
            while seconds.count <= t { seconds.append(.zero) }
            seconds[t] += counts
        }
        for (second, causes) in other.resends {
            resends[target(second), default: [:]].merge(causes, uniquingKeysWith: +)
        }
        for span in other.spans {
            let first = finished.count
            finished += other.finished[span.range]
            spans.append(Span(second: target(span.second), range: first..<finished.count))
        }
    }

    /// The report's entries, one per interval from 0 to the last with any activity (`second`: the
    /// interval's start, in seconds since the run's), each with its deliveries' response-time histogram
    /// encoded (``EncodedHistogram``), the pushes in flight at its end (sent so far minus completed so
    /// far), its connection events, the connections open at its end, and its resends by cause.
    var entries: [RunReport.TimelineEntry] {
        var copy = self
        copy.closeOpenSecond()
        var bySecond: [Int: [Range<Int>]] = [:]
        for span in copy.spans { bySecond[span.second, default: []].append(span.range) }
        var sentSoFar = 0
        var completedSoFar = 0
        var connectionsSoFar = ConnectionTally.zero
        return copy.seconds.enumerated().map { second, c in
            sentSoFar += c.sent
            completedSoFar += c.completed
            connectionsSoFar += c.connections
            var encoded: String?
            if let ranges = bySecond[second] {
                encoded = EncodedHistogram.encode(counts: ranges.flatMap { copy.finished[$0] }, layout: copy.layout)
            }
            return RunReport.TimelineEntry(
                second: second * intervalSeconds, sent: c.sent, completed: c.completed, delivered: c.delivered, errors: c.errors,
                rejected: c.rejected, failed: c.failed, timedOut: c.timedOut, inFlight: sentSoFar - completedSoFar,
                responseTime: encoded, connectionsOpen: connectionsSoFar.open, goAways: c.connections.goAways,
                reconnects: c.connections.reconnects, tokenSignings: c.connections.tokenSignings,
                connectionsLost: c.connections.lost, resends: copy.resends[second])
        }
    }
}
