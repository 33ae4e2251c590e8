import APNsCore
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL

/// An HTTP/2 server that behaves like APNs (apns-reference.md): TLS with or without ALPN `h2` (or h2c),
/// SETTINGS as APNs sends them, a stream limit of 1 until the first request with a valid provider token,
/// then 1000, and APNs' validation and reasons. The same code runs in-process for `apnsbench run` and
/// standalone for `apnsbench simulate`.
public final class APNsSimulator {
    public let configuration: SimulatorConfiguration
    /// The TLS certificates (nil in h2c mode).
    public let certificates: SimulatorCertificates?
    private let group: MultiThreadedEventLoopGroup
    private var channel: Channel?
    private let counters = SimulatorCounterBox()

    public init(configuration: SimulatorConfiguration, certificates: SimulatorCertificates? = nil) throws {
        self.configuration = configuration
        self.certificates = configuration.h2c ? nil : try (certificates ?? SimulatorCertificates.generate())
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads))
    }

    deinit { try? group.syncShutdownGracefully() }

    /// Binds and starts serving; returns the bound port.
    @discardableResult
    public func start() throws -> Int {
        let sslContext: NIOSSLContext?
        if let certificates {
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificates.serverCertificatePEM.utf8), format: .pem))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(certificates.serverKeyPEM.utf8), format: .pem))
            )
            tls.minimumTLSVersion = .tlsv12
            // Offer h2 by ALPN; a client that sends no ALPN (pushy's default) still gets HTTP/2.
            tls.applicationProtocols = ["h2"]
            sslContext = try NIOSSLContext(configuration: tls)
        } else {
            sslContext = nil
        }
        let validator = RequestValidator(configuration: configuration)
        let counters = self.counters
        let initialLimit = configuration.initialMaxConcurrentStreams
        let raisedLimit = configuration.maxConcurrentStreams

        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let connection = SimulatorConnection(channel: channel, raisedLimit: raisedLimit)
                counters.update { $0.connectionsOpened += 1 }
                channel.closeFuture.whenComplete { _ in counters.update { $0.connectionsClosed += 1 } }
                do {
                    if let sslContext {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
                    }
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
                var connectionConfiguration = NIOHTTP2Handler.ConnectionConfiguration()
                connectionConfiguration.initialSettings = [
                    HTTP2Setting(parameter: .headerTableSize, value: 4096),
                    HTTP2Setting(parameter: .maxConcurrentStreams, value: initialLimit),
                    HTTP2Setting(parameter: .initialWindowSize, value: 65535),
                    HTTP2Setting(parameter: .maxFrameSize, value: 16384),
                    HTTP2Setting(parameter: .maxHeaderListSize, value: 8000),
                ]
                return channel.configureHTTP2Pipeline(
                    mode: .server,
                    connectionConfiguration: connectionConfiguration,
                    streamConfiguration: .init()
                ) { stream in
                    stream.eventLoop.makeCompletedFuture {
                        try stream.pipeline.syncOperations.addHandler(
                            APNsStreamHandler(connection: connection, validator: validator, counters: counters))
                    }
                }.map { _ in }
            }
        let channel = try bootstrap.bind(host: configuration.host, port: configuration.port).wait()
        self.channel = channel
        return channel.localAddress?.port ?? configuration.port
    }

    /// The bound port (0 before `start`).
    public var port: Int { channel?.localAddress?.port ?? 0 }

    /// `https://127.0.0.1:PORT` (or `http://` in h2c mode).
    public var url: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "\(configuration.h2c ? "http" : "https")://\(host):\(port)"
    }

    /// What the simulator has seen so far.
    public var counterSnapshot: SimulatorCounters { counters.snapshot }

    /// Stops accepting and closes the listening socket; open connections end with the event loops.
    public func stop() {
        try? channel?.close().wait()
        channel = nil
        try? group.syncShutdownGracefully()
    }
}
