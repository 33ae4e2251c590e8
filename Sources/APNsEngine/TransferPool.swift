import APNsCore
import CCurl

/// The engine's libcurl multi handle and every transfer slot by where it is: free, staged (taken from the
/// source, due later), waiting to be resent (the retry queue) or in flight (added to the multi handle).
/// Also the keeper, an easy handle that never transfers, for PINGs to idle connections. Slots are made on
/// first need and reused for the engine's life.
final class TransferPool {
    let multi: UnsafeMutableRawPointer
    private let configuration: EngineConfiguration
    /// Every slot made, in order.
    private(set) var slots: [TransferSlot] = []
    private var free: [TransferSlot] = []
    /// A push taken from the source that is due later.
    var staged: TransferSlot?
    /// Pushes waiting to be resent.
    var retryQueue = RetryQueue()
    /// Slots in the multi handle now.
    private(set) var inFlight = 0
    /// Transfers libcurl has reported done.
    private(set) var completed = 0
    /// Order taken from the source (ties in the retry queue go by it).
    private var sequence: UInt64 = 0
    /// Joins the multi for a moment so that `curl_easy_upkeep` reaches the multi's connection pool and PINGs
    /// idle connections. (A CURLSH connection share would make upkeep simpler, but libcurl then ignores the
    /// multi's connection limits: measured, 3 connections opened with MAX_HOST_CONNECTIONS 1.)
    private let keeper: UnsafeMutableRawPointer

    init(configuration: EngineConfiguration) throws {
        guard let multi = curl_multi_init() else { throw EngineError.curlSetup("curl_multi_init failed") }
        self.multi = multi
        self.configuration = configuration
        guard let keeper = curl_easy_init() else {
            curl_multi_cleanup(multi)
            throw EngineError.curlSetup("curl_easy_init failed")
        }
        // Upkeep whenever asked: the lifecycle decides when a connection has been idle long enough.
        _ = ccurl_easy_setopt_long(keeper, CURLOPT_UPKEEP_INTERVAL_MS, 1)
        _ = ccurl_easy_setopt_string(keeper, CURLOPT_URL, configuration.baseURL + "/")
        self.keeper = keeper
        do { try Self.limit(multi, configuration) } catch {
            cleanup()
            throw error
        }
    }

    /// Multiplexing, at most `connections` connections and `streamsPerConnection` streams on each.
    private static func limit(_ multi: UnsafeMutableRawPointer, _ c: EngineConfiguration) throws {
        func check(_ code: CURLMcode, _ what: String) throws {
            guard code == CURLM_OK else { throw EngineError.curlSetup("curl_multi_setopt(\(what)) failed: \(String(cString: curl_multi_strerror(code)))") }
        }
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX)), "PIPELINING")
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, c.connections), "MAX_HOST_CONNECTIONS")
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, c.connections), "MAX_TOTAL_CONNECTIONS")
        // libcurl's default is 100 streams per connection whatever the server allows.
        try check(ccurl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, c.streamsPerConnection), "MAX_CONCURRENT_STREAMS")
    }

    /// A free slot, or a new one.
    func take() throws -> TransferSlot {
        if let s = free.popLast() { return s }
        let s = try TransferSlot(configuration: configuration)
        slots.append(s)
        return s
    }

    /// The slot's push has ended: the slot is free again.
    @inline(__always)
    func release(_ slot: TransferSlot) { free.append(slot) }

    /// The next place in the source's order.
    @inline(__always)
    func nextSequence() -> UInt64 {
        sequence &+= 1
        return sequence
    }

    /// Hands the prepared slot to libcurl.
    @inline(__always)
    func add(_ slot: TransferSlot) {
        curl_multi_add_handle(multi, slot.easy)
        slot.active = true
        inFlight += 1
    }

    /// Takes the slot out of libcurl: `done` when libcurl reported it done, false when it is given up.
    @inline(__always)
    func remove(_ slot: TransferSlot, done: Bool) {
        curl_multi_remove_handle(multi, slot.easy)
        slot.active = false
        inFlight -= 1
        if done { completed += 1 }
    }

    /// Asks libcurl to PING the idle connections: the keeper joins the multi just long enough for
    /// `curl_easy_upkeep` to walk its connection pool, and leaves before any transfer starts.
    func ping() {
        guard curl_multi_add_handle(multi, keeper) == CURLM_OK else { return }
        _ = curl_easy_upkeep(keeper)
        curl_multi_remove_handle(multi, keeper)
    }

    /// Takes every slot out of the multi handle; `cleanup()` then frees the handles.
    func removeAll() {
        for slot in slots { curl_multi_remove_handle(multi, slot.easy) }
        slots.removeAll()
        free.removeAll()
        staged = nil
    }

    func cleanup() {
        curl_multi_cleanup(multi)
        curl_easy_cleanup(keeper)
    }
}
