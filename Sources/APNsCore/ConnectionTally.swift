/// Connection-level events an engine counts, added up over an interval or a run: what the report's timeline
/// shows beside the pushes (connections open, GOAWAYs, reconnects, provider-token signings).
public struct ConnectionTally: Equatable, Sendable {
    /// Connections opened (the first ones and every reconnect).
    public var opened = 0
    /// Connections opened beyond the first ones.
    public var reconnects = 0
    /// Connections lost to a transport error or a `503 Shutdown` answer.
    public var lost = 0
    /// Connections the server ended gracefully (an HTTP/2 GOAWAY, or a close between requests) that libcurl
    /// replaced by itself: seen as a reconnect nothing on our side asked for.
    public var goAways = 0
    /// ES256 provider tokens signed.
    public var tokenSignings = 0

    public init(opened: Int = 0, reconnects: Int = 0, lost: Int = 0, goAways: Int = 0, tokenSignings: Int = 0) {
        self.opened = opened
        self.reconnects = reconnects
        self.lost = lost
        self.goAways = goAways
        self.tokenSignings = tokenSignings
    }

    public static let zero = ConnectionTally()

    /// Connections open after these events, starting from none: opened minus those lost or ended.
    public var open: Int { Swift.max(0, opened - lost - goAways) }

    public static func += (a: inout ConnectionTally, b: ConnectionTally) {
        a.opened += b.opened
        a.reconnects += b.reconnects
        a.lost += b.lost
        a.goAways += b.goAways
        a.tokenSignings += b.tokenSignings
    }

    public static func - (a: ConnectionTally, b: ConnectionTally) -> ConnectionTally {
        ConnectionTally(opened: a.opened - b.opened, reconnects: a.reconnects - b.reconnects, lost: a.lost - b.lost,
                        goAways: a.goAways - b.goAways, tokenSignings: a.tokenSignings - b.tokenSignings)
    }
}
