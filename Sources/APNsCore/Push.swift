/// One push as the engine sends it. The engine owns a fixed set of these and lends one to the push
/// source to fill, so buffers are reused from push to push instead of allocated.
public struct OutgoingPush: Sendable {
    /// The device (or Live Activity) token, hex.
    public var deviceToken: String = ""
    /// The JSON payload bytes; its capacity is kept between pushes.
    public var body: [UInt8] = []
    /// `apns-priority` for this push.
    public var priority: Priority = .immediate
    /// When the push was meant to be sent, in monotonic nanoseconds (`MonotonicTime`); 0 = as soon as possible.
    public var intendedNanos: UInt64 = 0
    /// When the event behind this push was recorded, epoch milliseconds (for recorded-time pacing).
    public var recordedMillis: Int64 = 0
    /// How long the client held the push before ``recordedMillis`` on the recording's clock: coalescing releases
    /// the latest update of a window at the window's end, so this is that end less the update's own recorded
    /// time; 0 for a push sent as recorded. Time to device counts from the event (``recordedMillis`` less this).
    public var heldMillis: Int64 = 0
    /// A broadcast: the index of its channel in the run's channel list (``EngineConfiguration``), and
    /// `deviceToken` holds the channel's id (so workers, holds and budgets key on the channel). -1: a push to
    /// one device at `deviceToken`.
    public var channel: Int32 = -1
    /// Devices this push reaches when delivered: 1 for a device push, the channel's subscribers for a broadcast.
    public var reach: Int32 = 1
    /// Which of the run's push kinds (push type and topic; ``EngineConfiguration``'s `kinds`) this push is:
    /// the index of its part in a mix of workloads; 0 for a run of one workload.
    public var kind: Int32 = 0
    /// The device-contract check's verdict on `body`, set where pushes are planned (``ContractFindings``):
    /// -1 when the device would decode it or it was not checked; else the index of its set of failures in
    /// the run's findings. The engine only passes it on, to its sink, when the push is delivered.
    public var contractFailure: Int32 = -1
    /// For a push that fails the check: the index of its sample in the run's findings; -1 when it was not
    /// kept as one.
    public var contractSample: Int32 = -1
    /// The header values this push carries itself (``APNsHeaders/perPush``),
    /// read only for the headers its kind takes from each push (``HeaderConstants/perPush``). Their capacity is
    /// kept between pushes.
    public var headers = PushHeaderValues()

    public init(bodyCapacity: Int = 4096) {
        body.reserveCapacity(bodyCapacity)
    }
}

/// What a push source gives when asked for its next push. Push outcomes flow one way: a source never
/// records anything; it says what it planned, and the engine (or the worker pool's producer) records it.
public enum PullResult: Equatable, Sendable {
    /// `push` holds the next push to send.
    case push
    /// A planned push that will not be sent, for this cause (no token yet, nobody to receive it, a bad
    /// line, coalesced into a later update, the run stopped). `push.priority` is its priority and
    /// `push.intendedNanos` when it was due (0: not known); nothing else of `push` is meaningful.
    case notSent(NotSentCause)
    /// Nothing ready yet (a worker's queue its producer has not refilled): ask again after the next wait.
    /// The source ends that wait early through the engine's `wake()` once it has something.
    case idle
    /// No more pushes, ever.
    case end
}

/// Where the engine gets its pushes. Called on one thread only (the engine's, or the worker pool's producer).
public protocol PushSource: AnyObject {
    /// Fills `push` with what comes next and says what it is. Reuses `push`'s buffers.
    func next(into push: inout OutgoingPush) -> PullResult

    /// The run stopped before the source ran dry (duration limit, interruption, a failed worker). From
    /// now on `next` gives `.notSent(.runStopped)` for every push the source had planned but not handed
    /// out yet (the rest of a fan-out, updates held for coalescing), then `.end`; never `.push` or `.idle`.
    func abandon()
}

extension PushSource {
    /// Stops the source and passes each push it still had planned to `each`, with its cause and the push
    /// (its priority and intended time; see
    /// ``PushSource/abandon()``). `scratch` is overwritten.
    /// `stoppedAs` replaces the source's `.runStopped` (an interrupted run counts them as `.interrupted`).
    /// With `deadline` (the run's duration ran out then), a push the source still held counts as
    /// ``NotSentCause/atDeadline(_:intended:)`` says: after the end unless it was due before it.
    public func drainAfterAbandon(using scratch: inout OutgoingPush, stoppedAs: NotSentCause = .runStopped,
                                  deadline: UInt64? = nil, _ each: (NotSentCause, OutgoingPush) -> Void) {
        abandon()
        func stopped(_ push: OutgoingPush) -> NotSentCause {
            guard stoppedAs == .runStopped, let deadline else { return stoppedAs }
            return .atDeadline(deadline, intended: push.intendedNanos)
        }
        while true {
            switch next(into: &scratch) {
            case .notSent(let cause): each(cause == .runStopped ? stopped(scratch) : cause, scratch)
            case .push: each(stopped(scratch), scratch)  // a source that breaks the contract still loses nothing
            case .idle, .end: return
            }
        }
    }
}

/// Receives one outcome per planned push, on one thread.
public protocol OutcomeSink: AnyObject {
    /// `intended`, `sent` and `completed` are monotonic nanoseconds; `sent` and `completed` are 0 for a
    /// push that was never sent.
    func record(_ outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64)
    /// Connection events since the last call (connections opened, lost, ended by the server, reconnects,
    /// provider-token signings), at monotonic `nanos`. Rare: at most once per engine turn, and only
    /// when something changed. Default: ignored.
    func recordConnections(_ change: ConnectionTally, at nanos: UInt64)
    /// `push` was just recorded as delivered, and its payload failed the device-contract check
    /// (``OutgoingPush/contractFailure`` is not -1): delivered, but the device would not decode it.
    /// Default: ignored.
    func recordWouldNotDecode(_ push: OutgoingPush)
    /// APNs accepted `push` (200), whose outcome is recorded next: the device model's input. Called for
    /// every delivered push, before ``record(_:priority:intended:sent:completed:)``. Default: ignored.
    func recordDelivered(_ push: OutgoingPush)
    /// An attempt that did not end the push was answered or failed with `cause` (an APNs reason such as
    /// `ServiceUnavailable`, or a transport error key such as `curl_7_couldnt_connect`), and the push is
    /// being sent again at monotonic `nanos`. Rare: only when the target refuses or fails. Default: ignored.
    func recordResend(cause: String, at nanos: UInt64)
}

extension OutcomeSink {
    public func recordConnections(_ change: ConnectionTally, at nanos: UInt64) {}
    public func recordWouldNotDecode(_ push: OutgoingPush) {}
    public func recordDelivered(_ push: OutgoingPush) {}
    public func recordResend(cause: String, at nanos: UInt64) {}

    /// Records `push` as planned and never sent, for `cause`, with its priority and intended time.
    @inline(__always)
    public func recordNotSent(_ cause: NotSentCause, _ push: OutgoingPush) {
        record(.notSent(cause), priority: push.priority, intended: push.intendedNanos, sent: 0, completed: 0)
    }

    /// Stops `source` and records every push it still had planned as not sent (``PushSource/abandon()``).
    /// `deadline`: as for ``PushSource/drainAfterAbandon(using:stoppedAs:deadline:_:)``.
    public func recordAbandoned(_ source: PushSource, using scratch: inout OutgoingPush, stoppedAs: NotSentCause = .runStopped,
                                deadline: UInt64? = nil) {
        source.drainAfterAbandon(using: &scratch, stoppedAs: stoppedAs, deadline: deadline) { cause, push in recordNotSent(cause, push) }
    }
}
