import APNsCore
import CCurl

/// One reusable libcurl easy handle with everything a push needs while it is in flight: the body bytes
/// (libcurl does not copy POSTFIELDS, so they live here until the transfer completes), the URL buffer,
/// the response buffer and the header set in use.
final class TransferSlot {
    let easy: UnsafeMutableRawPointer
    /// Filled by the push source; its buffers keep their capacity from push to push.
    var push = OutgoingPush()
    /// Stable storage for the request body while libcurl sends it.
    private var bodyStorage: UnsafeMutableRawPointer
    private var bodyCapacity: Int
    /// `<base>/3/device/` followed by the token and a NUL, rebuilt in place per push.
    private var url: [UInt8]
    private let urlPrefixCount: Int
    /// `<base>/4/broadcasts/apps/<bundle>` and a NUL: every broadcast's URL (the channel is a header).
    private let broadcastURL: [UInt8]
    /// The response body (an APNs error JSON is well under 1 KiB; the rest is dropped).
    var response: [UInt8] = []
    static let responseLimit = 1024
    /// Keeps the header lists this transfer points at alive.
    var headers: HeaderSet?
    /// The lines a push carries itself, linked in front of its kind's list.
    private let perPushLines = PushHeaderLines()
    var intendedNanos: UInt64 = 0
    /// When the current attempt was handed to libcurl.
    var sentNanos: UInt64 = 0
    /// In the multi handle now (added, not yet answered).
    var active = false

    // Retry state: reset when the slot takes a new push from the source.
    /// Order taken from the source (ties in the retry queue go by it).
    var sequence: UInt64 = 0
    /// When a held push is due again (monotonic ns).
    var dueNanos: UInt64 = 0
    /// Attempts sent so far.
    var attempts = 0
    /// When the first attempt was sent (monotonic ns); 0 before.
    var firstSentNanos: UInt64 = 0
    /// Already resent once with a new provider token after ExpiredProviderToken.
    var refreshedToken = false
    /// `iat` of the provider token the last attempt carried.
    var tokenIssuedAt = 0
    /// How the last attempt ended, while the push waits to be resent (reported if the run stops first).
    var lastOutcome: Outcome?
    /// In flight on a connection the stall watchdog gave up: its failure is a `stall`.
    var onStalledConnection = false

    /// Clears the retry state for a new push.
    @inline(__always)
    func resetRetryState(sequence: UInt64) {
        self.sequence = sequence
        attempts = 0
        firstSentNanos = 0
        refreshedToken = false
        lastOutcome = nil
    }

    init(configuration: EngineConfiguration) throws {
        guard let easy = curl_easy_init() else { throw EngineError.curlSetup("curl_easy_init failed") }
        self.easy = easy
        bodyCapacity = 8192
        bodyStorage = UnsafeMutableRawPointer.allocate(byteCount: bodyCapacity, alignment: 16)
        url = Array((configuration.baseURL + "/3/device/").utf8)
        urlPrefixCount = url.count
        url.reserveCapacity(urlPrefixCount + 256)
        broadcastURL = Array((configuration.baseURL + configuration.broadcastPath).utf8) + [0]
        response.reserveCapacity(Self.responseLimit)
        push.body.reserveCapacity(4096)
        try configure(configuration)
    }

    private func configure(_ c: EngineConfiguration) throws {
        func check(_ code: CURLcode, _ what: String) throws {
            guard code == CURLE_OK else {
                throw EngineError.curlSetup("curl_easy_setopt(\(what)) failed: \(String(cString: curl_easy_strerror(code)))")
            }
        }
        let h2 = c.baseURL.hasPrefix("https://") ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
        try check(ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, h2), "HTTP_VERSION")
        // Wait for a connection that can multiplex rather than open a new one per transfer.
        try check(ccurl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1), "PIPEWAIT")
        try check(ccurl_easy_setopt_long(easy, CURLOPT_POST, 1), "POST")
        try check(ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
        try check(ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(c.pushTimeout.millis)), "TIMEOUT_MS")
        try check(ccurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, c.connectTimeoutMillis), "CONNECTTIMEOUT_MS")
        try check(ccurl_easy_setopt_write_callback(easy, transferWriteCallback), "WRITEFUNCTION")
        let me = Unmanaged.passUnretained(self).toOpaque()
        try check(ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me), "WRITEDATA")
        try check(ccurl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, me), "PRIVATE")
        try CurlTLS.configure(easy, trusting: c.trustedCertificatePEM)
    }

    /// Points the easy handle at the current push: URL, body, headers. Called just before it is added
    /// to the multi handle.
    @inline(__always)
    func prepare(headers set: HeaderSet) {
        if push.channel >= 0 {
            broadcastURL.withUnsafeBufferPointer { p in
                _ = p.withMemoryRebound(to: CChar.self) { ccurl_easy_setopt_string(easy, CURLOPT_URL, $0.baseAddress) }
            }
        } else {
            url.removeSubrange(urlPrefixCount...)
            url.append(contentsOf: push.deviceToken.utf8)
            url.append(0)
            url.withUnsafeBufferPointer { p in
                _ = p.withMemoryRebound(to: CChar.self) { ccurl_easy_setopt_string(easy, CURLOPT_URL, $0.baseAddress) }
            }
        }
        let n = push.body.count
        if n > bodyCapacity {
            bodyStorage.deallocate()
            bodyCapacity = max(n, bodyCapacity * 2)
            bodyStorage = UnsafeMutableRawPointer.allocate(byteCount: bodyCapacity, alignment: 16)
        }
        push.body.withUnsafeBytes { src in
            if let base = src.baseAddress { bodyStorage.copyMemory(from: base, byteCount: n) }
        }
        _ = ccurl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(n))
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_POSTFIELDS, bodyStorage)
        headers = set
        var list: UnsafeMutablePointer<curl_slist>?
        if push.channel >= 0 {
            list = set.list(channel: Int(push.channel), priority: push.priority)
        } else {
            list = set.list(kind: push.kind, priority: push.priority)
            let own = set.perPushHeaders(kind: push.kind)
            if !own.isEmpty { list = perPushLines.link(push, own, expirationBase: set.expirationBase, before: list) }
        }
        _ = ccurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list)
        response.removeAll(keepingCapacity: true)
    }

    deinit {
        curl_easy_cleanup(easy)
        bodyStorage.deallocate()
    }
}

/// libcurl's write callback: keeps the first `responseLimit` bytes of the response body.
private let transferWriteCallback: curl_write_callback = { data, size, count, userdata in
    let n = size * count
    guard let data, let userdata else { return n }
    let slot = Unmanaged<TransferSlot>.fromOpaque(userdata).takeUnretainedValue()
    let room = TransferSlot.responseLimit - slot.response.count
    if room > 0 {
        let take = min(room, n)
        data.withMemoryRebound(to: UInt8.self, capacity: take) {
            slot.response.append(contentsOf: UnsafeBufferPointer(start: $0, count: take))
        }
    }
    return n
}
