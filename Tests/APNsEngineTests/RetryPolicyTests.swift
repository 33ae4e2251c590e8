import APNsCore
@testable import APNsEngine
import XCTest

/// The retry policy is a pure function: every reason class, the schedule, the limits.
final class RetryPolicyTests: XCTestCase {
    let policy = RetryPolicy()
    let reset = Outcome.failed(TransportError(code: 56, key: "curl_56_recv_error"))

    /// The policy and a report's check of its retries read one rule: a reason is resent exactly when
    /// `RetryableCause` says it may be, and every transport error is.
    func testThePolicyResendsExactlyWhatRetryableCauseNames() {
        let p = RetryPolicy()
        for reason in Reason.all + [Reason(rawValue: "HTTP502", status: 502, handling: .unknown), Reason(rawValue: "Teapot")] {
            let resent = p.decide(.rejected(reason), attempt: 1, elapsed: 0, refreshedToken: false) != .final
                && p.decide(.rejected(reason), attempt: 1, elapsed: 0, refreshedToken: false) != .finalTokenDead
            XCTAssertEqual(resent, RetryableCause.isRetryable(reason), reason.rawValue)
            XCTAssertEqual(RetryableCause.isRetryable(key: reason.rawValue), RetryableCause.isRetryable(Reason(rawValue: reason.rawValue)), reason.rawValue)
        }
        XCTAssertNotEqual(p.decide(.failed(TransportError(code: 56, key: "curl_56_recv_error")), attempt: 1, elapsed: 0, refreshedToken: false), .final)
        XCTAssertTrue(RetryableCause.isRetryable(key: "curl_56_recv_error"))
        XCTAssertTrue(RetryableCause.isRetryable(key: "stall"))
        XCTAssertFalse(RetryableCause.isRetryable(key: "BadDeviceToken"))
        XCTAssertFalse(RetryableCause.isRetryable(key: "Unregistered"))
        XCTAssertEqual(p.decide(.timedOut, attempt: 1, elapsed: 0, refreshedToken: false), .final)
    }

    func testDefaultScheduleDoublesFromOneSecondUpToAMinute() {
        // Attempt 2 after 1 s, 3 after 2 s, 4 after 4 s, 5 after 8 s …
        XCTAssertEqual((1...7).map { policy.backoff(afterAttempt: $0) }, [1, 2, 4, 8, 16, 32, 60])
        XCTAssertEqual(policy.backoff(afterAttempt: 20), 60)
    }

    func testServerSideAnswersAndTransportErrorsAreRetriedWithBackoff() {
        for outcome: Outcome in [.rejected(.internalServerError), .rejected(.serviceUnavailable), .rejected(.shutdown), reset,
                                 .rejected(Reason(rawValue: "HTTP502", status: 502, handling: .unknown))] {
            XCTAssertEqual(policy.decide(outcome, attempt: 1, elapsed: 0, refreshedToken: false), .retry(after: 1), "\(outcome)")
            XCTAssertEqual(policy.decide(outcome, attempt: 3, elapsed: 3, refreshedToken: false), .retry(after: 4), "\(outcome)")
        }
    }

    func testAtMostTenAttemptsOrFiveMinutes() {
        XCTAssertEqual(policy.decide(.rejected(.serviceUnavailable), attempt: 9, elapsed: 100, refreshedToken: false), .retry(after: 60))
        XCTAssertEqual(policy.decide(.rejected(.serviceUnavailable), attempt: 10, elapsed: 100, refreshedToken: false), .final)
        // The next delay would end past 5 minutes from the first send.
        XCTAssertEqual(policy.decide(.rejected(.serviceUnavailable), attempt: 8, elapsed: 250, refreshedToken: false), .final)
        XCTAssertEqual(policy.decide(reset, attempt: 1, elapsed: 299.5, refreshedToken: false), .final)
        XCTAssertEqual(RetryPolicy.never.decide(.rejected(.serviceUnavailable), attempt: 1, elapsed: 0, refreshedToken: false), .final)
    }

    func testTooManyRequestsBacksOffTheTokenLongerEachTime() {
        XCTAssertEqual(policy.decide(.rejected(.tooManyRequests), attempt: 1, elapsed: 0, refreshedToken: false, tokenStrikes: 1), .backOffToken(for: 1))
        XCTAssertEqual(policy.decide(.rejected(.tooManyRequests), attempt: 2, elapsed: 1, refreshedToken: false, tokenStrikes: 3), .backOffToken(for: 4))
        XCTAssertEqual(policy.decide(.rejected(.tooManyRequests), attempt: 10, elapsed: 1, refreshedToken: false, tokenStrikes: 3), .final)
    }

    func testExpiredProviderTokenIsRetriedOnceWithANewToken() {
        XCTAssertEqual(policy.decide(.rejected(.expiredProviderToken), attempt: 1, elapsed: 0, refreshedToken: false), .retryWithNewProviderToken)
        XCTAssertEqual(policy.decide(.rejected(.expiredProviderToken), attempt: 2, elapsed: 0, refreshedToken: true), .final)
    }

    func testGoneTokensAreDeadAndOtherClientErrorsAreFinal() {
        XCTAssertEqual(policy.decide(.rejected(.unregistered), attempt: 1, elapsed: 0, refreshedToken: false), .finalTokenDead)
        XCTAssertEqual(policy.decide(.rejected(.expiredToken), attempt: 1, elapsed: 0, refreshedToken: false), .finalTokenDead)
        for reason: Reason in [.badDeviceToken, .payloadTooLarge, .badTopic, .topicDisallowed, .invalidProviderToken,
                               .tooManyProviderTokenUpdates, .forbidden, .badCollapseId, .missingTopic] {
            XCTAssertEqual(policy.decide(.rejected(reason), attempt: 1, elapsed: 0, refreshedToken: false), .final, reason.rawValue)
        }
        XCTAssertEqual(policy.decide(.timedOut, attempt: 1, elapsed: 0, refreshedToken: false), .final)
        XCTAssertEqual(policy.decide(.delivered, attempt: 1, elapsed: 0, refreshedToken: false), .final)
    }

    func testConfigurationIsChecked() {
        var p = RetryPolicy()
        p.maxAttempts = 0
        XCTAssertThrowsError(try p.validate())
        p = RetryPolicy()
        p.multiplier = 0.5
        XCTAssertThrowsError(try p.validate())
        XCTAssertNoThrow(try RetryPolicy().validate())
    }
}
