import APNsCore
import CCurl
@testable import APNsEngine
import XCTest

/// An ended transfer's verdict, as values: what the run loop and the connection lifecycle hear of it.
final class TransferVerdictTests: XCTestCase {
    func judge(_ result: CURLcode, _ status: Int = 0, _ body: String = "", stalled: Bool = false) -> TransferVerdict {
        TransferVerdict.judge(result: result.rawValue, status: status, body: Array(body.utf8), stalled: stalled)
    }

    func testAnswersAreReachableAndSayWhatTheConnectionLearned() {
        XCTAssertEqual(judge(CURLE_OK, 200), TransferVerdict(outcome: .delivered, answered: true, authenticatedAnswer: true))
        XCTAssertEqual(judge(CURLE_OK, 400, #"{"reason":"BadDeviceToken"}"#),
                       TransferVerdict(outcome: .rejected(.badDeviceToken), answered: true),
                       "a 400 may come before the provider token is checked: the warm-up goes on")
        XCTAssertEqual(judge(CURLE_OK, 410, #"{"reason":"Unregistered"}"#),
                       TransferVerdict(outcome: .rejected(.unregistered), answered: true, authenticatedAnswer: true))
        XCTAssertEqual(judge(CURLE_OK, 503, #"{"reason":"Shutdown"}"#),
                       TransferVerdict(outcome: .rejected(.shutdown), answered: true, authenticatedAnswer: true, connectionLost: true))
        XCTAssertEqual(judge(CURLE_OK, 418).outcome, .rejected(Reason(rawValue: "HTTP418", status: 418, handling: .unknown)),
                       "an answer without an APNs reason is named by its status")
    }

    func testTransportFailuresLoseTheConnectionAndCountTowardFailFast() {
        XCTAssertEqual(judge(CURLE_COULDNT_CONNECT),
                       TransferVerdict(outcome: .failed(.curl(CURLE_COULDNT_CONNECT)), transportFailure: CURLE_COULDNT_CONNECT.rawValue,
                                       connectionLost: true))
        XCTAssertEqual(judge(CURLE_OPERATION_TIMEDOUT), TransferVerdict(outcome: .timedOut), "a push timeout says nothing of the target")
        XCTAssertEqual(judge(CURLE_RECV_ERROR, stalled: true), TransferVerdict(outcome: .failed(StallWatchdog.error), connectionLost: true),
                       "on a connection the watchdog gave up: a stall, not a transport failure of the target")
        XCTAssertEqual(TransportError.curl(CURLE_COULDNT_CONNECT).key, "curl_7_couldnt_connect")
        XCTAssertEqual(TransportError.curl(CURLcode(rawValue: 200)).key, "curl_200_error", "a code past the table is still named")
    }
}
