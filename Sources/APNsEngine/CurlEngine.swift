import APNsCore
import CCurl
import Foundation

/// The hot path: one libcurl multi handle driving HTTP/2 multiplexed POSTs over at most
/// `connections` connections with at most `streamsPerConnection` streams each.
///
/// The loop pulls pushes from a `PushSource` into reusable `TransferSlot`s while there is room in the
/// window (connections × streams) and the next push is due, lets libcurl work, and reports each
/// completed push to an `OutcomeSink` exactly once. Everything per push is prepared ahead: header lists
/// (one per priority, rebuilt only when the provider token is re-signed), easy handles, body and
/// response buffers. Not thread-safe: `run` owns the multi handle on the calling thread
/// (`runOnOwnThread` starts one).
public final class CurlEngine {
    public let configuration: EngineConfiguration
    private let tokens: ProviderTokenCache
    private let multi: UnsafeMutableRawPointer
    private var headerSet: HeaderSet
    private var slots: [TransferSlot] = []
    private var free: [TransferSlot] = []
    private var inFlight = 0
    private var stats = EngineStats()
    private var transportErrors: [Int: TransportError] = [:]
    private var completedCount = 0

    /// Called on the engine's thread about every `progressInterval` seconds of a run, with the stats so
    /// far, the pushes completed and the pushes in flight. Keep it short: the hot loop waits for it.
    public var onProgress: ((EngineStats, _ completed: Int, _ inFlight: Int) -> Void)?

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    public init(configuration: EngineConfiguration, tokens: ProviderTokenCache) throws {
        try LibcurlInfo.loaded().requireUsable()
        try configuration.validate()
        _ = Self.globalInit
        self.configuration = configuration
        self.tokens = tokens
        guard let multi = curl_multi_init() else { throw EngineError.curlSetup("curl_multi_init failed") }
        self.multi = multi
        let signingsBefore = tokens.signings
        headerSet = try HeaderSet(configuration: configuration, bearer: tokens.bearer())
        stats.providerTokenSignings += tokens.signings - signingsBefore
        func check(_ code: CURLMcode, _ what: String) throws {
            guard code == CURLM_OK else { throw EngineError.curlSetup("curl_multi_setopt(\(what)) failed: \(String(cString: curl_multi_strerror(code)))") }
        }
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX)), "PIPELINING")
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.connections), "MAX_HOST_CONNECTIONS")
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.connections), "MAX_TOTAL_CONNECTIONS")
        // libcurl's default is 100 streams per connection whatever the server allows.
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, configuration.streamsPerConnection), "MAX_CONCURRENT_STREAMS")
    }

    deinit {
        for slot in slots { curl_multi_remove_handle(multi, slot.easy) }
        slots.removeAll()
        free.removeAll()
        curl_multi_cleanup(multi)
    }

    /// Runs `run(source:sink:)` on a new thread and waits for it: the multi handle gets a thread of its
    /// own, apart from the simulator's event loops and the caller.
    public func runOnOwnThread(source: PushSource, sink: OutcomeSink) throws -> EngineStats {
        var result: Result<EngineStats, Error> = .failure(EngineError.curlSetup("engine thread did not run"))
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            result = Result { try self.run(source: source, sink: sink) }
            done.signal()
        }
        thread.name = "apnsbench-engine"
        thread.stackSize = 4 << 20
        thread.start()
        done.wait()
        return try result.get()
    }

    /// Sends every push the source gives and returns when all have ended (or the duration limit was reached
    /// and what was in flight has ended).
    public func run(source: PushSource, sink: OutcomeSink) throws -> EngineStats {
        let window = configuration.window
        let started = MonotonicTime.now()
        let stopAt: UInt64? = configuration.durationLimit.map { started + UInt64($0 * 1e9) }
        var staged: TransferSlot? = nil
        var exhausted = false
        var stoppedEarly = false
        var running: Int32 = 0
        let progressEvery = UInt64(max(0.1, configuration.progressInterval) * 1e9)
        var nextProgress = started + progressEvery

        while true {
            let now = MonotonicTime.now()
            if tokens.needsRefresh { try refreshHeaders() }
            if now >= nextProgress, let onProgress {
                onProgress(stats, completedCount, inFlight)
                nextProgress = now + progressEvery
            }

            // Stop feeding once the duration is over; what was staged is recorded as not sent.
            if let stopAt, now >= stopAt, !exhausted {
                exhausted = true
                stoppedEarly = true
                if let s = staged {
                    sink.record(.notSent(.runStopped), priority: s.push.priority, intended: s.push.intendedNanos, sent: 0, completed: 0)
                    free.append(s)
                    staged = nil
                }
            }

            // Fill the window with pushes that are due.
            while inFlight < window {
                let slot: TransferSlot
                if let s = staged {
                    guard s.push.intendedNanos <= now else { break }
                    slot = s
                    staged = nil
                } else {
                    guard !exhausted else { break }
                    slot = try takeSlot()
                    guard source.next(into: &slot.push) else {
                        exhausted = true
                        free.append(slot)
                        break
                    }
                    if slot.push.intendedNanos > now {
                        staged = slot
                        break
                    }
                }
                start(slot, now: now)
            }

            let mc = curl_multi_perform(multi, &running)
            guard mc == CURLM_OK else { throw EngineError.curlSetup("curl_multi_perform failed: \(String(cString: curl_multi_strerror(mc)))") }
            drainCompletions(sink: sink)

            if exhausted && staged == nil && inFlight == 0 { break }

            var timeoutMillis: Int32 = 100
            if let s = staged, inFlight < window {
                let wait = s.push.intendedNanos > now ? (s.push.intendedNanos - now) / 1_000_000 : 0
                timeoutMillis = Int32(min(UInt64(timeoutMillis), wait))
            }
            if timeoutMillis > 0 || inFlight > 0 {
                _ = curl_multi_poll(multi, nil, 0, timeoutMillis, nil)
            }
        }
        if stoppedEarly { source.abandon() }
        stats.firstSendNanos = stats.firstSendNanos == 0 ? started : stats.firstSendNanos
        return stats
    }

    private func takeSlot() throws -> TransferSlot {
        if let s = free.popLast() { return s }
        let s = try TransferSlot(configuration: configuration)
        slots.append(s)
        return s
    }

    private func refreshHeaders() throws {
        let before = tokens.signings
        let bearer = tokens.bearer()
        stats.providerTokenSignings += tokens.signings - before
        headerSet = try HeaderSet(configuration: configuration, bearer: bearer)
    }

    @inline(__always)
    private func start(_ slot: TransferSlot, now: UInt64) {
        slot.prepare(headers: headerSet)
        slot.sentNanos = now
        slot.intendedNanos = slot.push.intendedNanos == 0 ? now : slot.push.intendedNanos
        if stats.firstSendNanos == 0 { stats.firstSendNanos = now }
        curl_multi_add_handle(multi, slot.easy)
        inFlight += 1
        stats.sent += 1
        if inFlight > stats.peakInFlight { stats.peakInFlight = inFlight }
    }

    private func drainCompletions(sink: OutcomeSink) {
        var remaining: Int32 = 0
        while let msg = curl_multi_info_read(multi, &remaining) {
            guard ccurl_msg_is_done(msg) != 0, let easy = ccurl_msg_easy(msg) else { continue }
            let result = ccurl_msg_result(msg)
            var priv: UnsafeMutableRawPointer? = nil
            _ = ccurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &priv)
            let slot = Unmanaged<TransferSlot>.fromOpaque(priv!).takeUnretainedValue()
            let completed = MonotonicTime.now()
            var connects = 0
            _ = ccurl_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
            stats.connectionsOpened += connects
            curl_multi_remove_handle(multi, easy)
            inFlight -= 1
            completedCount += 1
            stats.lastCompletionNanos = completed

            let outcome: Outcome
            if result == CURLE_OK {
                var status = 0
                _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                if status == 200 {
                    outcome = .delivered
                } else {
                    outcome = .rejected(Reason.parse(body: slot.response) ?? Reason(rawValue: "HTTP\(status)", status: status, handling: .unknown))
                }
            } else if result == CURLE_OPERATION_TIMEDOUT {
                outcome = .timedOut
            } else {
                outcome = .failed(transportError(result))
            }
            sink.record(outcome, priority: slot.push.priority, intended: slot.intendedNanos, sent: slot.sentNanos, completed: completed)
            free.append(slot)
        }
    }

    private func transportError(_ code: CURLcode) -> TransportError {
        let key = Int(code.rawValue)
        if let e = transportErrors[key] { return e }
        let e = TransportError(code: key, key: Self.transportKey(code))
        transportErrors[key] = e
        return e
    }

    /// A short stable name for a CURLcode, for report keys.
    static func transportKey(_ code: CURLcode) -> String {
        let names: [UInt32: String] = [
            CURLE_COULDNT_RESOLVE_HOST.rawValue: "couldnt_resolve_host",
            CURLE_COULDNT_CONNECT.rawValue: "couldnt_connect",
            CURLE_HTTP2.rawValue: "http2",
            CURLE_SSL_CONNECT_ERROR.rawValue: "ssl_connect_error",
            CURLE_GOT_NOTHING.rawValue: "got_nothing",
            CURLE_SEND_ERROR.rawValue: "send_error",
            CURLE_RECV_ERROR.rawValue: "recv_error",
            CURLE_PEER_FAILED_VERIFICATION.rawValue: "peer_failed_verification",
            CURLE_HTTP2_STREAM.rawValue: "http2_stream",
        ]
        return "curl_\(code.rawValue)_" + (names[code.rawValue] ?? "error")
    }
}
