import APNsCore
import CCurl
import Foundation

/// The broadcast channel-management API (`/1/apps/<bundle>/channels`, iOS 18+), one blocking request at a
/// time over one reused HTTP/2 connection: what a broadcast run does before it sends (create one channel
/// per store) and after (delete them). Apple serves it on its own hosts (`api-manage-broadcast[.sandbox]
/// .push.apple.com`, ports 2196 and 2195); the simulator on its one port.
///
/// Every call is counted (``calls``, by operation and answer), so the report can say what the channels cost.
public final class ChannelClient {
    /// What the channel API answered.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        /// `apns-channel-id` of the answer (create).
        public var channelID: String?
        /// The `reason` of an error answer, when there is one.
        public var reason: String?
        public var body: String
    }

    /// `https://host:port` of the channel API.
    public let baseURL: String
    public let bundleID: String
    /// Calls by `operation answer`, e.g. `create 201`, `delete 204`, `create TooManyChannels`.
    public private(set) var calls: [String: Int] = [:]
    private let easy: UnsafeMutableRawPointer
    private let bearer: () throws -> String
    private let response = ResponseBuffer()

    public init(baseURL: String, bundleID: String, trustedCertificatePEM: String?, bearer: @escaping () throws -> String) throws {
        guard let easy = curl_easy_init() else { throw EngineError.curlSetup("curl_easy_init failed") }
        self.easy = easy
        self.baseURL = baseURL
        self.bundleID = bundleID
        self.bearer = bearer
        let h2 = baseURL.hasPrefix("https://") ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE
        _ = ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, h2)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, 30_000)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, 10_000)
        _ = ccurl_easy_setopt_write_callback(easy, channelWriteCallback)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(response).toOpaque())
        // Every property is set: a throw here runs deinit, which cleans the handle up.
        try CurlTLS.configure(easy, trusting: trustedCertificatePEM)
    }

    deinit { curl_easy_cleanup(easy) }

    /// `POST /1/apps/<bundle>/channels`: 201 and the new channel's id, or the refusal.
    public func create(storagePolicy: Int) throws -> Answer {
        let body = #"{"message-storage-policy": \#(storagePolicy), "push-type": "LiveActivity"}"#
        return try request("create", method: "POST", path: "/1/apps/\(bundleID)/channels", channelID: nil, body: body)
    }

    /// `DELETE /1/apps/<bundle>/channels` with `apns-channel-id`: 204, or the refusal.
    public func delete(_ channelID: String) throws -> Answer {
        try request("delete", method: "DELETE", path: "/1/apps/\(bundleID)/channels", channelID: channelID, body: nil)
    }

    /// `GET /1/apps/<bundle>/channels` with `apns-channel-id`: 200 and the channel's settings.
    public func read(_ channelID: String) throws -> Answer {
        try request("read", method: "GET", path: "/1/apps/\(bundleID)/channels", channelID: channelID, body: nil)
    }

    /// `GET /1/apps/<bundle>/all-channels`: 200 and the app's channels.
    public func list() throws -> Answer {
        try request("list", method: "GET", path: "/1/apps/\(bundleID)/all-channels", channelID: nil, body: nil)
    }

    /// Calls made in all.
    public var callCount: Int { calls.values.reduce(0, +) }

    private func request(_ operation: String, method: String, path: String, channelID: String?, body: String?) throws -> Answer {
        response.bytes.removeAll(keepingCapacity: true)
        var lines = ["authorization: \(try bearer())", "Accept:", "Expect:", "apns-request-id: \(UUID().uuidString.lowercased())"]
        if let channelID { lines.append("apns-channel-id: \(channelID)") }
        if body != nil { lines.append("content-type: application/json") }
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for line in lines { list = curl_slist_append(list, line) }
        defer { curl_slist_free_all(list) }
        _ = ccurl_easy_setopt_string(easy, CURLOPT_URL, baseURL + path)
        _ = ccurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list)
        var payload = Array((body ?? "").utf8)
        if method == "POST" {
            _ = ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, nil)
            _ = ccurl_easy_setopt_long(easy, CURLOPT_POST, 1)
            _ = ccurl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(payload.count))
            _ = ccurl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, &payload)
        } else {
            _ = ccurl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1)
            _ = ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method == "GET" ? nil : method)
        }
        let code = curl_easy_perform(easy)
        guard code == CURLE_OK else {
            calls["\(operation) failed", default: 0] += 1
            throw EngineError.curlSetup("channel API \(method) \(baseURL)\(path): \(String(cString: curl_easy_strerror(code)))")
        }
        var status = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        let text = String(decoding: response.bytes, as: UTF8.self)
        var answer = Answer(status: status, channelID: header("apns-channel-id"), reason: nil, body: text)
        if status >= 300 { answer.reason = Reason.parse(body: response.bytes)?.rawValue ?? "HTTP\(status)" }
        calls["\(operation) \(answer.reason ?? String(status))", default: 0] += 1
        return answer
    }

    private func header(_ name: String) -> String? {
        var out: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(easy, name, 0, UInt32(CURLH_HEADER), -1, &out) == CURLHE_OK, let h = out, let value = h.pointee.value else { return nil }
        return String(cString: value)
    }
}

private final class ResponseBuffer {
    var bytes: [UInt8] = []
}

private let channelWriteCallback: curl_write_callback = { data, size, count, userdata in
    let n = size * count
    guard let data, let userdata else { return n }
    let buffer = Unmanaged<ResponseBuffer>.fromOpaque(userdata).takeUnretainedValue()
    if buffer.bytes.count < 64 * 1024 {
        data.withMemoryRebound(to: UInt8.self, capacity: n) { buffer.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
    }
    return n
}
