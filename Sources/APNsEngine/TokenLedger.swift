import APNsCore

/// The engine's per-token rules as a value: it takes what happened to a push (taken from the source, about
/// to be sent, answered, due again after ExpiredProviderToken) with the time, and returns what to do. No
/// curl and no clock: `CurlEngine` carries the actions out and passes the time in, so the rules are
/// tested in memory (`TokenLedgerTests`).
///
/// The rules:
/// - **Dead tokens.** A device token answered 410 (`Unregistered`, `ExpiredToken`) is dead for the rest of
///   the run: later pushes to it end as not sent (`dead_token`) without going out. Counted once per token.
/// - **429 holds.** A device token answered 429 `TooManyRequests` is held for `RetryPolicy.tokenBackoff`,
///   doubling with each 429 in a row (strikes); its later pushes wait behind the held one until the hold
///   ends. A 200 for the token clears its strikes. Other tokens are never held.
/// - **Re-signing.** A push rejected `ExpiredProviderToken` is resent once. When it comes due still carrying
///   the expired provider token, a new one is signed if the 20-minute rule allows (APNs answers
///   `TooManyProviderTokenUpdates` to a token changed more often than every 20 minutes on a connection);
///   otherwise the push waits until it does. A second `ExpiredProviderToken` on the same push is final.
///
/// Everything else about a push's next step (backoffs for 5xx and transport errors, attempt and time
/// limits) is `RetryPolicy`'s; the ledger asks it, adding the token's strikes. The 200 path costs one
/// `isEmpty` check while no token is held.
struct TokenLedger {
    /// What to do with a push just taken from the source.
    enum OnTaken: Equatable {
        case proceed
        /// End it without sending, for this cause.
        case notSent(NotSentCause)
    }

    /// What to do with a push (new, not a resend) about to be handed to libcurl.
    enum OnReady: Equatable {
        case send
        /// Its token is held after 429: queue it, in order behind the held one, until this monotonic time (ns).
        case hold(untilNanos: UInt64)
    }

    /// What to do after an attempt was answered (or failed).
    enum OnAnswer: Equatable {
        /// The outcome stands: record it.
        case final
        /// Send it again at this monotonic time (ns): a backoff, or the end of its token's 429 hold.
        case resend(atNanos: UInt64)
        /// Send it again once, at this monotonic time (ns), with a new provider token: mark it, and when it
        /// comes due ask `retryDue`.
        case resendWithNewProviderToken(atNanos: UInt64)
    }

    /// What to do with a resend that came due.
    enum OnRetryDue: Equatable {
        case send
        /// Sign a new provider token (the 20-minute rule allows it now), rebuild the headers, then send.
        case resignThenSend
        /// The 20-minute rule forbids a new provider token yet: queue it again until this monotonic time (ns).
        case wait(untilNanos: UInt64)
    }

    struct Counters: Equatable {
        /// Device tokens found dead (410).
        var deadTokens = 0
        /// Pushes held because their device token was answered 429 TooManyRequests.
        var tokenBackoffs = 0
        /// Provider tokens signed again after ExpiredProviderToken.
        var providerTokenRefreshes = 0
    }

    struct Hold: Equatable {
        /// The token's pushes wait until this monotonic time (ns).
        var untilNanos: UInt64
        /// 429s in a row for the token (a 200 clears them).
        var strikes: Int
    }

    let policy: RetryPolicy
    private(set) var counters = Counters()
    /// Device tokens answered 410.
    private var dead: Set<String> = []
    /// Device tokens answered 429, with their strikes; an ended hold stays until a 200 clears it.
    private var holds: [String: Hold] = [:]

    init(policy: RetryPolicy) {
        self.policy = policy
    }

    /// A push for `token` was taken from the source.
    @inline(__always)
    func taken(token: String) -> OnTaken {
        if !dead.isEmpty, dead.contains(token) { return .notSent(.deadToken) }
        return .proceed
    }

    /// A push for `token` is about to be sent for the first time at `now`.
    @inline(__always)
    func ready(token: String, now: UInt64) -> OnReady {
        if !holds.isEmpty, let hold = holds[token], hold.untilNanos > now { return .hold(untilNanos: hold.untilNanos) }
        return .send
    }

    /// A push for `token` was answered 200: the token is no longer rate-limited.
    @inline(__always)
    mutating func delivered(token: String) {
        if !holds.isEmpty { holds.removeValue(forKey: token) }
    }

    /// An attempt for `token` ended in `outcome` at `now` (monotonic ns).
    /// - Parameters:
    ///   - attempt: attempts made so far, this one included.
    ///   - firstSentNanos: when the push was first sent (monotonic ns).
    ///   - refreshedToken: whether this push was already resent once with a new provider token.
    mutating func answered(token: String, outcome: Outcome, attempt: Int, firstSentNanos: UInt64, refreshedToken: Bool, now: UInt64) -> OnAnswer {
        if case .delivered = outcome {
            delivered(token: token)
            return .final
        }
        var strikes = 1
        if case .rejected(let r) = outcome, r == .tooManyRequests {
            strikes = (holds[token]?.strikes ?? 0) + 1
        }
        let elapsed = Double(now &- firstSentNanos) / 1e9
        switch policy.decide(outcome, attempt: attempt, elapsed: elapsed, refreshedToken: refreshedToken, tokenStrikes: strikes) {
        case .final:
            return .final
        case .finalTokenDead:
            if dead.insert(token).inserted { counters.deadTokens += 1 }
            return .final
        case .retry(let after):
            return .resend(atNanos: now + UInt64(after * 1e9))
        case .backOffToken(let after):
            let until = now + UInt64(after * 1e9)
            holds[token] = Hold(untilNanos: until, strikes: strikes)
            counters.tokenBackoffs += 1
            return .resend(atNanos: until)
        case .retryWithNewProviderToken:
            return .resendWithNewProviderToken(atNanos: now)
        }
    }

    /// A push waiting to be resent came due at `now` (monotonic ns).
    /// - Parameters:
    ///   - lastOutcome: how its last attempt ended.
    ///   - refreshedToken: whether it was marked to be resent with a new provider token.
    ///   - sentWithIssuedAt: `iat` of the provider token its last attempt carried.
    ///   - currentIssuedAt: `iat` of the provider token it would carry now.
    ///   - secondsUntilResignAllowed: the token cache's wait under the 20-minute rule (0 when it may sign
    ///     now); evaluated only when the push would still carry the expired token.
    mutating func retryDue(
        lastOutcome: Outcome?, refreshedToken: Bool, sentWithIssuedAt: Int, currentIssuedAt: Int,
        secondsUntilResignAllowed: @autoclosure () -> Double, now: UInt64
    ) -> OnRetryDue {
        guard refreshedToken, lastOutcome == .rejected(.expiredProviderToken), currentIssuedAt <= sentWithIssuedAt else {
            return .send
        }
        // Still the expired token: sign a new one if the 20-minute rule allows, else wait for it.
        let wait = secondsUntilResignAllowed()
        guard wait == 0 else { return .wait(untilNanos: now + UInt64(wait * 1e9) + 1) }
        counters.providerTokenRefreshes += 1
        return .resignThenSend
    }
}
