import APNsCore
import CCurl

/// What an ended transfer means, from what libcurl and APNs said: its outcome, and what it tells the run
/// loop (the target answered, or failed in transport) and the connection lifecycle. A pure decision; the
/// engine carries it out.
struct TransferVerdict: Equatable {
    var outcome: Outcome
    /// The target answered (any HTTP status): it is reachable.
    var answered = false
    /// A transport failure's libcurl code, for the fail-fast window.
    var transportFailure: UInt32?
    /// The answer came from past the provider-token check: the connection's warm-up may end.
    var authenticatedAnswer = false
    /// The connection is gone (a GOAWAY Shutdown, a stall, a transport failure).
    var connectionLost = false

    /// - Parameters:
    ///   - result: libcurl's code for the transfer.
    ///   - status: the HTTP status (read only when `result` is CURLE_OK).
    ///   - body: the response body's first bytes (an APNs error's JSON).
    ///   - stalled: the transfer was on a connection the stall watchdog gave up.
    static func judge(result: UInt32, status: Int, body: [UInt8], stalled: Bool) -> TransferVerdict {
        if result == CURLE_OK.rawValue {
            if status == 200 { return TransferVerdict(outcome: .delivered, answered: true, authenticatedAnswer: true) }
            let reason = Reason.parse(body: body) ?? Reason(rawValue: "HTTP\(status)", status: status, handling: .unknown)
            return TransferVerdict(outcome: .rejected(reason), answered: true,
                                   authenticatedAnswer: status == 410 || status == 413 || status >= 500 || reason == .tooManyRequests,
                                   connectionLost: reason == .shutdown)
        }
        if stalled {
            // Retried by the policy like any transport failure: the answer never came.
            return TransferVerdict(outcome: .failed(StallWatchdog.error), connectionLost: true)
        }
        if result == CURLE_OPERATION_TIMEDOUT.rawValue { return TransferVerdict(outcome: .timedOut) }
        return TransferVerdict(outcome: .failed(.curl(CURLcode(rawValue: result))), transportFailure: result, connectionLost: true)
    }
}
