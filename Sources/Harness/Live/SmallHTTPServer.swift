import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A one-thread HTTP/1.1 server that answers each request with one short text, as `answer` decides from its
/// method and path (the query left off): the live metrics endpoint (`--metrics-listen`) and the standalone
/// simulator's stop endpoint (`--control-listen`).
final class SmallHTTPServer {
    /// One response: its status, content type and body.
    struct Answer {
        var status: HTTPResponseStatus
        var contentType = "text/plain; charset=utf-8"
        var body: String
    }

    /// Where it listens, with the port it got (`:0` picks a free one).
    let address: String
    let port: Int
    private let group: MultiThreadedEventLoopGroup
    private let channel: Channel

    /// - Parameters:
    ///   - listen: `HOST:PORT` (``MetricsServer/parse(_:)``); `flag` names it in errors, `example` shows one.
    ///   - closesAfterAnswer: close every connection after its answer (otherwise as the request's keep-alive says).
    ///   - answer: called on the server's event loop for each complete request.
    init(listen: String, flag: String, example: String, closesAfterAnswer: Bool = false,
         answer: @escaping @Sendable (HTTPMethod, String) -> Answer) throws {
        guard let (host, port) = MetricsServer.parse(listen) else {
            throw RunError("\(flag) '\(listen)' must be HOST:PORT, like \(example)")
        }
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    // On the channel's event loop: the handlers are made and added there.
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                        try channel.pipeline.syncOperations.addHandler(AnswerHandler(closesAfterAnswer: closesAfterAnswer, answer: answer))
                    }
                }
                .bind(host: host, port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw RunError("\(flag) \(listen): cannot listen: \(error)")
        }
        self.port = channel.localAddress?.port ?? port
        address = host.contains(":") ? "[\(host)]:\(self.port)" : "\(host):\(self.port)"
    }

    /// Closes the listener and its connections.
    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

private final class AnswerHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let closesAfterAnswer: Bool
    private let answer: (HTTPMethod, String) -> SmallHTTPServer.Answer
    private var head: HTTPRequestHead?

    init(closesAfterAnswer: Bool, answer: @escaping (HTTPMethod, String) -> SmallHTTPServer.Answer) {
        self.closesAfterAnswer = closesAfterAnswer
        self.answer = answer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break
        case .end:
            guard let head else { return }
            self.head = nil
            let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
            let a = answer(head.method, path)
            let keepAlive = head.isKeepAlive && !closesAfterAnswer
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: a.contentType)
            headers.add(name: "Content-Length", value: String(a.body.utf8.count))
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: a.status, headers: headers))), promise: nil)
            if head.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: a.body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                if !keepAlive { context.close(promise: nil) }
            }
        }
    }
}
