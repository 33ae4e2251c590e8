import APNsCore

/// The engine's run loop as a state machine: what a turn of ``CurlEngine/run(source:sink:)`` decides, kept
/// apart from libcurl so each decision is a value a test can check. The engine tells it what it sees (the
/// time, what is staged, in flight and waiting, whether a stop was requested) and carries out the actions
/// it returns; it holds only the loop's own bookkeeping: the run's end and grace, its phase (running, source
/// ended, stopped), the target's reachability (the fail-fast window) and the busy turns. Nothing here allocates.
struct EngineLoop {
    /// The duration's end, and the end of the grace after it (monotonic ns); nil without a duration.
    let stopAt: UInt64?
    let graceEnd: UInt64?
    let failFastNanos: UInt64
    /// A push due within this long is sent now.
    let sendAheadNanos: UInt64

    /// Where the run is: one value, so that no combination of "source ended", "stop handled" and the stop's
    /// cause can disagree.
    enum Phase: Equatable {
        /// Pushes are taken from the source.
        case running
        /// The source gave its end: only what is staged, waiting or in flight remains.
        case sourceEnded
        /// The run's end (its grace over) or a requested stop was handled: what was staged and waiting ended
        /// as `cause`, and what the source still holds counts as not sent. `endedAt` is the duration's end
        /// when the run stopped there (pushes not yet due then count as after the end); nil for a requested
        /// stop. Pushes in flight are still waited for, up to the drain deadline after a requested stop.
        case stopped(cause: NotSentCause, endedAt: UInt64?)
    }

    /// Whether the target ever answered, or since when it has failed without an answer.
    enum Reachability: Equatable {
        /// Nothing answered or failed yet.
        case unknown
        /// Transfers failed in transport since this time, and none was answered: the fail-fast window runs.
        /// `lastError` is the latest failure's libcurl code (named when the run gives up on the target).
        case failingSince(UInt64, lastError: UInt32)
        /// A transfer was answered (any HTTP status): the target is reachable.
        case answered
    }

    private(set) var phase = Phase.running
    private(set) var reachability = Reachability.unknown

    /// The source ended, or the stop ended what it had planned: nothing more is taken from it.
    var exhausted: Bool { phase != .running }
    /// Whether any transfer was ever answered; until then failures count toward the fail-fast window.
    var answered: Bool { reachability == .answered }

    /// Turns in a row that went round without waiting because libcurl had work queued.
    private var busyTurns = 0
    /// Turns in a row that went round without any wait.
    private var turnsWithoutWait = 0
    /// At most this many turns in a row go round without waiting: then a wait that does not block lets
    /// libcurl read its sockets (the socket-action drive reads them only in a wait).
    static let turnsWithoutWaitLimit = 64

    init(started: UInt64, durationSeconds: Double?, graceSeconds: Double, failFastSeconds: Double, sendAheadNanos: UInt64) {
        stopAt = durationSeconds.map { started + UInt64($0 * 1e9) }
        graceEnd = stopAt.map { $0 + UInt64(max(0, graceSeconds) * 1e9) }
        failFastNanos = UInt64(max(0, failFastSeconds) * 1e9)
        self.sendAheadNanos = sendAheadNanos
    }

    // MARK: Facts the engine reports

    /// A transfer was answered (any HTTP status): the target is reachable.
    mutating func answer() { reachability = .answered }

    /// A transfer failed in transport with libcurl's `code`. Before any answer, the fail-fast window starts at
    /// the first, and the latest failure is kept.
    mutating func transportFailure(at now: UInt64, code: UInt32) {
        switch reachability {
        case .unknown: reachability = .failingSince(now, lastError: code)
        case let .failingSince(since, _): reachability = .failingSince(since, lastError: code)
        case .answered: break
        }
    }

    /// The latest transport failure's libcurl code while nothing was answered.
    var lastUnreachableError: UInt32? {
        if case let .failingSince(_, code) = reachability { code } else { nil }
    }

    /// Takes over what an earlier run on the same connections learned (the target's reachability) and its
    /// turns so far.
    mutating func carryOver(from earlier: EngineLoop) {
        reachability = earlier.reachability
        turns = earlier.turns
    }

    /// Turns of the run loop so far, over every run of the engine (tests: a loop that spins without waiting
    /// shows here).
    private(set) var turns = 0
    /// A turn of the run loop begins.
    mutating func turnBegins() { turns += 1 }

    /// The source said it has nothing more.
    mutating func sourceEnded() {
        if phase == .running { phase = .sourceEnded }
    }

    /// The stop was handled (``Phase/stopped(cause:endedAt:)``).
    var isStopped: Bool {
        if case .stopped = phase { return true }
        return false
    }

    // MARK: Decisions

    /// No transfer was ever answered and failures went on past the fail-fast window: give up on the target.
    func givesUp(now: UInt64, stopRequested: Bool) -> Bool {
        guard !stopRequested, case let .failingSince(since, _) = reachability else { return false }
        return now >= since + failFastNanos
    }

    /// What ends at the run's end, its grace or a requested stop, this turn.
    struct StopActions: Equatable {
        /// The staged push ends as not sent, for this cause.
        var staged: NotSentCause?
        /// Every push waiting to be resent ends (with its last outcome, or as not sent for this cause).
        var retries: NotSentCause?
        /// Every push in flight is given up, as not sent for this cause (the drain after a stop ran out).
        var inFlight: NotSentCause?
    }

    /// The stop's actions for this turn. `staged` is the staged push's intended time (nil: none);
    /// `retriesWaiting` whether any push waits to be resent.
    mutating func stopActions(now: UInt64, staged: UInt64?, retriesWaiting: Bool, inFlight: Int,
                              stop: (requested: Bool, cause: NotSentCause, drainDeadline: UInt64)) -> StopActions {
        var actions = StopActions()
        var staged = staged
        // The end passed: a push staged for later is due after it (the rest are taken as they come).
        if let stopAt, now >= stopAt, let intended = staged, intended > stopAt {
            actions.staged = .afterEnd
            staged = nil
        }
        // At the grace's end (or a requested stop) what is still staged or waiting to be resent ends now;
        // pushes in flight are waited for as always.
        let pending = !(exhausted && staged == nil && !retriesWaiting)
        if !isStopped, stop.requested || (pending && graceEnd.map { now >= $0 } ?? false) {
            let cause = stop.requested ? stop.cause : .runStopped
            let endedAt = stop.requested ? nil : stopAt
            phase = .stopped(cause: cause, endedAt: endedAt)
            if let intended = staged {
                actions.staged = endedAt.map { NotSentCause.atDeadline($0, intended: intended) } ?? cause
            }
            if retriesWaiting { actions.retries = cause }
        }
        // After a requested stop, what is still in flight at the drain deadline is given up.
        if stop.requested, inFlight > 0, now >= stop.drainDeadline { actions.inFlight = stop.cause }
        return actions
    }

    /// What becomes of a push just taken from the source.
    enum Admission: Equatable {
        /// Due now (or within the send-ahead): send it.
        case send
        /// Due later: hold it staged until then.
        case stage
        /// Due after the run's end, which has passed: not sent, `after_end`.
        case afterEnd
    }

    func admit(intended: UInt64, now: UInt64) -> Admission {
        // Past the end, only pushes due before it are still sent (no schedule: none is).
        if let stopAt, now >= stopAt, intended == 0 || intended > stopAt { return .afterEnd }
        return intended > now &+ sendAheadNanos ? .stage : .send
    }

    /// Whether the staged push is due (within the send-ahead).
    func isDue(_ intended: UInt64, now: UInt64) -> Bool { intended <= now &+ sendAheadNanos }

    /// What the engine sees at the end of a turn, after libcurl worked and completions were drained.
    struct TurnEnd {
        var now: UInt64
        /// The staged push's intended time, if one is staged.
        var staged: UInt64?
        /// Whether the window has room for another transfer (the staged push or a resend).
        var room: Bool
        var inFlight: Int
        var retriesWaiting: Bool
        var nextRetry: UInt64?
        /// When the connection lifecycle wants a turn (a backoff or warm-up step ending).
        var lifecycleWake: UInt64?
        /// Transfers completed this turn (their slots are free).
        var completed: Bool
        var stopRequested: Bool
        var drainDeadline: UInt64
    }

    enum NextStep: Equatable {
        /// Everything ended: leave the loop.
        case finish
        /// Go round again at once (slots just freed, to refill them before waiting).
        case again
        /// Wait until libcurl has something or `due` (nil: only the idle cap).
        case wait(due: UInt64?)
    }

    /// After a turn: leave, go again, or wait until the earliest thing due.
    func next(_ t: TurnEnd) -> NextStep {
        if exhausted && t.staged == nil && t.inFlight == 0 && !t.retriesWaiting { return .finish }
        // Refill the slots that just freed before waiting: otherwise they stay empty until the next
        // socket event (measured: 0.5-0.9x the bare libcurl loop's rate).
        if t.completed && !exhausted && t.staged == nil { return .again }
        var due: UInt64? = nil
        func earliest(_ d: UInt64) { due = min(due ?? d, d) }
        // A staged push or a resend is only due when the window has room for it: otherwise an answer frees
        // room first, and a due time already past would send the loop round without reading any.
        if let s = t.staged, t.room { earliest(s &- sendAheadNanos) }
        if let d = t.nextRetry, t.room { earliest(d) }
        if let d = t.lifecycleWake { earliest(d) }
        if t.stopRequested, t.inFlight > 0 { earliest(t.drainDeadline) }
        if !t.stopRequested, case let .failingSince(since, _) = reachability { earliest(since + failFastNanos) }
        // Wake at the end (to sort what is staged) and at the grace's end (to stop); past the grace's end with
        // nothing pending there is nothing to stop, only answers to wait for.
        if !isStopped, let stopAt, let graceEnd {
            if t.now < stopAt { earliest(stopAt) } else if t.now < graceEnd { earliest(graceEnd) }
        }
        return .wait(due: due)
    }

    /// Whether the loop may go round again at once (freed slots, or something already due) rather than
    /// wait: yes, up to ``turnsWithoutWaitLimit`` turns in a row; then the engine waits without blocking,
    /// so that the sockets are read whatever the loop keeps finding due.
    mutating func mayGoRoundWithoutWaiting() -> Bool {
        turnsWithoutWait += 1
        return turnsWithoutWait <= Self.turnsWithoutWaitLimit
    }

    /// The engine waited (and libcurl read what its sockets had).
    mutating func waited() { turnsWithoutWait = 0 }

    /// Just before a wait: libcurl has work queued (its timer says 0), so a wait would return at once with
    /// nothing ready; go round again instead, a few times in a row at most. `libcurlHasWork` is asked only
    /// while another busy turn is allowed.
    mutating func goesRoundInsteadOfWaiting(_ libcurlHasWork: () -> Bool) -> Bool {
        if busyTurns < 2, libcurlHasWork() {
            busyTurns += 1
            return true
        }
        busyTurns = 0
        return false
    }
}
