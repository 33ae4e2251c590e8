import APNsCore
import APNsEngine

/// What `apnsbench --version` prints: apnsbench's own version, then the transport libraries this process
/// loaded (libcurl, nghttp2 and the TLS library libcurl links), read from `curl_version_info`, the same
/// values a run's report records under `environment`.
public enum VersionText {
    /// apnsbench's release (``ApnsbenchVersion``).
    public static let apnsbench = ApnsbenchVersion.text

    /// `apnsbench VERSION` then one `name version` line per library.
    public static var text: String {
        let curl = LibcurlInfo.loaded()
        // libcurl names its TLS library as `OpenSSL/3.0.17`; shown as `OpenSSL 3.0.17`.
        let tls = curl.ssl.replacingOccurrences(of: "/", with: " ")
        return """
            apnsbench \(apnsbench)
            libcurl \(curl.version)\(curl.hasHTTP2 ? "" : " (without HTTP/2)")
            nghttp2 \(curl.nghttp2)
            TLS \(tls)
            """
    }
}
