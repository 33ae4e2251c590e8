/// The engine's shape and connection counters, as reported. Filled by the caller from the engine's
/// configuration and stats (Reporting does not depend on the engine).
public struct EngineSummary: Codable, Sendable, Equatable {
    /// HTTP/2 connections configured.
    public var connections: Int
    /// Concurrent streams per connection configured.
    public var streams: Int
    /// Connections actually opened during the run (reconnects included).
    public var connectionsOpened: Int
    /// Provider tokens (JWTs) signed during the run.
    public var providerTokenSignings: Int
    /// Most pushes in flight at once.
    public var peakInFlight: Int
    /// Resends and connection events; nil in reports written before retries existed.
    public var resilience: Resilience?

    /// What the retry policy and the connection state machine did during the run.
    public struct Resilience: Codable, Sendable, Equatable {
        /// Resends, by what the previous attempt got (a reason, or a transport error key like `curl_56_recv_error`).
        public var retries: [String: Int] = [:]
        /// Resends in all (each push is still counted once, by its final outcome).
        public var retriesTotal = 0
        /// Pushes held because their token was answered 429 TooManyRequests.
        public var tokenBackoffs = 0
        /// Device tokens answered 410 and not pushed again in the run.
        public var deadTokens = 0
        /// Provider tokens signed again after ExpiredProviderToken.
        public var providerTokenRefreshes = 0
        /// Connections opened after the first ones.
        public var reconnects = 0
        /// Times sends were held because a connection died young (reconnect backoff).
        public var reconnectHolds = 0
        /// HTTP/2 PINGs on idle connections.
        public var pings = 0

        public init() {}
    }

    public init(connections: Int, streams: Int, connectionsOpened: Int = 0, providerTokenSignings: Int = 0, peakInFlight: Int = 0) {
        self.connections = connections
        self.streams = streams
        self.connectionsOpened = connectionsOpened
        self.providerTokenSignings = providerTokenSignings
        self.peakInFlight = peakInFlight
    }
}
