/// How one planned push ended. Every planned push ends in exactly one of these, so that
/// `planned == delivered + rejected + failed + timedOut + notSent` holds for every run.
public enum Outcome: Sendable, Equatable {
    /// APNs (or the simulator) answered 200.
    case delivered
    /// APNs answered with a non-200 status and this reason.
    case rejected(Reason)
    /// The transport failed (connection refused, TLS, reset, …) before an answer came.
    case failed(TransportError)
    /// No answer within the push timeout.
    case timedOut
    /// Never sent, for this cause (no token yet, bad input, …).
    case notSent(NotSentCause)
}

/// A transport failure, keyed by a short bounded name fit for report keys (`curl_7_couldnt_connect`).
public struct TransportError: Hashable, Sendable, CustomStringConvertible {
    /// The libcurl result code (CURLcode), or a negative code for the engine's own errors.
    public let code: Int
    /// A short stable key, e.g. `curl_56_recv_error`.
    public let key: String

    public init(code: Int, key: String) {
        self.code = code
        self.key = key
    }

    public var description: String { key }
}

/// Why a planned push was not sent. A struct with static constants, so workloads can add causes.
public struct NotSentCause: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The push's target has no device / activity token yet (e.g. a leave status change before its token arrived).
    public static let noToken = NotSentCause("no_token")
    /// The event refers to something the stream never created (e.g. a status change for an unknown request).
    public static let unknownTarget = NotSentCause("unknown_target")
    /// An event meant for a group (a store's followers, a family's parents) that had no devices: one planned
    /// push that nobody could receive.
    public static let noRecipients = NotSentCause("no_recipients")
    /// A stream line that could not be read: it may have planned a push, so it counts as one push not sent,
    /// and skipped input shows in the push totals (the event totals count it by its cause).
    public static let badLine = NotSentCause("bad_line")
    /// A Live Activity update replaced by a newer one for the same token within the coalescing window
    /// (a push saved).
    public static let coalesced = NotSentCause("coalesced")
    /// The run stopped (a worker failed, or its duration ran out while this push was due and waiting)
    /// before this push could be sent: a push lost.
    public static let runStopped = NotSentCause("run_stopped")
    /// The run's duration (`--duration`, which also ends a ramp) ran out before this push was due: its
    /// intended send time is after the end, or, in a closed loop, the run ended before reaching it. Planned,
    /// never due, so not a loss: the delivered share and the error shares leave it out.
    public static let afterEnd = NotSentCause("after_end")

    /// What a push not sent when the run's duration ran out at `deadline` (monotonic nanoseconds) counts
    /// as: ``afterEnd`` when it was not yet due (intended after the deadline, or 0: no schedule, as soon as
    /// a stream is free), else ``runStopped`` (due, and the run did not get to send it).
    @inline(__always)
    public static func atDeadline(_ deadline: UInt64, intended: UInt64) -> NotSentCause {
        intended == 0 || intended > deadline ? .afterEnd : .runStopped
    }
    /// The run was interrupted (SIGINT, SIGTERM) before this push was sent, or it was still in flight
    /// when the drain after the signal ran out.
    public static let interrupted = NotSentCause("interrupted")
    /// No connection to the target ever succeeded within the fail-fast window (refused, no such host, TLS
    /// verification or ALPN failed), so the run gave up before sending this push.
    public static let targetUnreachable = NotSentCause("target_unreachable")
    /// The device token was answered 410 (Unregistered, ExpiredToken) earlier in the run: it is dead for the
    /// rest of it, so later pushes to it are not sent.
    public static let deadToken = NotSentCause("dead_token")
    /// Broadcast delivery: the store's channel could not be created because the app already has the most
    /// channels APNs allows (10,000 per app and environment), so its updates have no channel to go to.
    public static let channelLimit = NotSentCause("channel_limit")
    /// Broadcast delivery: the channel was answered as unknown earlier in the run (deleted under the run),
    /// so later broadcasts to it are not sent.
    public static let channelGone = NotSentCause("channel_gone")
}
