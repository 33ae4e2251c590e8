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

    public init(bodyCapacity: Int = 4096) {
        body.reserveCapacity(bodyCapacity)
    }
}

/// Where the engine gets its pushes. Called on the engine's thread only.
public protocol PushSource: AnyObject {
    /// Fills `push` with the next push to send and returns true, or returns false when there are no more.
    /// Pushes the source plans but decides not to send are recorded by the source itself as `notSent`.
    func next(into push: inout OutgoingPush) -> Bool

    /// Called once when the engine stops asking before the source ran dry (the duration limit was reached).
    /// A source that has planned pushes it has not handed out yet (the rest of a fan-out, updates held for
    /// coalescing) records each as not sent (`run_stopped`), so that every planned push still has an outcome.
    func abandon()

    /// Asked after `next(into:)` returned false: true if the source has ended (the default), false if it
    /// only has nothing ready yet (a worker's queue its producer has not refilled). An engine that honours
    /// it (`WakeableEngine`) keeps its transfers going and asks again after its next wait; the source ends
    /// that wait early by calling the engine's `wake()` once it has a push.
    var isExhausted: Bool { get }
}

extension PushSource {
    /// Nothing planned is held back by default.
    public func abandon() {}

    /// A source without a queue in front of it has ended when it says it has no more.
    public var isExhausted: Bool { true }
}

/// Receives one outcome per planned push. Called on the engine's thread only.
public protocol OutcomeSink: AnyObject {
    /// `intended`, `sent` and `completed` are monotonic nanoseconds; `sent` and `completed` are 0 for a
    /// push that was never sent.
    func record(_ outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64)
}
