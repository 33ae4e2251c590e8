import CCurl

/// TLS verification for an easy handle, one rule for every handle the engine opens (pushes, the channel
/// API): peer and host are always verified; with a PEM, exactly that CA is trusted (no system CA file or
/// directory), as for the embedded simulator or `--ca-cert`.
enum CurlTLS {
    static func configure(_ easy: UnsafeMutableRawPointer, trusting pem: String?) throws {
        func check(_ code: CURLcode, _ what: String) throws {
            guard code == CURLE_OK else {
                throw EngineError.curlSetup("curl_easy_setopt(\(what)) failed: \(String(cString: curl_easy_strerror(code)))")
            }
        }
        if let pem {
            var bytes = Array(pem.utf8)
            try check(bytes.withUnsafeMutableBytes { ccurl_easy_setopt_blob(easy, CURLOPT_CAINFO_BLOB, $0.baseAddress, $0.count) }, "CAINFO_BLOB")
            try check(ccurl_easy_setopt_string(easy, CURLOPT_CAPATH, nil), "CAPATH")
        }
        try check(ccurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1), "SSL_VERIFYPEER")
        try check(ccurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2), "SSL_VERIFYHOST")
    }
}
