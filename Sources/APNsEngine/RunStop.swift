import APNsCore
import Foundation
import Synchronization

/// A request, from any thread, that a run stop early: no new sends; what is in flight gets until
/// ``drainDeadlineNanos`` to be answered; everything else is counted as not sent for ``cause``
/// (`interrupted` after SIGINT/SIGTERM). Engines and the pool's producer check ``isRequested`` once a
/// turn (one atomic load) and are woken by the handlers registered with ``onRequest(_:)``.
public final class RunStop: @unchecked Sendable {
    private let requested = Atomic<Bool>(false)
    private let lock = NSLock()
    private var stopCause: NotSentCause = .interrupted
    private var deadline: UInt64 = 0
    private var why: String?
    private var handlers: [() -> Void] = []

    public init() {}

    /// Whether a stop was requested (cheap: one relaxed atomic load).
    @inline(__always)
    public var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Why the run stops: what pushes it did not send are counted as.
    public var cause: NotSentCause { lock.withLock { stopCause } }

    /// Why, in words (`SIGINT`, `cannot reach 127.0.0.1:1: ...`), when the requester said.
    public var reason: String? { lock.withLock { why } }

    /// Monotonic time after which what is still in flight is given up.
    public var drainDeadlineNanos: UInt64 { lock.withLock { deadline } }

    /// Asks the run to stop; the first request wins, later ones are ignored. Runs every registered
    /// handler (engines' `wake()`), on the calling thread.
    public func request(_ cause: NotSentCause = .interrupted, drainSeconds: Double, reason: String? = nil,
                        now: UInt64 = MonotonicTime.now()) {
        let run: [() -> Void] = lock.withLock {
            guard !requested.load(ordering: .relaxed) else { return [] }
            stopCause = cause
            why = reason
            deadline = now + UInt64(Swift.max(0, drainSeconds) * 1e9)
            requested.store(true, ordering: .releasing)
            return handlers
        }
        for h in run { h() }
    }

    /// Registers `handler` to run when a stop is requested (at once if one was).
    public func onRequest(_ handler: @escaping () -> Void) {
        let now: Bool = lock.withLock {
            if requested.load(ordering: .relaxed) { return true }
            handlers.append(handler)
            return false
        }
        if now { handler() }
    }
}
