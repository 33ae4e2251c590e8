import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `simulate --control-listen ADDR:PORT`: `POST /stop` (HTTP/1.1) asks a standalone simulator to stop as
/// SIGTERM would, for a CI job that cannot signal the process (a service container, another step). The
/// answer is 202 at once; the report is written after the simulator's graceful stop. Any other path is
/// 404, any other method 405.
public final class StopEndpoint {
    public let address: String
    public let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel
    private let requested = StopFlag()

    public init(listen: String) throws {
        guard let (host, port) = MetricsServer.parse(listen) else {
            throw RunError("--control-listen '\(listen)' must be HOST:PORT, like 127.0.0.1:0")
        }
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let flag = requested
        do {
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(StopHandler { flag.set() })
                    }
                }
                .bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw RunError("--control-listen \(listen): cannot listen: \(error)")
        }
        self.port = channel.localAddress?.port ?? port
        address = host.contains(":") ? "[\(host)]:\(self.port)" : "\(host):\(self.port)"
    }

    /// Whether `POST /stop` has come.
    public var stopRequested: Bool { requested.isSet }

    public func close() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

private final class StopHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private let stop: () -> Void
    private var head: HTTPRequestHead?

    init(_ stop: @escaping () -> Void) { self.stop = stop }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
            let (status, body): (HTTPResponseStatus, String)
            if path != "/stop" {
                (status, body) = (.notFound, "apnsbench simulate serves POST /stop\n")
            } else if head.method != .POST {
                (status, body) = (.methodNotAllowed, "POST /stop\n")
            } else {
                stop()
                (status, body) = (.accepted, "stopping: the report is written once the simulator has stopped\n")
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            headers.add(name: "Content-Length", value: String(body.utf8.count))
            headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
