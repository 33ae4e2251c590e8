import APNsCore

/// Where a coalescer reports what it did: each update it superseded, and the staleness each update
/// suffered (from its recorded time until a push carrying it, or newer state, was released).
public protocol CoalescingAccounting: AnyObject {
    func coalescingStaleness(millis: Int64)
}

/// The batching knob: Live Activity updates for the same activity token within `window` (recorded time)
/// collapse into the latest one, released when the window that the first of them opened closes. Each
/// superseded update is a planned push that ends as not sent (`coalesced`), so the totals still add up
/// and the report shows the pushes saved; every update's staleness (release − recorded time) is measured
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
    private let outcomes: OutcomeSink
    private let accounting: CoalescingAccounting
    private var byToken: [String: Held] = [:]
    private var queue: [Held] = []
    private var head = 0
    private var pool: [Held] = []
    private var scratch = OutgoingPush()
    private var horizon: Int64 = .min
    private var exhausted = false
    /// Updates superseded so far.
    public private(set) var saved = 0

    /// - Parameter windowMillis: the window in recorded milliseconds; must be positive.
    public init(_ inner: PushSource, windowMillis: Int64, outcomes: OutcomeSink, accounting: CoalescingAccounting) {
        precondition(windowMillis > 0, "coalescing window must be positive")
        self.inner = inner
        self.window = windowMillis
        self.outcomes = outcomes
        self.accounting = accounting
    }

    public func next(into push: inout OutgoingPush) -> Bool {
        while true {
            if head < queue.count {
                let front = queue[head]
                if exhausted || front.opened + window <= horizon {
                    release(front, into: &push)
                    return true
                }
            }
            if exhausted { return false }
            guard inner.next(into: &scratch) else {
                exhausted = true
                continue
            }
            horizon = max(horizon, scratch.recordedMillis)
            absorb(scratch)
        }
    }

    /// Updates still held when the run stopped were planned and never sent.
    public func abandon() {
        for held in queue[head...] {
            outcomes.record(.notSent(.runStopped), priority: held.push.priority, intended: 0, sent: 0, completed: 0)
        }
        queue.removeAll()
        head = 0
        byToken.removeAll()
        inner.abandon()
    }

    private func absorb(_ p: OutgoingPush) {
        if let held = byToken[p.deviceToken] {
            if held.opened + window > p.recordedMillis {
                // Same token, window still open: the newer update replaces the held one.
                outcomes.record(.notSent(.coalesced), priority: held.push.priority, intended: 0, sent: 0, completed: 0)
                saved += 1
                copy(p, into: held)
                accounting.coalescingStaleness(millis: max(0, held.opened + window - p.recordedMillis))
                return
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
        accounting.coalescingStaleness(millis: window)
        copy(p, into: held)
        byToken[p.deviceToken] = held
        queue.append(held)
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
        pool.append(held)
    }
}
