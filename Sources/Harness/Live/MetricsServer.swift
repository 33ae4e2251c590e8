import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Reporting

/// `--metrics-listen ADDR:PORT`: serves ``LiveMetrics`` as OpenMetrics text at `GET /metrics` (HTTP/1.1,
/// one event-loop thread) for the length of the run. Any other path is 404, any other method 405.
public final class MetricsServer {
    /// Where it listens, with the port it got (`:0` picks a free one).
    public let address: String
    public let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel

    /// `HOST:PORT` (`0.0.0.0:9464`, `127.0.0.1:0`, `[::1]:9464`) as host and port; nil if it is not one.
    public static func parse(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { return nil }
        return (host, port)
    }

    public init(listen: String, metrics: LiveMetrics) throws {
        guard let (host, port) = Self.parse(listen) else {
            throw RunError("--metrics-listen '\(listen)' must be HOST:PORT, like 0.0.0.0:9464 or 127.0.0.1:0")
        }
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    // On the channel's event loop: the handlers are made and added there.
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(MetricsHandler(metrics: metrics))
                    }
                }
                .bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw RunError("--metrics-listen \(listen): cannot listen: \(error)")
        }
        self.port = channel.localAddress?.port ?? port
        address = host.contains(":") ? "[\(host)]:\(self.port)" : "\(host):\(self.port)"
    }

    /// Closes the listener and its connections.
    public func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

private final class MetricsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let metrics: LiveMetrics
    private var head: HTTPRequestHead?

    init(metrics: LiveMetrics) { self.metrics = metrics }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
            let (status, type, body): (HTTPResponseStatus, String, String)
            if head.method != .GET && head.method != .HEAD {
                (status, type, body) = (.methodNotAllowed, "text/plain; charset=utf-8", "GET /metrics\n")
            } else if path == "/metrics" {
                (status, type, body) = (.ok, OpenMetricsText.contentType, metrics.text())
            } else {
                (status, type, body) = (.notFound, "text/plain; charset=utf-8", "apnsbench serves /metrics\n")
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: type)
            headers.add(name: "Content-Length", value: String(body.utf8.count))
            if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
            if head.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
            }
            let keepAlive = head.isKeepAlive
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if !keepAlive { context.close(promise: nil) }
            }
        }
    }
}
