import NIOConcurrencyHelpers

/// What the simulator saw, for the run report (in-process) or the exit summary (standalone).
public struct SimulatorCounters: Sendable, Codable, Equatable {
    public var connectionsOpened = 0
    public var connectionsClosed = 0
    public var requests = 0
    public var accepted = 0
    /// Rejections by reason string.
    public var rejected: [String: Int] = [:]
    /// Provider-token signatures verified (a token seen again on a connection is not verified again).
    public var tokenVerifications = 0
    /// Connections whose stream limit was raised after their first authenticated request.
    public var streamLimitRaises = 0

    public init() {}

    /// Flat `name: count` pairs for reports.
    public var flattened: [String: Int] {
        var out: [String: Int] = [
            "connections_opened": connectionsOpened, "connections_closed": connectionsClosed,
            "requests": requests, "accepted": accepted, "token_verifications": tokenVerifications,
            "stream_limit_raises": streamLimitRaises,
        ]
        for (reason, n) in rejected { out["rejected_\(reason)"] = n }
        return out
    }
}

/// Counters shared by every connection of one simulator, behind a lock.
final class SimulatorCounterBox: Sendable {
    private let box = NIOLockedValueBox(SimulatorCounters())

    func update(_ body: (inout SimulatorCounters) -> Void) { box.withLockedValue(body) }
    var snapshot: SimulatorCounters { box.withLockedValue { $0 } }
}
