import APNsCore
import Histogram

/// The batching knob: Live Activity updates for the same activity token within `window` (recorded time)
/// collapse into the latest one, released when the window that the first of them opened closes. Each
/// superseded update is a planned push that ends as not sent (`coalesced`), so the totals still add up
/// and the report shows the pushes saved (``saved``); every update's staleness (``staleness``) (release − recorded time) is measured
/// when it arrives, since its release time (the window's end) is known then — so a run stopped early also
/// counts the staleness its held updates would have had.
///
/// Holds at most one push per token with an open window, so memory follows the number of tokens updated
/// within one window, not the stream's length. Release order is the order windows were opened.
public final class Coalescer: PushSource {
    final class Held {
        var push = OutgoingPush()
        var opened: Int64 = 0
        var open = true
    }

    private let inner: PushSource
    private let window: Int64
    private var byToken: [String: Held] = [:]
    private var queue: [Held] = []
    private var head = 0
    private var pool: [Held] = []
    private var scratch = OutgoingPush()
    private var horizon: Int64 = .min
    private var exhausted = false
    private var abandoned = false
    /// Updates superseded so far.
    public private(set) var saved = 0
    /// How long each update waited, from its recorded time until a push carrying it (or newer state) was
    /// released: recorded milliseconds, 1 ms to 1 day.
    public private(set) var staleness = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 86_400_000, numberOfSignificantValueDigits: .three)

    /// - Parameter windowMillis: the window in recorded milliseconds; must be positive.
    public init(_ inner: PushSource, windowMillis: Int64) {
        precondition(windowMillis > 0, "coalescing window must be positive")
        self.inner = inner
        self.window = windowMillis
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        if abandoned { return drainAbandoned(into: &push) }
        while true {
            if head < queue.count {
                let front = queue[head]
                if exhausted || front.opened + window <= horizon {
                    release(front, into: &push)
                    return .push
                }
            }
            if exhausted { return .end }
            switch inner.next(into: &scratch) {
            case .end:
                exhausted = true
            case .idle:
                return .idle
            case .notSent(let cause):
                push.priority = scratch.priority
                push.intendedNanos = 0
                return .notSent(cause)
            case .push:
                horizon = max(horizon, scratch.recordedMillis)
                if let supersededPriority = absorb(scratch) {
                    push.priority = supersededPriority
                    push.intendedNanos = 0
                    return .notSent(.coalesced)
                }
            }
        }
    }

    /// Updates still held when the run stopped were planned and never sent; so is what the inner
    /// source still had planned.
    public func abandon() {
        abandoned = true
        inner.abandon()
    }

    private func drainAbandoned(into push: inout OutgoingPush) -> PullResult {
        if head < queue.count {
            push.priority = queue[head].push.priority
            push.intendedNanos = 0
            head += 1
            return .notSent(.runStopped)
        }
        switch inner.next(into: &scratch) {
        case .push, .notSent:
            push.priority = scratch.priority
            push.intendedNanos = 0
            return .notSent(.runStopped)
        case .idle, .end:
            return .end
        }
    }

    private func recordStaleness(_ millis: Int64) {
        _ = staleness.record(UInt64(min(max(millis, 0), 86_400_000)))
    }

    /// Takes in one update; returns the priority of the held update it superseded, if it did.
    private func absorb(_ p: OutgoingPush) -> Priority? {
        if let held = byToken[p.deviceToken] {
            if held.opened + window > p.recordedMillis {
                // Same token, window still open: the newer update replaces the held one.
                let superseded = held.push.priority
                saved += 1
                copy(p, into: held)
                recordStaleness(max(0, held.opened + window - p.recordedMillis))
                return superseded
            }
            // Its window has closed: it waits in the queue for release; this update opens a new one.
            held.open = false
            byToken.removeValue(forKey: p.deviceToken)
        }
        let held = pool.popLast() ?? Held()
        held.open = true
        held.opened = p.recordedMillis
        // Its window closes at opened + window whatever else arrives, so each update's staleness is known
        // now: recorded at once, memory stays one counter per held update however dense the stream.
        recordStaleness(window)
        copy(p, into: held)
        byToken[p.deviceToken] = held
        queue.append(held)
        return nil
    }

    private func copy(_ p: OutgoingPush, into held: Held) {
        held.push.deviceToken = p.deviceToken
        held.push.body.removeAll(keepingCapacity: true)
        held.push.body.append(contentsOf: p.body)
        held.push.priority = p.priority
        held.push.recordedMillis = p.recordedMillis
    }

    private func release(_ held: Held, into push: inout OutgoingPush) {
        head += 1
        if head > 1024, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        if held.open, byToken[held.push.deviceToken] === held { byToken.removeValue(forKey: held.push.deviceToken) }
        // The window closes at the same recorded time whether or not the stream has ended.
        let at = held.opened + window
        push.deviceToken = held.push.deviceToken
        push.body.removeAll(keepingCapacity: true)
        push.body.append(contentsOf: held.push.body)
        push.priority = held.push.priority
        push.intendedNanos = 0
        push.recordedMillis = at
        push.heldMillis = max(0, at - held.push.recordedMillis)
        pool.append(held)
    }
}
