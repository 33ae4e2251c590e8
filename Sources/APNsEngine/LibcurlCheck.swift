import CCurl

/// The loaded libcurl, read from `curl_version_info` at start.
public struct LibcurlInfo: Sendable, Codable, Equatable {
    public let version: String
    public let versionNumber: UInt32
    public let hasHTTP2: Bool
    public let ssl: String
    public let nghttp2: String

    /// Reads the libcurl this process loaded.
    public static func loaded() -> LibcurlInfo {
        let info = ccurl_version_info()!.pointee
        return LibcurlInfo(
            version: info.version.map { String(cString: $0) } ?? "unknown",
            versionNumber: info.version_num,
            hasHTTP2: ccurl_has_http2(ccurl_version_info()) != 0,
            ssl: info.ssl_version.map { String(cString: $0) } ?? "none",
            nghttp2: info.nghttp2_version.map { String(cString: $0) } ?? "none"
        )
    }

    /// libcurl 8.0.0: below it, h2c connection reuse fails (curl #10634) and every 200 is followed by a
    /// RST_STREAM, which servers with rapid-reset protection answer with GOAWAY.
    public static let minimumVersionNumber: UInt32 = 0x08_00_00

    /// Throws a message naming the found version and the fix if this libcurl cannot run the engine.
    public func requireUsable() throws {
        if versionNumber < Self.minimumVersionNumber {
            throw EngineError.unusableLibcurl(
                "libcurl \(version) is too old: apnsbench needs libcurl >= 8.0 (7.x resets every HTTP/2 stream after a 200, "
                    + "so APNs-like servers answer GOAWAY, and cannot reuse h2c connections). "
                    + "On Debian 12 install libcurl4-openssl-dev from bookworm-backports (8.14.1): scripts/install-deps.sh does it.")
        }
        if !hasHTTP2 {
            throw EngineError.unusableLibcurl(
                "libcurl \(version) was built without HTTP/2 (nghttp2); APNs speaks only HTTP/2. Install a libcurl with HTTP/2, e.g. "
                    + "Debian's libcurl4-openssl-dev.")
        }
    }
}

public enum EngineError: Error, CustomStringConvertible {
    case unusableLibcurl(String)
    case curlSetup(String)
    case badConfiguration(String)

    public var description: String {
        switch self {
        case let .unusableLibcurl(s), let .curlSetup(s), let .badConfiguration(s): return s
        }
    }
}
