import Foundation
import Reporting

/// `--metrics-listen ADDR:PORT`: serves ``LiveMetrics`` as OpenMetrics text at `GET /metrics` (HTTP/1.1,
/// one event-loop thread) for the length of the run. Any other path is 404, any other method 405.
public final class MetricsServer {
    private let server: SmallHTTPServer
    /// Where it listens, with the port it got (`:0` picks a free one).
    public var address: String { server.address }
    public var port: Int { server.port }

    /// `HOST:PORT` (`0.0.0.0:9464`, `127.0.0.1:0`, `[::1]:9464`) as host and port; nil if it is not one.
    public static func parse(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { return nil }
        return (host, port)
    }

    public init(listen: String, metrics: LiveMetrics) throws {
        server = try SmallHTTPServer(listen: listen, flag: "--metrics-listen", example: "0.0.0.0:9464 or 127.0.0.1:0") { method, path in
            if method != .GET && method != .HEAD { return .init(status: .methodNotAllowed, body: "GET /metrics\n") }
            if path == "/metrics" { return .init(status: .ok, contentType: OpenMetricsText.contentType, body: metrics.text()) }
            return .init(status: .notFound, body: "apnsbench serves /metrics\n")
        }
    }

    /// Closes the listener and its connections.
    public func stop() { server.stop() }
}
