import APNsCore

/// What the engine does with a push whose attempt did not end in 200, by the class of what came back
/// (APNs' documented statuses: 429 and 5xx are worth retrying, 410 means the token is gone, other 4xx
/// are the request's own fault). A pure function of the outcome and the push's history, so it is
/// tested without a network.
///
/// - 429 `TooManyRequests`: back off that device token only (the token's own exponential backoff).
/// - 500, 503 (`ServiceUnavailable`, `Shutdown`), any other 5xx, transport errors (reset, GOAWAY, refused
///   connection): retry with exponential backoff — by default 1, 2, 4, 8 s … (the schedule the CDBL leave app's backend uses),
///   at most 10 attempts in all or 5 minutes from the first send.
/// - 403 `ExpiredProviderToken`: sign a new provider token (never sooner than 20 minutes after the
///   previous one) and retry once.
/// - 410 (`Unregistered`, `ExpiredToken`): final, and the token is dead for the rest of the run.
/// - Any other 4xx: final, no retry.
/// - Timeouts: final. A push that timed out may have been delivered; resending it could show twice.
///
/// A policy made with ``init()`` has the defaults of a run's configuration (``RunConfig/Retry``, whose
/// attempts, first backoff and longest elapsed time are the run settings' defaults): they are written there only.
public struct RetryPolicy: Sendable, Equatable {
    /// Delay before the second attempt, in seconds.
    public var initialBackoff: Double
    /// Each further delay is the previous one times this.
    public var multiplier: Double
    /// No single delay is longer than this, in seconds.
    public var maxBackoff: Double
    /// Attempts in all, the first included; 1 means never retry.
    public var maxAttempts: Int
    /// No retry is scheduled later than this many seconds after the first send.
    public var maxElapsed: Double
    /// Backoff for a device token answered 429 `TooManyRequests`: the first delay, doubling while the
    /// token keeps being refused, capped at `maxBackoff`.
    public var tokenBackoff: Double

    /// The default policy: a run's when its configuration states no retry setting.
    public init() { self.init(RunConfig.Retry()) }

    /// The policy a run's configuration describes.
    public init(_ r: RunConfig.Retry) {
        initialBackoff = r.backoff.secondsValue
        multiplier = r.multiplier
        maxBackoff = max(r.maxBackoff.secondsValue, initialBackoff)
        maxAttempts = r.attempts
        maxElapsed = r.maxElapsed.secondsValue
        tokenBackoff = r.tokenBackoff.secondsValue
    }

    /// Never retries anything (410 still marks the token dead).
    public static let never: RetryPolicy = { var p = RetryPolicy(); p.maxAttempts = 1; return p }()

    public func validate() throws {
        guard maxAttempts >= 1 else { throw EngineError.badConfiguration("retry attempts \(maxAttempts) must be at least 1") }
        guard initialBackoff >= 0, tokenBackoff >= 0, maxBackoff >= initialBackoff, multiplier >= 1, maxElapsed >= 0 else {
            throw EngineError.badConfiguration("retry backoff must be initial ≥ 0, multiplier ≥ 1, max ≥ initial, elapsed ≥ 0")
        }
    }

    /// The delay before attempt `attempt + 1` after `attempt` attempts (1-based), in seconds.
    public func backoff(afterAttempt attempt: Int) -> Double {
        Self.exponential(initial: initialBackoff, multiplier: multiplier, cap: maxBackoff, step: attempt)
    }

    /// The delay for a token refused `strikes` times in a row (1-based), in seconds.
    public func tokenBackoff(strikes: Int) -> Double {
        Self.exponential(initial: tokenBackoff, multiplier: multiplier, cap: maxBackoff, step: strikes)
    }

    static func exponential(initial: Double, multiplier: Double, cap: Double, step: Int) -> Double {
        var d = initial
        var i = 1
        while i < step && d < cap { d *= multiplier; i += 1 }
        return min(d, max(cap, initial))
    }

    /// What to do after an attempt ended in `outcome`.
    /// - Parameters:
    ///   - attempt: attempts made so far, this one included (1 after the first).
    ///   - elapsed: seconds since the push was first sent.
    ///   - refreshedToken: whether this push was already resent once with a new provider token.
    ///   - tokenStrikes: how many 429s in a row this device token has had, this one included.
    public func decide(_ outcome: Outcome, attempt: Int, elapsed: Double, refreshedToken: Bool, tokenStrikes: Int = 1) -> RetryDecision {
        switch outcome {
        case .delivered, .timedOut, .notSent:
            return .final
        case .failed:
            return scheduled(backoff(afterAttempt: attempt), attempt: attempt, elapsed: elapsed, then: .retry(after: backoff(afterAttempt: attempt)))
        case .rejected(let reason):
            if reason == .expiredProviderToken {
                return refreshedToken ? .final : .retryWithNewProviderToken
            }
            // 410: the device token is dead; ChannelNotRegistered: the broadcast channel is gone. Either way
            // nothing more is sent to it in this run.
            if reason.status == 410 || reason == .channelNotRegistered { return .finalTokenDead }
            if reason == .tooManyRequests {
                let delay = tokenBackoff(strikes: tokenStrikes)
                return scheduled(delay, attempt: attempt, elapsed: elapsed, then: .backOffToken(for: delay))
            }
            if RetryableCause.isRetryable(reason) {
                let delay = backoff(afterAttempt: attempt)
                return scheduled(delay, attempt: attempt, elapsed: elapsed, then: .retry(after: delay))
            }
            return .final
        }
    }

    private func scheduled(_ delay: Double, attempt: Int, elapsed: Double, then decision: RetryDecision) -> RetryDecision {
        guard attempt < maxAttempts, elapsed + delay <= maxElapsed else { return .final }
        return decision
    }
}

/// The engine's next step for one push after an attempt.
public enum RetryDecision: Equatable, Sendable {
    /// The outcome stands: record it.
    case final
    /// The outcome stands and the device token is dead for the rest of the run (410).
    case finalTokenDead
    /// Send it again after this many seconds.
    case retry(after: Double)
    /// Hold this device token (this push and any later one for it) for this many seconds, then resend.
    case backOffToken(for: Double)
    /// Sign a new provider token (when the 20-minute rule allows) and send it again, once.
    case retryWithNewProviderToken
}
