import APNsCore
@testable import APNsEngine
import XCTest

/// The engine's per-token rules, driven by what happened and a clock in nanoseconds: no curl, no sockets.
/// The default retry policy: 429 holds from 1 s doubling to 60 s, other retries from 1 s, 10 attempts, 300 s.
final class TokenLedgerTests: XCTestCase {
    let s: UInt64 = 1_000_000_000
    let hot = String(repeating: "cd", count: 32)
    let cold = String(repeating: "0c", count: 32)
    let dead = String(repeating: "de", count: 32)

    /// A first attempt answered at `now` (sent at `now`, so nothing counts against the time limit).
    func answer(
        _ ledger: inout TokenLedger, _ token: String, _ outcome: Outcome, now: UInt64, attempt: Int = 1, refreshedToken: Bool = false
    ) -> TokenLedger.OnAnswer {
        ledger.answered(token: token, outcome: outcome, attempt: attempt, firstSentNanos: now, refreshedToken: refreshedToken, now: now)
    }

    // MARK: Dead tokens

    func testA410MarksTheTokenDeadAndLaterPushesAreNotSentCountedOncePerToken() {
        for reason in [Reason.unregistered, .expiredToken] {
            var ledger = TokenLedger(policy: RetryPolicy())
            XCTAssertEqual(ledger.taken(token: dead), .proceed, "\(reason): not dead before its answer")
            XCTAssertEqual(answer(&ledger, dead, .rejected(reason), now: 1 * s), .final, "\(reason)")
            XCTAssertEqual(ledger.taken(token: dead), .notSent(.deadToken), "\(reason)")
            XCTAssertEqual(ledger.taken(token: cold), .proceed, "\(reason): only that token")
            // Pushes that were already in flight to it are answered 410 too: still one dead token.
            XCTAssertEqual(answer(&ledger, dead, .rejected(reason), now: 2 * s), .final)
            XCTAssertEqual(answer(&ledger, dead, .rejected(reason), now: 3 * s), .final)
            XCTAssertEqual(ledger.counters, .init(deadTokens: 1), "\(reason)")
            XCTAssertEqual(answer(&ledger, cold, .rejected(reason), now: 4 * s), .final)
            XCTAssertEqual(ledger.taken(token: cold), .notSent(.deadToken))
            XCTAssertEqual(ledger.counters, .init(deadTokens: 2), "\(reason): a second token counts")
            XCTAssertEqual(ledger.ready(token: dead, now: 5 * s), .send, "\(reason): dead is not held")
        }
    }

    func testA410MarksTheTokenDeadEvenWhenNothingIsRetried() {
        var ledger = TokenLedger(policy: .never)
        XCTAssertEqual(answer(&ledger, dead, .rejected(.unregistered), now: 1), .final)
        XCTAssertEqual(ledger.taken(token: dead), .notSent(.deadToken))
        XCTAssertEqual(ledger.counters, .init(deadTokens: 1))
    }

    /// The one-stream run of EngineFaultTests in memory: each push is answered before the next is taken.
    func testOneStreamRunSendsADeadTokenOnceAndEndsTheRestAsNotSent() {
        var ledger = TokenLedger(policy: RetryPolicy())
        let pushes = [cold] + Array(repeating: dead, count: 5) + [cold]
        var outcomes: [Outcome] = []
        var sent = 0
        for (i, token) in pushes.enumerated() {
            let now = UInt64(i) * s
            if case .notSent(let cause) = ledger.taken(token: token) {
                outcomes.append(.notSent(cause))
                continue
            }
            XCTAssertEqual(ledger.ready(token: token, now: now), .send)
            sent += 1
            let outcome: Outcome = token == dead ? .rejected(.unregistered) : .delivered
            XCTAssertEqual(answer(&ledger, token, outcome, now: now), .final)
            outcomes.append(outcome)
        }
        XCTAssertEqual(outcomes, [.delivered, .rejected(.unregistered)] + Array(repeating: .notSent(.deadToken), count: 4) + [.delivered])
        XCTAssertEqual(sent, 3)
        XCTAssertEqual(ledger.counters, .init(deadTokens: 1))
    }

    // MARK: 429 holds

    func testA429HoldsTheTokenWithABackoffThatDoublesByStrikes() {
        var ledger = TokenLedger(policy: RetryPolicy())
        // Strike k holds for 1 s × 2^(k-1), capped at maxBackoff (60 s).
        let expectedSeconds: [UInt64] = [1, 2, 4, 8, 16, 32, 60, 60]
        var now = 10 * s
        for (k, seconds) in expectedSeconds.enumerated() {
            let until = now + seconds * s
            XCTAssertEqual(answer(&ledger, hot, .rejected(.tooManyRequests), now: now), .resend(atNanos: until), "strike \(k + 1)")
            XCTAssertEqual(ledger.ready(token: hot, now: now), .hold(untilNanos: until), "strike \(k + 1)")
            XCTAssertEqual(ledger.ready(token: hot, now: until - 1), .hold(untilNanos: until), "strike \(k + 1)")
            XCTAssertEqual(ledger.ready(token: hot, now: until), .send, "strike \(k + 1): the hold ends on time")
            XCTAssertEqual(ledger.counters.tokenBackoffs, k + 1)
            now = until
        }
        XCTAssertEqual(ledger.counters, .init(tokenBackoffs: expectedSeconds.count))
    }

    func testLaterPushesOfAHeldTokenWaitBehindItAndOtherTokensAreNotHeld() {
        var ledger = TokenLedger(policy: RetryPolicy())
        guard case .resend(let heldUntil) = answer(&ledger, hot, .rejected(.tooManyRequests), now: 5 * s) else {
            return XCTFail("a 429 is resent after the hold")
        }
        XCTAssertEqual(heldUntil, 6 * s)
        // Later pushes to the held token are due when the held one is (the retry queue then keeps them in the
        // order they were taken); pushes to other tokens go out at once.
        for t in [5 * s, 5 * s + 1, 5 * s + s / 2, 6 * s - 1] {
            XCTAssertEqual(ledger.ready(token: hot, now: t), .hold(untilNanos: heldUntil))
            XCTAssertEqual(ledger.ready(token: cold, now: t), .send)
            XCTAssertEqual(ledger.taken(token: hot), .proceed, "held is not dead")
        }
        XCTAssertEqual(ledger.counters, .init(tokenBackoffs: 1), "one hold, however many pushes wait behind it")
    }

    func testStrikesBelongToTheTokenNotThePush() {
        var ledger = TokenLedger(policy: RetryPolicy())
        // Three different pushes to one token, each on its first attempt: 1 s, 2 s, 4 s.
        XCTAssertEqual(answer(&ledger, hot, .rejected(.tooManyRequests), now: 0), .resend(atNanos: 1 * s))
        XCTAssertEqual(answer(&ledger, hot, .rejected(.tooManyRequests), now: 0), .resend(atNanos: 2 * s))
        XCTAssertEqual(answer(&ledger, hot, .rejected(.tooManyRequests), now: 0), .resend(atNanos: 4 * s))
        // Another token starts at strike 1.
        XCTAssertEqual(answer(&ledger, cold, .rejected(.tooManyRequests), now: 0), .resend(atNanos: 1 * s))
        XCTAssertEqual(ledger.counters, .init(tokenBackoffs: 4))
    }

    func testA200ClearsTheHoldAndItsStrikes() {
        // The engine's 200 path calls delivered(token:); an answered(.delivered) means the same.
        let clears: [(String, (inout TokenLedger, String, UInt64) -> Void)] = [
            ("delivered(token:)", { ledger, token, _ in ledger.delivered(token: token) }),
            ("answered(.delivered)", { ledger, token, now in
                XCTAssertEqual(ledger.answered(token: token, outcome: .delivered, attempt: 1, firstSentNanos: now, refreshedToken: false, now: now), .final)
            }),
        ]
        for (name, clear) in clears {
            var ledger = TokenLedger(policy: RetryPolicy())
            _ = answer(&ledger, hot, .rejected(.tooManyRequests), now: 0)
            _ = answer(&ledger, hot, .rejected(.tooManyRequests), now: 0)
            _ = answer(&ledger, cold, .rejected(.tooManyRequests), now: 0)
            XCTAssertEqual(ledger.ready(token: hot, now: 1 * s), .hold(untilNanos: 2 * s), name)
            clear(&ledger, hot, 1 * s)
            XCTAssertEqual(ledger.ready(token: hot, now: 1 * s), .send, "\(name): the hold is gone")
            XCTAssertEqual(answer(&ledger, hot, .rejected(.tooManyRequests), now: 3 * s), .resend(atNanos: 4 * s), "\(name): strikes start again at 1")
            XCTAssertEqual(ledger.ready(token: cold, now: 1 * s - 1), .hold(untilNanos: 1 * s), "\(name): only that token's hold")
            XCTAssertEqual(ledger.counters, .init(tokenBackoffs: 4), name)
        }
    }

    func testAHeldTokenPastTheRetryLimitsIsFinalAndNotHeld() {
        var ledger = TokenLedger(policy: RetryPolicy())
        // The tenth attempt, and a push first sent 299.5 s ago (its 1 s hold would end after 300 s).
        XCTAssertEqual(answer(&ledger, hot, .rejected(.tooManyRequests), now: 1 * s, attempt: 10), .final)
        XCTAssertEqual(ledger.answered(token: hot, outcome: .rejected(.tooManyRequests), attempt: 2, firstSentNanos: 0, refreshedToken: false,
            now: 299 * s + s / 2), .final)
        XCTAssertEqual(ledger.ready(token: hot, now: 300 * s), .send)
        var never = TokenLedger(policy: .never)
        XCTAssertEqual(answer(&never, hot, .rejected(.tooManyRequests), now: 0), .final)
        XCTAssertEqual(never.ready(token: hot, now: 0), .send)
        XCTAssertEqual(ledger.counters, .init())
        XCTAssertEqual(never.counters, .init())
    }

    // MARK: Every answer, one token

    func testOnlyA429HoldsAndOnly410KillsAndOtherTokensAreNeverTouched() {
        let t = 7 * s
        let failure = TransportError(code: 56, key: "curl_56_recv_error")
        let rows: [(outcome: Outcome, answer: TokenLedger.OnAnswer, ready: TokenLedger.OnReady, taken: TokenLedger.OnTaken, counters: TokenLedger.Counters)] = [
            (.rejected(.tooManyRequests), .resend(atNanos: t + s), .hold(untilNanos: t + s), .proceed, .init(tokenBackoffs: 1)),
            (.rejected(.serviceUnavailable), .resend(atNanos: t + s), .send, .proceed, .init()),
            (.rejected(.internalServerError), .resend(atNanos: t + s), .send, .proceed, .init()),
            (.failed(failure), .resend(atNanos: t + s), .send, .proceed, .init()),
            (.rejected(.tooManyProviderTokenUpdates), .final, .send, .proceed, .init()),
            (.rejected(.badDeviceToken), .final, .send, .proceed, .init()),
            (.rejected(.payloadTooLarge), .final, .send, .proceed, .init()),
            (.rejected(.unregistered), .final, .send, .notSent(.deadToken), .init(deadTokens: 1)),
            (.rejected(.expiredToken), .final, .send, .notSent(.deadToken), .init(deadTokens: 1)),
            (.rejected(.expiredProviderToken), .resendWithNewProviderToken(atNanos: t), .send, .proceed, .init()),
            (.timedOut, .final, .send, .proceed, .init()),
            (.delivered, .final, .send, .proceed, .init()),
        ]
        for row in rows {
            var ledger = TokenLedger(policy: RetryPolicy())
            XCTAssertEqual(answer(&ledger, hot, row.outcome, now: t), row.answer, "\(row.outcome)")
            XCTAssertEqual(ledger.ready(token: hot, now: t), row.ready, "\(row.outcome)")
            XCTAssertEqual(ledger.taken(token: hot), row.taken, "\(row.outcome)")
            XCTAssertEqual(ledger.counters, row.counters, "\(row.outcome)")
            XCTAssertEqual(ledger.ready(token: cold, now: t), .send, "\(row.outcome): another token")
            XCTAssertEqual(ledger.taken(token: cold), .proceed, "\(row.outcome): another token")
        }
    }

    // MARK: Re-signing after ExpiredProviderToken

    /// `iat` of the expired provider token, and of the one signed after it.
    let oldIat = 1_700_000_000
    let newIat = 1_700_000_000 + 61 * 60

    func testExpiredProviderTokenIsResentOnceAndResignedWhenTheRuleAllows() {
        var ledger = TokenLedger(policy: RetryPolicy())
        let t = 3 * s
        XCTAssertEqual(answer(&ledger, hot, .rejected(.expiredProviderToken), now: t), .resendWithNewProviderToken(atNanos: t))
        XCTAssertEqual(ledger.counters, .init(), "nothing signed until the resend is due")
        XCTAssertEqual(ledger.retryDue(lastOutcome: .rejected(.expiredProviderToken), refreshedToken: true, sentWithIssuedAt: oldIat,
                                       currentIssuedAt: oldIat, secondsUntilResignAllowed: 0, now: t), .resignThenSend)
        XCTAssertEqual(ledger.counters, .init(providerTokenRefreshes: 1))
    }

    func testOtherPushesRejectedWithTheSameExpiredTokenUseTheNewOne() {
        var ledger = TokenLedger(policy: RetryPolicy())
        var asked = 0
        func wait() -> Double { asked += 1; return 1200 }
        for _ in 0..<5 {
            XCTAssertEqual(answer(&ledger, cold, .rejected(.expiredProviderToken), now: 0), .resendWithNewProviderToken(atNanos: 0))
        }
        XCTAssertEqual(ledger.retryDue(lastOutcome: .rejected(.expiredProviderToken), refreshedToken: true, sentWithIssuedAt: oldIat,
                                       currentIssuedAt: oldIat, secondsUntilResignAllowed: 0, now: 1), .resignThenSend)
        for _ in 0..<4 {
            // The headers now carry the new token: send, without asking the 20-minute rule.
            XCTAssertEqual(ledger.retryDue(lastOutcome: .rejected(.expiredProviderToken), refreshedToken: true, sentWithIssuedAt: oldIat,
                                           currentIssuedAt: newIat, secondsUntilResignAllowed: wait(), now: 2), .send)
        }
        XCTAssertEqual(asked, 0)
        XCTAssertEqual(ledger.counters, .init(providerTokenRefreshes: 1), "one new token for all of them")
    }

    func testTheTwentyMinuteRuleMakesTheResendWaitAndSaysUntilWhen() {
        // (seconds until the cache may sign, what the due resend does): a wait is due 1 ns after the rule allows.
        let t = 40 * s
        let rows: [(wait: Double, action: TokenLedger.OnRetryDue)] = [
            (0, .resignThenSend),
            (0.5, .wait(untilNanos: t + s / 2 + 1)),
            (90, .wait(untilNanos: t + 90 * s + 1)),
            (20 * 60, .wait(untilNanos: t + 1200 * s + 1)),
        ]
        for row in rows {
            var ledger = TokenLedger(policy: RetryPolicy())
            XCTAssertEqual(ledger.retryDue(lastOutcome: .rejected(.expiredProviderToken), refreshedToken: true, sentWithIssuedAt: oldIat,
                                           currentIssuedAt: oldIat, secondsUntilResignAllowed: row.wait, now: t), row.action, "wait \(row.wait) s")
            XCTAssertEqual(ledger.counters.providerTokenRefreshes, row.action == .resignThenSend ? 1 : 0, "wait \(row.wait) s")
        }
        // Due again when told: now the cache may sign, so it re-signs (once).
        var ledger = TokenLedger(policy: RetryPolicy())
        guard case .wait(let until) = ledger.retryDue(lastOutcome: .rejected(.expiredProviderToken), refreshedToken: true, sentWithIssuedAt: oldIat,
                                                      currentIssuedAt: oldIat, secondsUntilResignAllowed: 90, now: t) else {
            return XCTFail("the rule forbids signing for 90 s: wait")
        }
        XCTAssertEqual(ledger.retryDue(lastOutcome: .rejected(.expiredProviderToken), refreshedToken: true, sentWithIssuedAt: oldIat,
                                       currentIssuedAt: oldIat, secondsUntilResignAllowed: 0, now: until), .resignThenSend)
        XCTAssertEqual(ledger.counters, .init(providerTokenRefreshes: 1))
    }

    func testASecondExpiredProviderTokenOnTheSamePushIsFinal() {
        var ledger = TokenLedger(policy: RetryPolicy())
        XCTAssertEqual(answer(&ledger, hot, .rejected(.expiredProviderToken), now: 0), .resendWithNewProviderToken(atNanos: 0))
        XCTAssertEqual(ledger.retryDue(lastOutcome: .rejected(.expiredProviderToken), refreshedToken: true, sentWithIssuedAt: oldIat,
                                       currentIssuedAt: oldIat, secondsUntilResignAllowed: 0, now: 0), .resignThenSend)
        XCTAssertEqual(answer(&ledger, hot, .rejected(.expiredProviderToken), now: 1, attempt: 2, refreshedToken: true), .final)
        XCTAssertEqual(ledger.counters, .init(providerTokenRefreshes: 1))
        XCTAssertEqual(ledger.taken(token: hot), .proceed, "the device token is not to blame")
        XCTAssertEqual(ledger.ready(token: hot, now: 1), .send)
    }

    func testOtherResendsAreSentWithoutAskingTheTwentyMinuteRule() {
        var asked = 0
        func wait() -> Double { asked += 1; return 600 }
        let rows: [(lastOutcome: Outcome?, refreshedToken: Bool, sentWith: Int, current: Int)] = [
            (.rejected(.serviceUnavailable), false, oldIat, oldIat),
            (.rejected(.tooManyRequests), false, oldIat, oldIat),
            (.failed(TransportError(code: 56, key: "curl_56_recv_error")), false, oldIat, oldIat),
            // Resent with a new token once, then a 503 on that resend: a plain backoff.
            (.rejected(.serviceUnavailable), true, oldIat, oldIat),
            (nil, false, oldIat, oldIat),
            // Already carrying a newer token than the one that expired.
            (.rejected(.expiredProviderToken), true, oldIat, newIat),
        ]
        var ledger = TokenLedger(policy: RetryPolicy())
        for row in rows {
            XCTAssertEqual(ledger.retryDue(lastOutcome: row.lastOutcome, refreshedToken: row.refreshedToken, sentWithIssuedAt: row.sentWith,
                                           currentIssuedAt: row.current, secondsUntilResignAllowed: wait(), now: 9 * s),
                           .send, "\(String(describing: row.lastOutcome))")
        }
        XCTAssertEqual(asked, 0)
        XCTAssertEqual(ledger.counters, .init())
    }

    // MARK: Counters

    func testCountersOfAMixedRun() {
        var ledger = TokenLedger(policy: RetryPolicy())
        let other = String(repeating: "ab", count: 32)
        _ = answer(&ledger, dead, .rejected(.unregistered), now: 0)
        _ = answer(&ledger, dead, .rejected(.unregistered), now: 1)
        _ = answer(&ledger, other, .rejected(.expiredToken), now: 2)
        _ = answer(&ledger, hot, .rejected(.tooManyRequests), now: 3)
        _ = answer(&ledger, hot, .rejected(.tooManyRequests), now: 4)
        ledger.delivered(token: hot)
        _ = answer(&ledger, hot, .rejected(.tooManyRequests), now: 5)
        _ = answer(&ledger, cold, .rejected(.serviceUnavailable), now: 6)
        _ = answer(&ledger, cold, .rejected(.expiredProviderToken), now: 7)
        _ = ledger.retryDue(lastOutcome: .rejected(.expiredProviderToken), refreshedToken: true, sentWithIssuedAt: oldIat,
                            currentIssuedAt: oldIat, secondsUntilResignAllowed: 30, now: 8)
        _ = ledger.retryDue(lastOutcome: .rejected(.expiredProviderToken), refreshedToken: true, sentWithIssuedAt: oldIat,
                            currentIssuedAt: oldIat, secondsUntilResignAllowed: 0, now: 30 * s + 9)
        _ = answer(&ledger, cold, .rejected(.expiredProviderToken), now: 30 * s + 10, attempt: 2, refreshedToken: true)
        XCTAssertEqual(ledger.counters, .init(deadTokens: 2, tokenBackoffs: 3, providerTokenRefreshes: 1))
    }
}
