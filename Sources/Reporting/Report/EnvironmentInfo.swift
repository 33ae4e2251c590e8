import Foundation

/// Where a run ran: the transport's library versions and the machine. `compare` uses it to refuse or
/// warn about comparing runs from different machines.
public struct EnvironmentInfo: Codable, Sendable, Equatable {
    /// libcurl version, e.g. `8.14.1`.
    public var libcurl: String
    /// The TLS library libcurl uses, e.g. `OpenSSL/3.0.17`.
    public var ssl: String
    /// nghttp2 version, e.g. `1.64.0`.
    public var nghttp2: String
    /// Operating system description.
    public var os: String
    /// Logical CPUs available to the process.
    public var cpuCount: Int
    /// The machine's host name.
    public var hostname: String

    public init(libcurl: String, ssl: String, nghttp2: String, os: String, cpuCount: Int, hostname: String) {
        self.libcurl = libcurl
        self.ssl = ssl
        self.nghttp2 = nghttp2
        self.os = os
        self.cpuCount = cpuCount
        self.hostname = hostname
    }

    /// This machine, with the transport versions the caller read from libcurl (Reporting does not link libcurl).
    public static func current(libcurl: String, ssl: String, nghttp2: String) -> EnvironmentInfo {
        let process = ProcessInfo.processInfo
        return EnvironmentInfo(
            libcurl: libcurl,
            ssl: ssl,
            nghttp2: nghttp2,
            os: process.operatingSystemVersionString,
            cpuCount: process.activeProcessorCount,
            hostname: process.hostName
        )
    }
}
