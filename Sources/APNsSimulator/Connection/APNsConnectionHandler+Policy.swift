import APNsCore

/// The decisions `APNsConnectionHandler` makes for one connection, without its I/O: which streams are
/// refused, which valid answers a fault replaces, when the advertised stream limit rises or drops, when
/// the connection gets GOAWAY (after N answered streams, after T seconds, after an idle spell, after a
/// `Shutdown` answer), and how long an answer waits.
///
/// Why a value type apart from the handler: the handler mixes these rules with frame bookkeeping, HPACK
/// answers and timers, where they cannot be tested without a connection. Here each event is a mutating
/// method that returns what to do as a small action enum; the handler carries the action out (writes
/// frames, schedules tasks, counts). The same seed and connection id give the same dice, in the same
/// order, as before the rules moved here: one roll per valid request when a request-level fault is
/// configured, then one latency sample per answered request (and one roll for a spike when one is
/// configured).
///
/// Times are monotonic nanoseconds (`NIODeadline.uptimeNanoseconds`), passed in by the caller, so that
/// tests choose them.
struct ConnectionPolicy {
    // MARK: Configuration

    private let faults: FaultInjection
    /// The limit advertised after the first valid provider token (`maxConcurrentStreams`).
    private let raisedLimit: Int
    private let dropsAfterRejection: Bool
    /// Only the idle-timeout fault reads `lastRequestAt`.
    private let tracksIdleTime: Bool

    // MARK: State

    /// The advertised and the enforced limit.
    private(set) var limit: StreamLimitState
    private var raised = false
    private var dropped = false
    private var random: SplitMix64
    /// Streams answered so far (refused and reset ones are not).
    private(set) var answeredStreams = 0
    /// Set once GOAWAY is on its way: every new stream is refused from then on.
    private(set) var isGoingAway = false
    private var timersStarted = false
    private var lastRequestAt: UInt64 = 0
    /// The capacity model: when this connection's server is free again (monotonic ns).
    private var busyUntil: UInt64 = 0

    init(configuration: SimulatorConfiguration, connectionID: Int) {
        faults = configuration.faults
        raisedLimit = configuration.maxConcurrentStreams
        dropsAfterRejection = configuration.dropStreamLimitAfterRejection
        tracksIdleTime = configuration.faults.idleTimeoutSeconds != nil
        limit = StreamLimitState(initial: configuration.initialMaxConcurrentStreams)
        random = SplitMix64(seed: SplitMix64.mix(configuration.seed ^ UInt64(connectionID) &* SplitMix64.increment))
    }

    // MARK: Connection start and timers

    /// The timers a connection starts with.
    struct Timers: Equatable {
        /// GOAWAY `Shutdown` this many seconds after the start (`goAwayTimerFired`).
        var goAwayAfterSeconds: Double?
        /// The first idle check, this many seconds after the start (`idleCheckFired`).
        var idleCheckAfterSeconds: Double?

        static let none = Timers()
    }

    /// The connection is up (active, with the handler in place). Returns the timers to schedule; `.none`
    /// when called again.
    mutating func connectionStarted(now: UInt64) -> Timers {
        guard !timersStarted else { return .none }
        timersStarted = true
        lastRequestAt = now
        return Timers(goAwayAfterSeconds: faults.goAwayAfterSeconds, idleCheckAfterSeconds: faults.idleTimeoutSeconds)
    }

    /// What to do about GOAWAY after an event.
    enum GoAwayAction: Equatable {
        case none
        /// Send GOAWAY with this reason as its debug data.
        case goAway(Reason)
    }

    /// The `goAwayAfterSeconds` timer fired.
    func goAwayTimerFired() -> GoAwayAction {
        isGoingAway ? .none : .goAway(.shutdown)
    }

    /// What an idle check asks for.
    enum IdleCheckAction: Equatable {
        case none
        /// No request for the idle timeout and no stream open: GOAWAY `IdleTimeout`.
        case goAway(Reason)
        /// Look again after this many seconds.
        case checkAgain(afterSeconds: Double)
    }

    /// An idle check fired at `now` with `openStreams` streams open.
    func idleCheckFired(now: UInt64, openStreams: Int) -> IdleCheckAction {
        guard !isGoingAway, let idle = faults.idleTimeoutSeconds else { return .none }
        let quietFor = Int64(now) - Int64(lastRequestAt)
        let limit = Int64(idle * 1e9)
        if quietFor >= limit, openStreams == 0 { return .goAway(.idleTimeout) }
        return .checkAgain(afterSeconds: max(0.001, Double(limit - quietFor) / 1e9))
    }

    /// GOAWAY is about to be written. Returns false if it already was (one GOAWAY per connection).
    mutating func beginGoAway() -> Bool {
        guard !isGoingAway else { return false }
        isGoingAway = true
        return true
    }

    // MARK: Streams

    /// What to do with a new stream.
    enum StreamAction: Equatable {
        /// Take it: gather its body and answer it.
        case admit
        /// RST_STREAM REFUSED_STREAM: past the enforced limit, or the connection is going away.
        case refuse
    }

    /// A new stream's request headers arrived (well-formed ones: a broken `content-length` is reset before
    /// this) while `openStreams` streams are open. `now` is read only when the idle timeout is configured.
    mutating func streamOpened(openStreams: Int, now: @autoclosure () -> UInt64) -> StreamAction {
        if isGoingAway || limit.refuses(open: openStreams) { return .refuse }
        if tracksIdleTime { lastRequestAt = now() }
        return .admit
    }

    /// The client acknowledged a SETTINGS frame.
    mutating func settingsAcknowledged() {
        limit.acknowledge()
    }

    // MARK: Answers

    /// How the advertised stream limit changes after a request. Each advertised value goes out in a
    /// SETTINGS frame of its own.
    enum LimitAction: Equatable {
        case keep
        /// The first valid provider token: advertise the raised limit (counted as a raise). `final`: the
        /// limit never changes again on this connection (no drops configured).
        case raise(to: Int, final: Bool)
        /// The first valid provider token came with a rejection: raise (counted), then drop to 1 (counted).
        case raiseThenDrop(to: Int, then: Int)
        /// A rejection after the raise, with drops configured: advertise 1 (counted as a drop).
        case drop(to: Int)
        /// The next accept after a drop: advertise the raised limit again (not counted).
        case restore(to: Int)
    }

    /// How to answer a validated request.
    struct Answer: Equatable {
        /// A fault that replaces the valid answer: `InternalServerError`, `ServiceUnavailable` or
        /// `Shutdown`. Nil: answer what the validator decided.
        var injected: Reason?
        /// After this answer, GOAWAY `Shutdown` (the `Shutdown` fault); pass it to `streamAnswered`.
        var goAwayAfter = false
        var limit: LimitAction = .keep
        /// Wait this long before writing the answer (0: at once).
        var delayMilliseconds: Double = 0
        /// Of that delay, the time the request waited for its connection's server (the capacity model).
        var queuedMilliseconds: Double = 0
    }

    enum RequestAction: Equatable {
        /// Answer the stream as `Answer` says.
        case answer(Answer)
        /// The connection-reset fault: end the connection with a TCP reset, no answer.
        case resetConnection
        /// The stall fault: the connection goes silent, reading and answering nothing from now on.
        case stallConnection
    }

    /// The validator decided on a request: `accepted` is its verdict, `authenticated` whether the
    /// connection has been bound to a valid provider token (now or before).
    mutating func requestValidated(accepted: Bool, authenticated: Bool, now: UInt64 = 0) -> RequestAction {
        var answer = Answer()
        if accepted, faults.rollsDice, let fault = faults.requestFaults.fault(at: random.unit()) {
            switch fault {
            case .connectionReset: return .resetConnection
            case .stall: return .stallConnection
            case .internalServerError: answer.injected = .internalServerError
            case .serviceUnavailable: answer.injected = .serviceUnavailable
            case .tooManyRequests: answer.injected = .tooManyRequests
            case .shutdown:
                answer.injected = .shutdown
                answer.goAwayAfter = true
            }
        }
        answer.limit = adjustLimit(accepted: accepted && answer.injected == nil, authenticated: authenticated)
        answer.delayMilliseconds = faults.latency.sample(&random)
        if let spike = faults.latencySpike, random.unit() < spike.fraction { answer.delayMilliseconds += spike.milliseconds }
        if let capacity = faults.capacity { queue(&answer, capacity, accepted: accepted, now: now) }
        answer.delayMilliseconds += faults.roundTripMilliseconds
        return .answer(answer)
    }

    /// The capacity model: the request waits for the connection's server, then takes its service time.
    /// Overloaded (a wait past `overloadAfterMilliseconds`), a share of valid requests is shed with 503
    /// at once and takes no service time.
    private mutating func queue(_ answer: inout Answer, _ capacity: FaultInjection.Capacity, accepted: Bool, now: UInt64) {
        let service = UInt64(1e9 / capacity.perConnectionPerSecond)
        let start = max(now, busyUntil)
        let waitMillis = Double(start - now) / 1e6
        if accepted, answer.injected == nil, capacity.overloadServiceUnavailableFraction > 0, waitMillis > capacity.overloadAfterMilliseconds,
           random.unit() < capacity.overloadServiceUnavailableFraction {
            answer.injected = .serviceUnavailable
            return
        }
        busyUntil = start + service
        answer.queuedMilliseconds = waitMillis
        answer.delayMilliseconds += Double(busyUntil - now) / 1e6
    }

    /// Raises the limit after the first valid provider token (as APNs does with a new SETTINGS frame);
    /// with `dropStreamLimitAfterRejection`, drops it to 1 after a rejection and restores it after the
    /// next accept.
    private mutating func adjustLimit(accepted: Bool, authenticated: Bool) -> LimitAction {
        var raisedNow = false
        if !raised, authenticated {
            raised = true
            raisedNow = true
            limit.advertise(raisedLimit)
        }
        guard dropsAfterRejection, raised else {
            return raisedNow ? .raise(to: raisedLimit, final: !dropsAfterRejection) : .keep
        }
        if !accepted, !dropped {
            dropped = true
            limit.advertise(1)
            return raisedNow ? .raiseThenDrop(to: raisedLimit, then: 1) : .drop(to: 1)
        }
        if accepted, dropped {
            dropped = false
            limit.advertise(raisedLimit)
            return .restore(to: raisedLimit)
        }
        return raisedNow ? .raise(to: raisedLimit, final: false) : .keep
    }

    /// A stream's answer was written. `goAwayAfter` is the answer's `Answer.goAwayAfter`.
    mutating func streamAnswered(goAwayAfter: Bool) -> GoAwayAction {
        answeredStreams += 1
        guard !isGoingAway else { return .none }
        if goAwayAfter { return .goAway(.shutdown) }
        if let n = faults.goAwayAfterStreams, answeredStreams >= n { return .goAway(.shutdown) }
        return .none
    }
}
