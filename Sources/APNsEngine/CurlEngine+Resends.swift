import APNsCore

/// Resends: an attempt that did not end in 200 is ended or held by the token ledger's decision, and a held
/// push goes again when it is due (with a new provider token first when the ledger says so).
extension CurlEngine {
    /// Whether a push taken from the retry queue may go now; if not, it goes back with its new due time. A
    /// resend that needs a new provider token first gets one here.
    func resendIsDue(_ slot: TransferSlot, now: UInt64) throws -> Bool {
        let due = ledger.retryDue(lastOutcome: slot.lastOutcome, refreshedToken: slot.refreshedToken,
                                  sentWithIssuedAt: slot.tokenIssuedAt, currentIssuedAt: headers.current.issuedAt,
                                  secondsUntilResignAllowed: headers.tokens.secondsUntilRefreshAllowed, now: now)
        if case .wait(let until) = due {
            slot.dueNanos = until
            pool.retryQueue.push(slot)
            return false
        }
        if due == .resignThenSend {
            // The ledger applied the 20-minute rule with the cache's own figure: sign now.
            try headers.resign()
            counters.providerTokenSignings = headers.signings
        }
        return true
    }

    /// A resend going out, counted by what the previous attempt got: so `sent` is always first sends
    /// plus `retriesTotal`, and a resend the run's end cut off is not counted.
    func countResend(_ slot: TransferSlot, now: UInt64, sink: OutcomeSink) {
        let key = slot.lastOutcome?.retryKey ?? "other"
        counters.retries[key, default: 0] += 1
        counters.retriesTotal += 1
        sink.recordResend(cause: key, at: now)
    }

    /// An attempt that did not end in 200: the ledger (with the retry policy) says record it or resend it when.
    func settle(_ slot: TransferSlot, outcome: Outcome, completed: UInt64, sink: OutcomeSink) {
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
        pool.retryQueue.push(slot)
    }
}
