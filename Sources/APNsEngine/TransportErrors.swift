import APNsCore
import CCurl
import Foundation

extension TransportError {
    /// The error for a libcurl code: made once per code for the process, so a failing transfer allocates
    /// nothing for its name.
    static func curl(_ code: CURLcode) -> TransportError {
        let raw = Int(code.rawValue)
        return raw < byCode.count ? byCode[raw] : TransportError(code: raw, key: curlKey(code.rawValue))
    }

    private static let byCode: [TransportError] = (0..<128).map { TransportError(code: $0, key: curlKey(UInt32($0))) }

    /// A short stable name for a CURLcode, for report keys: `curl_7_couldnt_connect`.
    static func curlKey(_ code: UInt32) -> String {
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
        return "curl_\(code)_" + (names[code] ?? "error")
    }
}

extension EngineConfiguration {
    /// `cannot reach 127.0.0.1 port 1: Couldn't connect to server (curl error 7, curl_7_couldnt_connect); no request
    /// was answered in 10 s of trying (--fail-fast)`.
    func unreachableMessage(lastError code: UInt32) -> String {
        let url = URLComponents(string: baseURL)
        let host = url?.host ?? baseURL
        let port = url?.port ?? (baseURL.hasPrefix("https://") ? 443 : 80)
        let cause = String(cString: curl_easy_strerror(CURLcode(rawValue: code)))
        let s = failFast.secondsValue
        let seconds = s == s.rounded() ? "\(Int(s))" : "\(s)"
        return "cannot reach \(host) port \(port): \(cause) (curl error \(code), \(TransportError.curlKey(code))); "
            + "no request was answered in \(seconds) s of trying (--fail-fast)"
    }
}
