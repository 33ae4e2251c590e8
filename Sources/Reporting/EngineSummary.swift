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

    public init(connections: Int, streams: Int, connectionsOpened: Int = 0, providerTokenSignings: Int = 0, peakInFlight: Int = 0) {
        self.connections = connections
        self.streams = streams
        self.connectionsOpened = connectionsOpened
        self.providerTokenSignings = providerTokenSignings
        self.peakInFlight = peakInFlight
    }
}
