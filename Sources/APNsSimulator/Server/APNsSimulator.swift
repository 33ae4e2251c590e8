import APNsCore
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL

/// An HTTP/2 server that behaves like APNs: TLS with or without ALPN `h2` (or h2c),
/// SETTINGS as APNs sends them, a stream limit of 1 until the first request with a valid provider token,
/// then 1000, and APNs' validation and reasons; or, in fast mode, a 200 for everything. The same code runs in-process for `apnsbench run` and
/// standalone for `apnsbench simulate`.
public final class APNsSimulator {
    public let configuration: SimulatorConfiguration
    /// The TLS certificates (nil in h2c mode).
    public let certificates: SimulatorCertificates?
    private let group: MultiThreadedEventLoopGroup
    private var channel: Channel?
    private let counters = SimulatorCounterBox()
    /// The connections open now, so a graceful stop can tell each one to go away.
    private let open = OpenConnections()
    /// The broadcast channels (iOS 18+) and their subscribers, for the simulator's life: the replay
    /// subscribes Live Activity tokens here (`subscribe(channelID:tokens:)`) and looks channels up. The
    /// HTTP contract of `/1/apps/<bundle>/channels` and `/4/broadcasts/apps/<bundle>`, served on the
    /// same port as `/3/device`, is in `ChannelRequests.swift`. Unused in fast mode.
    public let channels: ChannelStore
    /// Told every answered push, one log per connection (`simulate --report`); set before ``start()``.
    /// Validating mode only: the fast handler answers without reading requests.
    public var requestObserver: RequestObserver?

    public init(configuration: SimulatorConfiguration, certificates: SimulatorCertificates? = nil) throws {
        var configuration = configuration
        // The clock-step fault counts from now.
        if let step = configuration.faults.clockStep {
            configuration.clock = configuration.clock.steppedForward(by: step.bySeconds, after: step.afterSeconds)
        }
        self.configuration = configuration
        self.channels = ChannelStore(limitPerBundle: configuration.broadcast.channelLimitPerBundle)
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
        let configuration = self.configuration
        let validator = RequestValidator(configuration: configuration)
        let counters = self.counters
        let channels = self.channels
        let open = self.open
        let observer = requestObserver

        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                open.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try Self.configure(channel: channel, configuration: configuration, sslContext: sslContext,
                                       validator: validator, counters: counters, channels: channels, observer: observer)
                }
            }
        let channel = try bootstrap.bind(host: configuration.host, port: configuration.port).wait()
        self.channel = channel
        return channel.localAddress?.port ?? configuration.port
    }

    /// The pipeline of one connection: [TLS] → [SETTINGS rewriter] → HTTP/2 (frames, no per-stream
    /// channels) → the connection handler (validating, or fast).
    static func configure(channel: Channel, configuration: SimulatorConfiguration, sslContext: NIOSSLContext?,
                          validator: RequestValidator, counters: SimulatorCounterBox, channels: ChannelStore,
                          observer: RequestObserver? = nil) throws {
        let id = counters.openConnection()
        let sync = channel.pipeline.syncOperations
        if let sslContext { try sync.addHandler(NIOSSLServerHandler(context: sslContext)) }

        var connection = NIOHTTP2Handler.ConnectionConfiguration()
        // NIO's own limit: the advertised one in fast mode; in validating mode a hard limit, with the
        // advertised one written on the wire by SettingsRewriter and enforced by the handler.
        let nioLimit = configuration.fast ? configuration.maxConcurrentStreams : configuration.effectiveHardLimit
        connection.initialSettings = [
            HTTP2Setting(parameter: .headerTableSize, value: 4096),
            HTTP2Setting(parameter: .maxConcurrentStreams, value: nioLimit),
            HTTP2Setting(parameter: .initialWindowSize, value: 65535),
            HTTP2Setting(parameter: .maxFrameSize, value: 16384),
            HTTP2Setting(parameter: .maxHeaderListSize, value: 8000),
        ]
        // The validator does APNs' checks (a repeated `:path` is DuplicateHeaders, not a stream error);
        // NIO's own header-block checks cost about 6% of a request and are off in both modes.
        connection.headerBlockValidation = .disabled
        // NIO's content-length check (2% of a request, half of it on our own answers, which carry none)
        // is off in both modes: the validating handler checks content-length against the body itself,
        // with the same outcome (RST_STREAM PROTOCOL_ERROR); fast mode checks nothing.
        connection.contentLengthValidation = .disabled
        let stream = NIOHTTP2Handler.StreamConfiguration()
        let delay = configuration.faults.settingsDelayMilliseconds
        if configuration.fast {
            if delay > 0 { try sync.addHandler(SettingsRewriter(holdMilliseconds: delay)) }
            try sync.addHandler(NIOHTTP2Handler(mode: .server, connectionConfiguration: connection, streamConfiguration: stream))
            try sync.addHandler(FastConnectionHandler(counters: counters, connectionID: id))
        } else {
            let rewriter = SettingsRewriter(holdMilliseconds: delay)
            try sync.addHandler(rewriter)
            try sync.addHandler(NIOHTTP2Handler(mode: .server, connectionConfiguration: connection, streamConfiguration: stream))
            try sync.addHandler(APNsConnectionHandler(configuration: configuration, validator: validator, counters: counters,
                                                      rewriter: rewriter, connectionID: id, channels: channels,
                                                      requestLog: observer?.connectionOpened(id: id)))
        }
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

    /// Stops as a server taken down for maintenance does: stops accepting, sends every open connection a
    /// GOAWAY (`Shutdown`: requests already taken are answered, new streams are refused), waits up to
    /// `graceSeconds` for the connections to close after their last answer, then stops.
    public func stopGracefully(graceSeconds: Double) {
        try? channel?.close().wait()
        channel = nil
        open.quiesceAll()
        let deadline = NIODeadline.now() + .milliseconds(Int64(graceSeconds * 1000))
        while open.count > 0, NIODeadline.now() < deadline { usleep(10_000) }
        try? group.syncShutdownGracefully()
    }
}
