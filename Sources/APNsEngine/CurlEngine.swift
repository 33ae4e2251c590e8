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
public final class CurlEngine: WakeableEngine {
    public let configuration: EngineConfiguration
    private let tokens: ProviderTokenCache
    private let multi: UnsafeMutableRawPointer
    /// Drives the multi handle and waits on it (``CurlDrive``).
    private let driver: MultiDriver
    private var headerSet: HeaderSet
    private var slots: [TransferSlot] = []
    private var free: [TransferSlot] = []
    private var inFlight = 0
    private var counters = EngineCounters()
    private var transportErrors: [Int: TransportError] = [:]
    private var completedCount = 0
    /// An easy handle that never transfers: added to the multi for a moment so that `curl_easy_upkeep`
    /// reaches the multi's connection pool and PINGs idle connections. (A CURLSH connection share would
    /// make upkeep simpler, but libcurl then ignores the multi's connection limits: measured, 3 connections
    /// opened with MAX_HOST_CONNECTIONS 1.)
    private let keeper: UnsafeMutableRawPointer
    private var lifecycle: ConnectionLifecycle
    /// Pushes waiting to be resent.
    private var retryQueue = RetryQueue()
    /// Dead tokens, 429 holds and the re-sign rule: decides, and the loop carries out what it returns.
    private var ledger: TokenLedger
    private var sequence: UInt64 = 0
    /// Turns of the run loop so far (tests: a loop that spins without waiting shows here).
    private(set) var loopTurns = 0
    /// Waits that ended before the idle cap with nothing ready (tests: a wait that spins shows here).
    var emptyWakeUps: Int { driver.emptyWakeUps }
    /// The token cache's signings before this engine started using it.
    private let signingsBase: Int
    /// The run loop's own decisions and bookkeeping (the end, the stop, fail-fast), as a state machine.
    private var loop = EngineLoop(started: 0, durationSeconds: nil, graceSeconds: 0, failFastSeconds: 0, sendAheadNanos: 0)
    /// A push taken from the source that is due later.
    private var staged: TransferSlot?
    /// The last transport failure before any answer (named when the run gives up on the target).
    private var lastUnreachable = CURLE_OK
    /// Whether the stall watchdog is on.
    private var stallWatch: Bool { configuration.stallTimeoutSeconds > 0 }
    /// The connection events the sink has been told of.
    private var reportedConnections = ConnectionTally.zero

    /// Called on the engine's thread about every `progressInterval` seconds of a run, with the counters so
    /// far, the pushes completed and the pushes in flight. Keep it short: the hot loop waits for it.
    public var onProgress: ((EngineCounters, _ completed: Int, _ inFlight: Int) -> Void)?
    /// A stop another thread may request (a signal): the engine sends nothing new, waits for what is in
    /// flight until the stop's drain deadline, gives up the rest, and counts what it did not send for the
    /// stop's cause. Whoever requests it must also call ``wake()`` (``RunStop/onRequest(_:)``).
    public var stop = RunStop()

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// - Parameter drive: how libcurl is driven and waited on; nil: the configuration's (``EngineConfiguration/drive``).
    public init(configuration: EngineConfiguration, tokens: ProviderTokenCache, drive: CurlDrive? = nil) throws {
        try LibcurlInfo.loaded().requireUsable()
        try configuration.validate()
        _ = Self.globalInit
        self.configuration = configuration
        self.tokens = tokens
        ledger = TokenLedger(policy: configuration.retry)
        guard let multi = curl_multi_init() else { throw EngineError.curlSetup("curl_multi_init failed") }
        self.multi = multi
        driver = try MultiDriver(multi: multi, drive: drive ?? configuration.drive)
        signingsBase = tokens.signings
        headerSet = try HeaderSet(configuration: configuration, bearer: tokens.bearer(), issuedAt: tokens.issuedAt)
        counters.providerTokenSignings = tokens.signings - signingsBase
        keeper = try Self.makeKeeper(configuration)
        lifecycle = ConnectionLifecycle(settings: configuration.lifecycle, initialConnections: configuration.connections, now: MonotonicTime.now())
        func check(_ code: CURLMcode, _ what: String) throws {
            guard code == CURLM_OK else { throw EngineError.curlSetup("curl_multi_setopt(\(what)) failed: \(String(cString: curl_multi_strerror(code)))") }
        }
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX)), "PIPELINING")
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.connections), "MAX_HOST_CONNECTIONS")
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.connections), "MAX_TOTAL_CONNECTIONS")
        // libcurl's default is 100 streams per connection whatever the server allows.
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, configuration.streamsPerConnection), "MAX_CONCURRENT_STREAMS")
    }

    deinit {
        for slot in slots { curl_multi_remove_handle(multi, slot.easy) }
        slots.removeAll()
        free.removeAll()
        driver.close()
        curl_multi_cleanup(multi)
        curl_easy_cleanup(keeper)
    }

    /// Sends every push the source gives and returns when all have ended (or the duration limit was reached
    /// and what was in flight has ended). A push may take several attempts (see `RetryPolicy`); the sink
    /// hears of it once, with its final outcome. The engine is the only writer of outcomes: the source's
    /// not-sent pushes are recorded here too, as the source says them.
    public func run(source: PushSource, sink: OutcomeSink) throws -> EngineCounters {
        let started = MonotonicTime.now()
        let cpuAtStart = Self.threadCPUNanos()
        let previous = loop
        loop = EngineLoop(started: started, durationSeconds: configuration.durationLimit, graceSeconds: configuration.durationGraceSeconds,
                          failFastSeconds: configuration.failFastSeconds, sendAheadNanos: Self.sendAheadNanos)
        // Reachability is the target's: an earlier run's answers count.
        loop.keepReachability(of: previous)
        let progressEvery = UInt64(max(0.1, configuration.progressInterval) * 1e9)
        var nextProgress = started + progressEvery
        // The lifecycle (warm-up, reconnect backoff) carries over from an earlier run() on the same
        // connections: a second run does not start again at one stream.
        while true {
            loopTurns += 1
            let now = MonotonicTime.now()
            try housekeeping(now: now, nextProgress: &nextProgress, every: progressEvery)
            // No transfer ever answered and failures went on past the fail-fast window: give up on the
            // target (every worker and the producer stop with it), naming it and the last failure.
            if loop.givesUp(now: now, stopRequested: stop.isRequested) {
                stop.request(.targetUnreachable, drainSeconds: 0, reason: unreachableMessage())
            }
            carryOut(loop.stopActions(now: now, staged: staged?.push.intendedNanos, retriesWaiting: !retryQueue.isEmpty, inFlight: inFlight,
                                      stop: (stop.isRequested, stop.cause, stop.drainDeadlineNanos)), now: now, sink: sink)
            if stallWatch, inFlight > 0, now >= nextStallScan { watchStalls(now: now) }

            let limit = lifecycle.streamLimit(window: configuration.window)
            try fillWindow(limit: limit, source: source, sink: sink, now: now)
            try driver.perform()
            let completedBefore = completedCount
            drainCompletions(sink: sink)
            reportConnections(to: sink)

            let end = EngineLoop.TurnEnd(now: now, staged: staged?.push.intendedNanos, room: inFlight < limit, inFlight: inFlight,
                                         retriesWaiting: !retryQueue.isEmpty, nextRetry: retryQueue.nextDueNanos,
                                         lifecycleWake: lifecycle.wakeNanos, completed: completedCount != completedBefore,
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
        if tokens.needsRefresh { try rebuildHeaders() }
        if lifecycle.handle(.tick, now: now) == .ping { ping() }
        if now >= nextProgress, let onProgress {
            takeLedgerCounters()
            onProgress(counters, completedCount, inFlight)
            nextProgress = now + progressEvery
        }
    }

    /// Carries out what the stop ends this turn.
    private func carryOut(_ actions: EngineLoop.StopActions, now: UInt64, sink: OutcomeSink) {
        if let cause = actions.staged, let s = staged {
            finish(s, outcome: .notSent(cause), completed: 0, sink: sink)
            staged = nil
        }
        if let cause = actions.retries {
            for s in retryQueue.drain() { finish(s, outcome: s.lastOutcome ?? .notSent(cause), completed: now, sink: sink) }
        }
        if let cause = actions.inFlight { abandonInFlight(as: cause, sink: sink) }
    }

    /// Fills the window up to `limit` transfers: pushes due again first, then new ones from the source that
    /// are due (one due later is staged until then).
    private func fillWindow(limit: Int, source: PushSource, sink: OutcomeSink, now: UInt64) throws {
        while inFlight < limit {
            if let slot = retryQueue.popDue(now: now) {
                guard try resendIsDue(slot, now: now) else { break }
                if slot.attempts > 0 { countResend(slot, now: now, sink: sink) }
                start(slot, now: now)
                continue
            }
            let slot: TransferSlot
            if let s = staged {
                guard loop.isDue(s.push.intendedNanos, now: now) else { break }
                slot = s
                staged = nil
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
                retryQueue.push(slot)
                continue
            }
            start(slot, now: now)
        }
    }

    /// Whether a push taken from the retry queue may go now; if not, it goes back with its new due time. A
    /// resend that needs a new provider token first gets one here.
    private func resendIsDue(_ slot: TransferSlot, now: UInt64) throws -> Bool {
        let due = ledger.retryDue(lastOutcome: slot.lastOutcome, refreshedToken: slot.refreshedToken,
                                  sentWithIssuedAt: slot.tokenIssuedAt, currentIssuedAt: headerSet.issuedAt,
                                  secondsUntilResignAllowed: tokens.secondsUntilRefreshAllowed, now: now)
        if case .wait(let until) = due {
            slot.dueNanos = until
            retryQueue.push(slot)
            return false
        }
        if due == .resignThenSend {
            // The ledger applied the 20-minute rule with the cache's own figure: sign now.
            tokens.forceRefresh()
            try rebuildHeaders()
        }
        return true
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
        let slot = try takeSlot()
        let pulled = source.next(into: &slot.push)
        guard pulled == .push else {
            free.append(slot)
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
            free.append(slot)
            return .ended
        }
        sequence &+= 1
        slot.resetRetryState(sequence: sequence)
        if case .notSent(let cause) = ledger.taken(token: slot.push.deviceToken) {
            finish(slot, outcome: .notSent(slot.push.channel >= 0 ? .channelGone : cause), completed: 0, sink: sink)
            return .ended
        }
        guard admission == .send else {
            staged = slot
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
        counters.reconnects = lifecycle.reconnects
        counters.engineCPUMillis = Int((Self.threadCPUNanos() &- cpuAtStart) / 1_000_000)
        counters.busiestEngineCPUMillis = counters.engineCPUMillis
        counters.reconnectHolds = lifecycle.holds
        counters.pings = lifecycle.pings
        takeLedgerCounters()
        return counters
    }

    /// Tells the sink what changed in the connections and signings since it was last told, if anything did
    /// (five integer compares a turn; the call itself is rare).
    @inline(__always)
    private func reportConnections(to sink: OutcomeSink) {
        let now = ConnectionTally(opened: lifecycle.connectionsOpened, reconnects: lifecycle.reconnects, lost: lifecycle.losses,
                                  goAways: lifecycle.serverEnded, tokenSignings: tokens.signings - signingsBase)
        guard now != reportedConnections else { return }
        sink.recordConnections(now - reportedConnections, at: MonotonicTime.now())
        reportedConnections = now
    }

    /// `cannot reach 127.0.0.1 port 1: Couldn't connect to server (curl error 7); no request was answered in 10 s of trying`.
    private func unreachableMessage() -> String {
        let url = URLComponents(string: configuration.baseURL)
        let host = url?.host ?? configuration.baseURL
        let port = url?.port ?? (configuration.baseURL.hasPrefix("https://") ? 443 : 80)
        let cause = String(cString: curl_easy_strerror(lastUnreachable))
        let seconds = configuration.failFastSeconds == configuration.failFastSeconds.rounded()
            ? "\(Int(configuration.failFastSeconds))" : "\(configuration.failFastSeconds)"
        return "cannot reach \(host) port \(port): \(cause) (curl error \(lastUnreachable.rawValue), \(Self.transportKey(lastUnreachable))); "
            + "no request was answered in \(seconds) s of trying (--fail-fast)"
    }

    /// Gives up every transfer still in flight (the drain after a stop ran out): each ends as not sent
    /// for `cause`, though it was sent, because its answer never came.
    private func abandonInFlight(as cause: NotSentCause, sink: OutcomeSink) {
        for slot in slots where slot.active {
            curl_multi_remove_handle(multi, slot.easy)
            slot.active = false
            inFlight -= 1
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

    private func takeSlot() throws -> TransferSlot {
        if let s = free.popLast() { return s }
        let s = try TransferSlot(configuration: configuration)
        slots.append(s)
        return s
    }

    /// New header lists with the cache's current token (`bearer()` signs one if the cached one is due).
    private func rebuildHeaders() throws {
        headerSet = try HeaderSet(configuration: configuration, bearer: tokens.bearer(), issuedAt: tokens.issuedAt)
        counters.providerTokenSignings = tokens.signings - signingsBase
    }

    /// Copies the token ledger's counters into the counters.
    private func takeLedgerCounters() {
        counters.deadTokens = ledger.counters.deadTokens
        counters.tokenBackoffs = ledger.counters.tokenBackoffs
        counters.providerTokenRefreshes = ledger.counters.providerTokenRefreshes
    }

    /// Asks libcurl to PING the idle connections: the keeper joins the multi just long enough for
    /// `curl_easy_upkeep` to walk its connection pool, and leaves before any transfer starts.
    private func ping() {
        guard curl_multi_add_handle(multi, keeper) == CURLM_OK else { return }
        _ = curl_easy_upkeep(keeper)
        curl_multi_remove_handle(multi, keeper)
    }

    private static func makeKeeper(_ c: EngineConfiguration) throws -> UnsafeMutableRawPointer {
        guard let easy = curl_easy_init() else { throw EngineError.curlSetup("curl_easy_init failed") }
        // Upkeep whenever asked: the lifecycle decides when a connection has been idle long enough.
        _ = ccurl_easy_setopt_long(easy, CURLOPT_UPKEEP_INTERVAL_MS, 1)
        _ = ccurl_easy_setopt_string(easy, CURLOPT_URL, c.baseURL + "/")
        return easy
    }

    @inline(__always)
    private func start(_ slot: TransferSlot, now: UInt64) {
        slot.prepare(headers: headerSet)
        slot.tokenIssuedAt = headerSet.issuedAt
        slot.sentNanos = now
        if slot.attempts == 0 {
            slot.firstSentNanos = now
            // A push sent ahead of its time counts from when it went: response time is never below service time.
            slot.intendedNanos = slot.push.intendedNanos == 0 ? now : min(slot.push.intendedNanos, now)
        }
        slot.attempts += 1
        curl_multi_add_handle(multi, slot.easy)
        slot.active = true
        inFlight += 1
        counters.sent += 1
        _ = lifecycle.handle(.sent, now: now)
        if inFlight > counters.peakInFlight { counters.peakInFlight = inFlight }
    }

    /// The push has its final outcome: tell the sink and free the slot.
    @inline(__always)
    private func finish(_ slot: TransferSlot, outcome: Outcome, completed: UInt64, sink: OutcomeSink) {
        let sent = slot.attempts == 0 ? 0 : slot.sentNanos
        let intended = slot.attempts == 0 ? slot.push.intendedNanos : slot.intendedNanos
        sink.record(outcome, priority: slot.push.priority, intended: intended, sent: sent, completed: sent == 0 ? 0 : completed)
        slot.lastOutcome = nil
        free.append(slot)
    }

    private func drainCompletions(sink: OutcomeSink) {
        var remaining: Int32 = 0
        while let msg = curl_multi_info_read(multi, &remaining) {
            guard ccurl_msg_is_done(msg) != 0, let easy = ccurl_msg_easy(msg) else { continue }
            let result = ccurl_msg_result(msg)
            var priv: UnsafeMutableRawPointer? = nil
            _ = ccurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &priv)
            let slot = Unmanaged<TransferSlot>.fromOpaque(priv!).takeUnretainedValue()
            let completed = MonotonicTime.now()
            var connects = 0
            _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
            counters.connectionsOpened += connects
            for _ in 0..<connects { _ = lifecycle.handle(.connectionOpened, now: completed) }
            let stalled = slot.onStalledConnection && result != CURLE_OK
            slot.onStalledConnection = false
            curl_multi_remove_handle(multi, easy)
            slot.active = false
            inFlight -= 1
            completedCount += 1

            let outcome: Outcome
            if result == CURLE_OK {
                loop.answer()
                var status = 0
                _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                if status == 200 {
                    outcome = .delivered
                    _ = lifecycle.handle(.authenticatedAnswer, now: completed)
                    ledger.delivered(token: slot.push.deviceToken)
                    counters.devicesReached += Int(slot.push.reach)
                    // Marked where it was planned; the engine only passes the mark on.
                    if slot.push.contractFailure >= 0 { sink.recordWouldNotDecode(slot.push) }
                    sink.recordDelivered(slot.push)
                    finish(slot, outcome: outcome, completed: completed, sink: sink)
                    continue
                }
                let reason = Reason.parse(body: slot.response) ?? Reason(rawValue: "HTTP\(status)", status: status, handling: .unknown)
                outcome = .rejected(reason)
                if status == 410 || status == 413 || status >= 500 || reason == .tooManyRequests {
                    _ = lifecycle.handle(.authenticatedAnswer, now: completed)
                }
                if reason == .shutdown { _ = lifecycle.handle(.connectionLost, now: completed) }
            } else if stalled {
                // Retried by the policy like any transport failure: the answer never came.
                outcome = .failed(Self.stallError)
                _ = lifecycle.handle(.connectionLost, now: completed)
            } else if result == CURLE_OPERATION_TIMEDOUT {
                outcome = .timedOut
            } else {
                outcome = .failed(transportError(result))
                if !loop.answered { lastUnreachable = result }
                loop.transportFailure(at: completed)
                _ = lifecycle.handle(.connectionLost, now: completed)
            }
            settle(slot, outcome: outcome, completed: completed, sink: sink)
        }
    }

    /// A push due within this long is sent now: at high rates one wake-up then sends the few pushes due
    /// next instead of sleeping between each (at 20,000 pushes/s they are 50 µs apart). The schedule's
    /// rate over any millisecond is unchanged; each push is at most this early.
    static let sendAheadNanos: UInt64 = 200_000

    /// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), ns: what the engine's own thread used.
    static func threadCPUNanos() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// libcurl's ids of the connections the stall watchdog gave up (ids are never reused within a multi handle).
    private var stalledConnections = Set<curl_off_t>()
    /// When the stall watchdog looks next (monotonic ns).
    private var nextStallScan: UInt64 = 0

    /// A push that was on a connection the stall watchdog gave up: its answer never came.
    static let stallError = TransportError(code: -2, key: "stall")

    /// The stall watchdog, about once a second: a push in flight for the stall timeout without a byte of
    /// its answer means its connection has stopped answering. That connection is given up: its socket is
    /// shut down both ways, so libcurl sees it end, every push on it fails at once and is retried by the
    /// retry policy (as `stall`), and the next pushes go out on a new connection. Counted once per
    /// connection. The scan reads two numbers of each push older than the timeout, nothing of the others.
    private func watchStalls(now: UInt64) {
        let limit = UInt64(configuration.stallTimeoutSeconds) * 1_000_000_000
        nextStallScan = now + min(limit / 4, 1_000_000_000)
        var found = false
        for slot in slots where slot.active && now &- slot.sentNanos >= limit {
            var received: curl_off_t = 0, headerBytes = 0
            _ = ccurl_easy_getinfo_off_t(slot.easy, CURLINFO_SIZE_DOWNLOAD_T, &received)
            _ = ccurl_easy_getinfo_long(slot.easy, CURLINFO_HEADER_SIZE, &headerBytes)
            var id: curl_off_t = -1
            _ = ccurl_easy_getinfo_off_t(slot.easy, CURLINFO_CONN_ID, &id)
            guard received == 0, headerBytes == 0 else { continue }
            guard id >= 0, !stalledConnections.contains(id) else { continue }
            // libcurl names a multiplexed transfer's connection by its ports, not its socket.
            var localPort = 0, peerPort = 0
            _ = ccurl_easy_getinfo_long(slot.easy, CURLINFO_LOCAL_PORT, &localPort)
            _ = ccurl_easy_getinfo_long(slot.easy, CURLINFO_PRIMARY_PORT, &peerPort)
            let socket = ccurl_find_tcp_socket(localPort, peerPort)
            guard socket >= 0 else { continue }
            stalledConnections.insert(id)
            counters.stalls += 1
            // shutdown, not close: the descriptor stays libcurl's, so it cannot be reused under libcurl.
            _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
            found = true
        }
        guard found else { return }
        // Every push on those connections, young ones too, ends as `stall` when libcurl reports it failed.
        for slot in slots where slot.active {
            var id: curl_off_t = -1
            _ = ccurl_easy_getinfo_off_t(slot.easy, CURLINFO_CONN_ID, &id)
            if id >= 0, stalledConnections.contains(id) { slot.onStalledConnection = true }
        }
    }

    /// A resend going out, counted by what the previous attempt got: so `sent` is always first sends
    /// plus `retriesTotal`, and a resend the run's end cut off is not counted.
    private func countResend(_ slot: TransferSlot, now: UInt64, sink: OutcomeSink) {
        let key: String
        switch slot.lastOutcome {
        case .rejected(let r)?: key = r.rawValue
        case .failed(let e)?: key = e.key
        default: key = "other"
        }
        counters.retries[key, default: 0] += 1
        counters.retriesTotal += 1
        sink.recordResend(cause: key, at: now)
    }

    /// An attempt that did not end in 200: the ledger (with the retry policy) says record it or resend it when.
    private func settle(_ slot: TransferSlot, outcome: Outcome, completed: UInt64, sink: OutcomeSink) {
        switch ledger.answered(token: slot.push.deviceToken, outcome: outcome, attempt: slot.attempts,
                               firstSentNanos: slot.firstSentNanos, refreshedToken: slot.refreshedToken, now: completed) {
        case .final:
            finish(slot, outcome: outcome, completed: completed, sink: sink)
            return
        case .resend(let at):
            slot.dueNanos = at
        case .resendWithNewProviderToken(let at):
            slot.refreshedToken = true
            slot.dueNanos = at
        }
        slot.lastOutcome = outcome
        retryQueue.push(slot)
    }

    private func transportError(_ code: CURLcode) -> TransportError {
        let key = Int(code.rawValue)
        if let e = transportErrors[key] { return e }
        let e = TransportError(code: key, key: Self.transportKey(code))
        transportErrors[key] = e
        return e
    }

    /// A short stable name for a CURLcode, for report keys.
    static func transportKey(_ code: CURLcode) -> String {
        let names: [UInt32: String] = [
            CURLE_COULDNT_RESOLVE_HOST.rawValue: "couldnt_resolve_host",
            CURLE_COULDNT_CONNECT.rawValue: "couldnt_connect",
            CURLE_HTTP2.rawValue: "http2",
            CURLE_SSL_CONNECT_ERROR.rawValue: "ssl_connect_error",
            CURLE_GOT_NOTHING.rawValue: "got_nothing",
            CURLE_SEND_ERROR.rawValue: "send_error",
            CURLE_RECV_ERROR.rawValue: "recv_error",
            CURLE_PEER_FAILED_VERIFICATION.rawValue: "peer_failed_verification",
            CURLE_HTTP2_STREAM.rawValue: "http2_stream",
        ]
        return "curl_\(code.rawValue)_" + (names[code.rawValue] ?? "error")
    }
}
