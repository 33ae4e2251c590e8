import APNsCore
import CCurl
import Glibc

/// What libcurl reports done, and the stall watchdog's verdicts: each ended transfer is judged
/// (`TransferVerdict`) and its outcome recorded or held for a resend.
extension CurlEngine {
    /// Reads every transfer libcurl reports done.
    func drainCompletions(sink: OutcomeSink) {
        var remaining: Int32 = 0
        while let msg = curl_multi_info_read(pool.multi, &remaining) {
            guard ccurl_msg_is_done(msg) != 0, let easy = ccurl_msg_easy(msg) else { continue }
            let result = ccurl_msg_result(msg)
            var priv: UnsafeMutableRawPointer? = nil
            _ = ccurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &priv)
            let slot = Unmanaged<TransferSlot>.fromOpaque(priv!).takeUnretainedValue()
            let completed = MonotonicTime.now()
            var connects = 0
            _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
            counters.connectionsOpened += connects
            for _ in 0..<connects { _ = lifecycle.handle(.connectionOpened, now: completed) }
            let stalled = slot.onStalledConnection && result != CURLE_OK
            slot.onStalledConnection = false
            pool.remove(slot, done: true)

            var status = 0
            if result == CURLE_OK { _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status) }
            let verdict = TransferVerdict.judge(result: result.rawValue, status: status, body: slot.response, stalled: stalled)
            if verdict.answered { loop.answer() }
            if let code = verdict.transportFailure { loop.transportFailure(at: completed, code: code) }
            if verdict.authenticatedAnswer { _ = lifecycle.handle(.authenticatedAnswer, now: completed) }
            if verdict.connectionLost { _ = lifecycle.handle(.connectionLost, now: completed) }
            if case .delivered = verdict.outcome {
                ledger.delivered(token: slot.push.deviceToken)
                counters.devicesReached += Int(slot.push.reach)
                // Marked where it was planned; the engine only passes the mark on.
                if slot.push.contractFailure >= 0 { sink.recordWouldNotDecode(slot.push) }
                sink.recordDelivered(slot.push)
                finish(slot, outcome: .delivered, completed: completed, sink: sink)
                continue
            }
            settle(slot, outcome: verdict.outcome, completed: completed, sink: sink)
        }
    }

    /// Carries out the stall watchdog's verdict: each connection it gives up is shut down both ways (not
    /// closed: the descriptor stays libcurl's, so it cannot be reused under libcurl), and every push on it,
    /// young ones too, ends as `stall` when libcurl reports it failed.
    func giveUpStalledConnections(now: UInt64) {
        let sockets = watchdog.scan(pool.slots, now: now)
        guard !sockets.isEmpty else { return }
        for socket in sockets { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
        counters.stalls += sockets.count
        for slot in pool.slots where slot.active && watchdog.isOnGivenUpConnection(slot) { slot.onStalledConnection = true }
    }

}
