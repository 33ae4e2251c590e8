import APNsCore
import CCurl
import Foundation

/// The hot path: one libcurl multi handle driving HTTP/2 multiplexed POSTs over at most
/// `connections` connections with at most `streamsPerConnection` streams each.
///
/// The loop pulls pushes from a `PushSource` into reusable `TransferSlot`s while there is room in the
/// window (connections × streams) and the next push is due, lets libcurl work, and reports each
/// completed push to an `OutcomeSink` exactly once. Everything per push is prepared ahead: header lists
/// (one per priority, rebuilt only when the provider token is re-signed), easy handles, body and
/// response buffers. Not thread-safe: `run` owns the multi handle on the calling thread.
///
/// The engine carries out what its pieces decide: the run loop (`EngineLoop`: the end, a stop, fail-fast,
/// reachability), the connection lifecycle (warm-up, reconnect holds, PINGs), the token ledger (dead tokens,
/// 429 holds, resends), the stall watchdog (connections to give up) and each ended transfer's verdict
/// (`TransferVerdict`). The slots live in `TransferPool`, the provider token's header lists in `SignedHeaders`;
/// completions are read in `CurlEngine+Completions.swift`, resends in `CurlEngine+Resends.swift`.
public final class CurlEngine: WakeableEngine {
    public let configuration: EngineConfiguration
    /// Drives the multi handle and waits on it (``CurlDrive``).
    private let driver: MultiDriver
    /// The multi handle and the transfer slots: free, staged, waiting to be resent, in flight.
    let pool: TransferPool
    /// The provider token and the header lists that carry it.
    var headers: SignedHeaders
    var counters = EngineCounters()
    var lifecycle: ConnectionLifecycle
    /// Dead tokens, 429 holds and the re-sign rule: decides, and the loop carries out what it returns.
    var ledger: TokenLedger
    /// The run loop's own decisions and bookkeeping (the end, the stop, fail-fast, reachability), as a state machine.
    var loop = EngineLoop(started: 0, durationSeconds: nil, graceSeconds: 0, failFastSeconds: 0, sendAheadNanos: 0)
    /// Gives up connections that stopped answering; the loop shuts down the sockets it names.
    var watchdog: StallWatchdog
    /// The connection events the sink has been told of.
    private var reportedConnections = ConnectionTally.zero

    /// Called on the engine's thread about every `progressInterval` seconds of a run, with the counters so
    /// far, the pushes completed and the pushes in flight. Keep it short: the hot loop waits for it.
    public var onProgress: ((EngineCounters, _ completed: Int, _ inFlight: Int) -> Void)?
    /// A stop another thread may request (a signal): the engine sends nothing new, waits for what is in
    /// flight until the stop's drain deadline, gives up the rest, and counts what it did not send for the
    /// stop's cause. Whoever requests it must also call ``wake()`` (``RunStop/onRequest(_:)``).
    public var stop = RunStop()

    /// Turns of the run loop so far (tests: a loop that spins without waiting shows here).
    var loopTurns: Int { loop.turns }
    /// Waits that ended before the idle cap with nothing ready (tests: a wait that spins shows here).
    var emptyWakeUps: Int { driver.emptyWakeUps }
    /// Ready sockets read by one transfer, and those for which libcurl ran every transfer of the socket (tests).
    var socketReads: (byOne: Int, byAll: Int) { (driver.readsByOne, driver.readsByAll) }

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// - Parameter drive: how libcurl is driven and waited on; nil: the configuration's (``EngineConfiguration/drive``).
    public init(configuration: EngineConfiguration, tokens: ProviderTokenCache, drive: CurlDrive? = nil) throws {
        try LibcurlInfo.loaded().requireUsable()
        try configuration.validate()
        _ = Self.globalInit
        self.configuration = configuration
        ledger = TokenLedger(policy: configuration.retry)
        pool = try TransferPool(configuration: configuration)
        driver = try MultiDriver(multi: pool.multi, drive: drive ?? configuration.drive)
        headers = try SignedHeaders(configuration: configuration, tokens: tokens)
        counters.providerTokenSignings = headers.signings
        watchdog = StallWatchdog(timeoutSeconds: Int(configuration.stallTimeout.millis / 1000))
        lifecycle = ConnectionLifecycle(settings: configuration.lifecycle, initialConnections: configuration.connections, now: MonotonicTime.now())
    }

    deinit {
        pool.removeAll()
        driver.close()
        pool.cleanup()
    }

    /// Sends every push the source gives and returns when all have ended (or the duration limit was reached
    /// and what was in flight has ended). A push may take several attempts (see `RetryPolicy`); the sink
    /// hears of it once, with its final outcome. The engine is the only writer of outcomes: the source's
    /// not-sent pushes are recorded here too, as the source says them.
    public func run(source: PushSource, sink: OutcomeSink) throws -> EngineCounters {
        let started = MonotonicTime.now()
        let cpuAtStart = MonotonicTime.threadCPUNanos()
        let previous = loop
        loop = EngineLoop(started: started, durationSeconds: configuration.durationLimit?.secondsValue, graceSeconds: configuration.durationGraceSeconds,
                          failFastSeconds: configuration.failFast.secondsValue, sendAheadNanos: Self.sendAheadNanos)
        // Reachability is the target's: an earlier run's answers count.
        loop.carryOver(from: previous)
        let progressEvery = UInt64(max(0.1, configuration.progressInterval) * 1e9)
        var nextProgress = started + progressEvery
        // The lifecycle (warm-up, reconnect backoff) carries over from an earlier run() on the same
        // connections: a second run does not start again at one stream.
        while true {
            loop.turnBegins()
            let now = MonotonicTime.now()
            try housekeeping(now: now, nextProgress: &nextProgress, every: progressEvery)
            // No transfer ever answered and failures went on past the fail-fast window: give up on the
            // target (every worker and the producer stop with it), naming it and the last failure.
            if loop.givesUp(now: now, stopRequested: stop.isRequested) {
                stop.request(.targetUnreachable, drainSeconds: 0, reason: configuration.unreachableMessage(lastError: loop.lastUnreachableError ?? 0))
            }
            carryOut(loop.stopActions(now: now, staged: pool.staged?.push.intendedNanos, retriesWaiting: !pool.retryQueue.isEmpty,
                                      inFlight: pool.inFlight, stop: (stop.isRequested, stop.cause, stop.drainDeadlineNanos)), now: now, sink: sink)
            if watchdog.isDue(now: now, inFlight: pool.inFlight) { giveUpStalledConnections(now: now) }

            let limit = lifecycle.streamLimit(window: configuration.window)
            try fillWindow(limit: limit, source: source, sink: sink, now: now)
            try driver.perform()
            let completedBefore = pool.completed
            drainCompletions(sink: sink)
            reportConnections(to: sink)

            let end = EngineLoop.TurnEnd(now: now, staged: pool.staged?.push.intendedNanos, room: pool.inFlight < limit, inFlight: pool.inFlight,
                                         retriesWaiting: !pool.retryQueue.isEmpty, nextRetry: pool.retryQueue.nextDueNanos,
                                         lifecycleWake: lifecycle.wakeNanos, completed: pool.completed != completedBefore,
                                         stopRequested: stop.isRequested, drainDeadline: stop.drainDeadlineNanos)
            var due: UInt64?
            switch loop.next(end) {
            case .finish: return finishRun(source: source, sink: sink, cpuAtStart: cpuAtStart)
            case .again:
                if loop.mayGoRoundWithoutWaiting() { continue }
                due = now
            case .wait(let at):
                due = at
                // Due already (the loop's own work took that long): no wait, the next turn sends it.
                if let at, at <= MonotonicTime.now(), loop.mayGoRoundWithoutWaiting() { continue }
            }
            // Sleep until libcurl has something, or the next push, resend or end of a hold is due: to the
            // nanosecond (MultiDriver), so that a push due in under a millisecond does not spin.
            let before = MonotonicTime.now()
            if loop.goesRoundInsteadOfWaiting({ driver.libcurlHasWorkNow(now: before) }) { continue }
            try driver.wait(due: due, now: before)
            loop.waited()
            counters.wakeUps += 1
        }
    }

    /// The start of a turn: a provider token due for re-signing, the connections' tick (a PING to send), and
    /// the progress hook when it is due.
    @inline(__always)
    private func housekeeping(now: UInt64, nextProgress: inout UInt64, every progressEvery: UInt64) throws {
        if headers.tokens.needsRefresh { try rebuildHeaders() }
        if lifecycle.handle(.tick, now: now) == .ping { pool.ping() }
        if now >= nextProgress, let onProgress {
            counters.take(ledger.counters)
            onProgress(counters, pool.completed, pool.inFlight)
            nextProgress = now + progressEvery
        }
    }

    /// Carries out what the stop ends this turn.
    private func carryOut(_ actions: EngineLoop.StopActions, now: UInt64, sink: OutcomeSink) {
        if let cause = actions.staged, let s = pool.staged {
            finish(s, outcome: .notSent(cause), completed: 0, sink: sink)
            pool.staged = nil
        }
        if let cause = actions.retries {
            for s in pool.retryQueue.drain() { finish(s, outcome: s.lastOutcome ?? .notSent(cause), completed: now, sink: sink) }
        }
        if let cause = actions.inFlight { abandonInFlight(as: cause, sink: sink) }
    }

    /// Fills the window up to `limit` transfers: pushes due again first, then new ones from the source that
    /// are due (one due later is staged until then).
    private func fillWindow(limit: Int, source: PushSource, sink: OutcomeSink, now: UInt64) throws {
        while pool.inFlight < limit {
            if let slot = pool.retryQueue.popDue(now: now) {
                guard try resendIsDue(slot, now: now) else { break }
                if slot.attempts > 0 { countResend(slot, now: now, sink: sink) }
                start(slot, now: now)
                continue
            }
            let slot: TransferSlot
            if let s = pool.staged {
                guard loop.isDue(s.push.intendedNanos, now: now) else { break }
                slot = s
                pool.staged = nil
            } else {
                guard !loop.exhausted else { break }
                switch try take(from: source, sink: sink, now: now) {
                case .send(let s): slot = s
                case .ended: continue
                case .none: return
                }
            }
            if case .hold(let until) = ledger.ready(token: slot.push.deviceToken, now: now) {
                // This token is backing off after 429: keep its pushes in order behind the held one.
                slot.dueNanos = until
                pool.retryQueue.push(slot)
                continue
            }
            start(slot, now: now)
        }
    }

    /// What taking the next push from the source gave.
    private enum Taken {
        /// A push to send now.
        case send(TransferSlot)
        /// It ended at once (not sent, or found no longer deliverable): take the next.
        case ended
        /// Nothing to send now: the source ended or has nothing ready, or its push is staged for later.
        case none
    }

    private func take(from source: PushSource, sink: OutcomeSink, now: UInt64) throws -> Taken {
        let slot = try pool.take()
        let pulled = source.next(into: &slot.push)
        guard pulled == .push else {
            pool.release(slot)
            if case .notSent(let cause) = pulled {
                sink.recordNotSent(cause, slot.push)
                return .ended
            }
            // Ended, or (a worker's queue) nothing ready yet: then wait in poll until wake().
            if pulled == .end { loop.sourceEnded() }
            return .none
        }
        let admission = loop.admit(intended: slot.push.intendedNanos, now: now)
        if admission == .afterEnd {
            sink.recordNotSent(.afterEnd, slot.push)
            pool.release(slot)
            return .ended
        }
        slot.resetRetryState(sequence: pool.nextSequence())
        if case .notSent(let cause) = ledger.taken(token: slot.push.deviceToken) {
            finish(slot, outcome: .notSent(slot.push.channel >= 0 ? .channelGone : cause), completed: 0, sink: sink)
            return .ended
        }
        guard admission == .send else {
            pool.staged = slot
            return .none
        }
        return .send(slot)
    }

    /// The loop ended: what the source still had planned after an early stop is recorded, and the counters
    /// are completed.
    private func finishRun(source: PushSource, sink: OutcomeSink, cpuAtStart: UInt64) -> EngineCounters {
        if case let .stopped(cause, endedAt) = loop.phase {
            // What the source still had planned ends as not sent, recorded here like every outcome.
            var scratch = OutgoingPush(bodyCapacity: 0)
            sink.recordAbandoned(source, using: &scratch, stoppedAs: cause, deadline: endedAt)
        }
        reportConnections(to: sink)
        counters.take(lifecycle)
        counters.engineCPUMillis = Int((MonotonicTime.threadCPUNanos() &- cpuAtStart) / 1_000_000)
        counters.busiestEngineCPUMillis = counters.engineCPUMillis
        counters.take(ledger.counters)
        return counters
    }

    /// Tells the sink what changed in the connections and signings since it was last told, if anything did
    /// (five integer compares a turn; the call itself is rare).
    @inline(__always)
    private func reportConnections(to sink: OutcomeSink) {
        let now = lifecycle.tally(tokenSignings: headers.signings)
        guard now != reportedConnections else { return }
        sink.recordConnections(now - reportedConnections, at: MonotonicTime.now())
        reportedConnections = now
    }

    /// Gives up every transfer still in flight (the drain after a stop ran out): each ends as not sent
    /// for `cause`, though it was sent, because its answer never came.
    private func abandonInFlight(as cause: NotSentCause, sink: OutcomeSink) {
        for slot in pool.slots where slot.active {
            pool.remove(slot, done: false)
            finish(slot, outcome: .notSent(cause), completed: 0, sink: sink)
        }
    }

    /// Ends the engine's current wait early: a source that had nothing ready has a
    /// push now. Safe from any thread.
    public func wake() {
        driver.wake()
    }

    /// How this engine drives libcurl.
    public var drive: CurlDrive { driver.drive }

    /// New header lists with the cache's current token (`bearer()` signs one if the cached one is due).
    private func rebuildHeaders() throws {
        try headers.rebuild()
        counters.providerTokenSignings = headers.signings
    }

    @inline(__always)
    private func start(_ slot: TransferSlot, now: UInt64) {
        slot.prepare(headers: headers.current)
        slot.tokenIssuedAt = headers.current.issuedAt
        slot.sentNanos = now
        if slot.attempts == 0 {
            slot.firstSentNanos = now
            // A push sent ahead of its time counts from when it went: response time is never below service time.
            slot.intendedNanos = slot.push.intendedNanos == 0 ? now : min(slot.push.intendedNanos, now)
        }
        slot.attempts += 1
        pool.add(slot)
        driver.added(slot.easy)
        counters.sent += 1
        _ = lifecycle.handle(.sent, now: now)
        if pool.inFlight > counters.peakInFlight { counters.peakInFlight = pool.inFlight }
    }

    /// The push has its final outcome: tell the sink and free the slot.
    @inline(__always)
    func finish(_ slot: TransferSlot, outcome: Outcome, completed: UInt64, sink: OutcomeSink) {
        let sent = slot.attempts == 0 ? 0 : slot.sentNanos
        let intended = slot.attempts == 0 ? slot.push.intendedNanos : slot.intendedNanos
        sink.record(outcome, priority: slot.push.priority, intended: intended, sent: sent, completed: sent == 0 ? 0 : completed)
        slot.lastOutcome = nil
        pool.release(slot)
    }

    /// A push due within this long is sent now: at high rates one wake-up then sends the few pushes due
    /// next instead of sleeping between each (at 20,000 pushes/s they are 50 µs apart). The schedule's
    /// rate over any millisecond is unchanged; each push is at most this early.
    static let sendAheadNanos: UInt64 = 200_000
}
