import APNsCore

/// Gives each push from a workload its intended send time from a `Pacer`, anchored at the run's start when
/// the run says it (``anchor(atNanos:)``, so that its duration's end falls at the same place in the schedule
/// every time), else at the moment the engine first asks (so setup time is not counted as lateness). The
/// engine holds a push until it is due; when it falls behind, latency from the intended time shows it.
public final class PacedSource: PushSource {
    private let inner: PushSource
    private let pacer: Pacer
    private var anchor: UInt64 = 0
    /// The schedule's time 0, monotonic ns; 0 until it is anchored.
    public var anchorNanos: UInt64 { anchor }
    private var firstRecorded: Int64?
    private var count = 0

    public init(_ inner: PushSource, pacer: Pacer) {
        self.inner = inner
        self.pacer = pacer
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        let result = inner.next(into: &push)
        guard result == .push else { return result }
        if anchor == 0 { anchor = MonotonicTime.now() }
        let first = firstRecorded ?? push.recordedMillis
        firstRecorded = first
        if let offset = pacer.offset(push: count, recordedMillis: push.recordedMillis - first) {
            push.intendedNanos = anchor + UInt64(offset * 1e9)
        } else {
            push.intendedNanos = 0
        }
        count += 1
        return .push
    }

    public func abandon() { inner.abandon() }

    /// Anchors the schedule at `nanos` (before the first push is taken; later calls are ignored).
    public func anchor(atNanos nanos: UInt64) {
        if anchor == 0 { anchor = nanos }
    }
}
