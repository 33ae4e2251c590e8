import APNsCore

/// Everything the engine needs to know to send; immutable for a run.
public struct EngineConfiguration: Sendable {
    /// `https://host:port` (or `http://host:port` for h2c prior knowledge), no trailing slash.
    public var baseURL: String
    /// `apns-topic`.
    public var topic: String
    /// `apns-push-type`.
    public var pushType: PushType
    /// `apns-expiration` in epoch seconds; nil sends no header (APNs' normal storage policy).
    public var expiration: Int?
    /// HTTP/2 connections to open at most. Default 1.
    public var connections: Int = 1
    /// Concurrent streams per connection at most (CURLMOPT_MAX_CONCURRENT_STREAMS; libcurl's default is 100).
    public var streamsPerConnection: Int = 100
    /// PEM of the one CA certificate to trust (the simulator's); nil uses the system's trust store.
    public var trustedCertificatePEM: String?
    /// How long a push may take from send to answer before it counts as timed out. Default 30 s.
    public var pushTimeoutMillis: Int = 30_000
    /// How long a connection may take to connect. Default 10 s.
    public var connectTimeoutMillis: Int = 10_000
    /// Stop sending after this many seconds (pushes not yet sent end as `notSent(.runStopped)`); nil = no limit.
    public var durationLimit: Double?
    /// Seconds between calls of the engine's progress hook. Default 2.
    public var progressInterval: Double = 2
    /// `apns-collapse-id` sent with every push (at most 64 bytes); nil sends none.
    public var collapseID: String?
    /// What is resent after which answer, and when.
    public var retry = RetryPolicy()
    /// Warm-up, reconnect backoff and idle PING.
    public var lifecycle = ConnectionLifecycle.Settings()

    public init(baseURL: String, topic: String, pushType: PushType, expiration: Int? = nil,
                connections: Int = 1, streamsPerConnection: Int = 100, trustedCertificatePEM: String? = nil) {
        self.baseURL = baseURL
        self.topic = topic
        self.pushType = pushType
        self.expiration = expiration
        self.connections = connections
        self.streamsPerConnection = streamsPerConnection
        self.trustedCertificatePEM = trustedCertificatePEM
    }

    /// How many pushes may be in flight at once: every stream of every connection.
    public var window: Int { connections * streamsPerConnection }

    public func validate() throws {
        guard baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://") else {
            throw EngineError.badConfiguration("target URL '\(baseURL)' must start with https:// (or http:// for h2c)")
        }
        guard (1...64).contains(connections) else {
            throw EngineError.badConfiguration("--connections \(connections) must be between 1 and 64")
        }
        guard (1...1000).contains(streamsPerConnection) else {
            throw EngineError.badConfiguration("--streams \(streamsPerConnection) must be between 1 and 1000 (APNs allows up to about 1000)")
        }
        guard pushTimeoutMillis > 0 else { throw EngineError.badConfiguration("push timeout must be positive") }
        if let collapseID {
            guard !collapseID.isEmpty, collapseID.utf8.count <= 64, !collapseID.contains(where: { $0.isNewline }) else {
                throw EngineError.badConfiguration("apns-collapse-id '\(collapseID)' must be 1 to 64 bytes on one line (APNs answers BadCollapseId otherwise)")
            }
        }
        try retry.validate()
    }
}

/// What the engine saw of the run, besides per-push outcomes.
public struct EngineStats: Sendable, Codable, Equatable {
    /// New connections libcurl opened (CURLINFO_NUM_CONNECTS summed).
    public var connectionsOpened = 0
    /// Provider tokens signed during the run.
    public var providerTokenSignings = 0
    /// Monotonic nanoseconds of the first send and of the last completion.
    public var firstSendNanos: UInt64 = 0
    public var lastCompletionNanos: UInt64 = 0
    /// Pushes handed to libcurl.
    public var sent = 0
    /// Most pushes in flight at once.
    public var peakInFlight = 0
    /// Resends, by what the previous attempt got (reason or transport error key).
    public var retries: [String: Int] = [:]
    /// Resends in all.
    public var retriesTotal = 0
    /// Pushes held because their device token was answered 429 TooManyRequests.
    public var tokenBackoffs = 0
    /// Device tokens found dead (410) during the run.
    public var deadTokens = 0
    /// Provider tokens signed again after ExpiredProviderToken.
    public var providerTokenRefreshes = 0
    /// Connections libcurl opened after the first ones (after GOAWAY, resets, …).
    public var reconnects = 0
    /// Times sends were held after a connection died young (reconnect backoff).
    public var reconnectHolds = 0
    /// HTTP/2 PINGs asked for on idle connections.
    public var pings = 0

    public init() {}
}
