import NIOConcurrencyHelpers

/// What one connection saw, for the per-connection part of the counters.
public struct ConnectionCounters: Sendable, Codable, Equatable {
    /// Accept order, from 1.
    public var id: Int
    public var requests = 0
    public var accepted = 0
    /// Rejections by reason string.
    public var rejected: [String: Int] = [:]
    /// RST_STREAM frames the client sent.
    public var resetsReceived = 0
    /// Streams refused with RST_STREAM REFUSED_STREAM for exceeding the advertised limit.
    public var streamsRefused = 0
    /// Why the simulator ended it, if it did: a GOAWAY reason (`Shutdown`, `IdleTimeout`) or `reset`.
    public var endedBy: String?
    public var open = true

    public init(id: Int) { self.id = id }
}

/// What the simulator saw, for the run report (in-process) or the exit summary (standalone).
public struct SimulatorCounters: Sendable, Codable, Equatable {
    public var connectionsOpened = 0
    public var connectionsClosed = 0
    public var requests = 0
    public var accepted = 0
    /// Rejections by reason string (injected 500/503 included).
    public var rejected: [String: Int] = [:]
    /// Provider-token signatures verified (a token seen again on a connection is not verified again).
    public var tokenVerifications = 0
    /// Connections whose stream limit was raised after their first authenticated request.
    public var streamLimitRaises = 0
    /// Times a connection's stream limit was dropped to 1 after a rejection (`dropStreamLimitAfterRejection`).
    public var streamLimitDrops = 0
    /// RST_STREAM frames received from clients.
    public var resetsReceived = 0
    /// Streams refused with RST_STREAM REFUSED_STREAM (beyond the advertised limit).
    public var streamsRefused = 0
    /// GOAWAY frames the simulator sent, by reason (`Shutdown`, `IdleTimeout`; `ENHANCE_YOUR_CALM` etc.
    /// for the HTTP/2 layer's own, e.g. rapid-reset protection).
    public var goAwaysSent: [String: Int] = [:]
    /// Connections reset abruptly by fault injection.
    public var connectionsReset = 0
    /// Connections the stall fault silenced (they read and answer nothing until the client closes them).
    public var connectionsStalled = 0
    /// HTTP/2 PINGs received (clients' keepalive), validating mode.
    public var pingsReceived = 0
    /// Liveactivity priority-10 pushes past their token's hourly budget: "would be throttled on device"
    /// (APNs answered 200).
    public var liveActivityBudgetOverruns = 0
    /// Liveactivity pushes accepted without a required key (when configured to count, not reject).
    public var liveActivityMalformed = 0
    /// The capacity model's queue: how long the requests waited for their connection's server, in total, µs.
    /// It grows only when requests come faster than the model serves them, whatever the host's CPU.
    public var capacityWaitMicros = 0
    /// Per connection, in accept order (the last 10,000).
    public var connections: [ConnectionCounters] = []

    // Broadcast channels (iOS 18+): not part of `requests`, `accepted` and `rejected`, which count
    // `/3/device` pushes only, so that those keep matching a client's push counts.

    /// Broadcasts accepted (`POST /4/broadcasts/apps/<bundle>` answered 200).
    public var broadcasts = 0
    /// Deliveries of the accepted broadcasts: each reached every subscriber its channel had then, once.
    public var broadcastDeliveries = 0
    /// Broadcasts rejected, by reason string (injected 500/503 included).
    public var broadcastsRejected: [String: Int] = [:]
    /// Channels created (201) and deleted (204).
    public var channelsCreated = 0
    public var channelsDeleted = 0
    /// Channel-management requests (`/1/...`) by answer: `created`, `read`, `deleted`, `listed`, or the
    /// reason string of a rejection.
    public var channelRequests: [String: Int] = [:]

    public init() {}

    /// The flattened key of ``capacityWaitMicros``, in ms (absent when no request waited).
    public static let capacityWaitKey = "capacity_wait_ms"

    /// Whether any broadcast-API request was seen (the broadcast counters are reported only then).
    public var sawBroadcastAPI: Bool { broadcasts > 0 || !broadcastsRejected.isEmpty || !channelRequests.isEmpty }

    /// Flat `name: count` pairs for reports.
    public var flattened: [String: Int] {
        var out: [String: Int] = [
            "connections_opened": connectionsOpened, "connections_closed": connectionsClosed,
            "requests": requests, "accepted": accepted, "token_verifications": tokenVerifications,
            "stream_limit_raises": streamLimitRaises, "stream_limit_drops": streamLimitDrops,
            "resets_received": resetsReceived, "pings_received": pingsReceived, "streams_refused": streamsRefused,
            "connections_reset": connectionsReset,
            "connections_stalled": connectionsStalled,
            "liveactivity_budget_overruns": liveActivityBudgetOverruns, "liveactivity_malformed": liveActivityMalformed,
        ]
        if capacityWaitMicros > 0 { out[Self.capacityWaitKey] = capacityWaitMicros / 1000 }
        for (reason, n) in rejected { out["rejected_\(reason)"] = n }
        for (reason, n) in goAwaysSent { out["goaway_\(reason)"] = n }
        if let busiest = connections.map(\.requests).max() { out["connection_max_requests"] = busiest }
        if sawBroadcastAPI {
            out["broadcasts"] = broadcasts
            out["broadcast_deliveries"] = broadcastDeliveries
            out["channels_created"] = channelsCreated
            out["channels_deleted"] = channelsDeleted
            for (reason, n) in broadcastsRejected { out["broadcasts_rejected_\(reason)"] = n }
            for (answer, n) in channelRequests { out["channel_requests_\(answer)"] = n }
        }
        return out
    }

    /// A few lines for a terminal: totals, then one line per connection.
    public var text: String {
        var lines = [
            "connections: \(connectionsOpened) opened, \(connectionsClosed) closed, \(connectionsReset) reset and \(connectionsStalled) "
                + "stalled by fault injection",
            "requests: \(requests), accepted \(accepted), rejected \(rejected.values.reduce(0, +))",
        ]
        for (reason, n) in rejected.sorted(by: { $0.key < $1.key }) { lines.append("  \(reason): \(n)") }
        lines.append("streams: \(streamsRefused) refused (REFUSED_STREAM), \(resetsReceived) resets received; limit raised \(streamLimitRaises)x, "
            + "dropped \(streamLimitDrops)x")
        lines.append("provider tokens verified: \(tokenVerifications)")
        if !goAwaysSent.isEmpty {
            lines.append("GOAWAY sent: " + goAwaysSent.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        lines.append("live activities: \(liveActivityBudgetOverruns) pushes over the priority-10 budget (would be throttled on "
            + "device), \(liveActivityMalformed) malformed but accepted")
        if sawBroadcastAPI {
            lines.append("broadcasts: \(broadcasts) accepted, \(broadcastDeliveries) deliveries to subscribers, "
                + "rejected \(broadcastsRejected.values.reduce(0, +))")
            for (reason, n) in broadcastsRejected.sorted(by: { $0.key < $1.key }) { lines.append("  \(reason): \(n)") }
            let answers = channelRequests.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("channels: \(channelsCreated) created, \(channelsDeleted) deleted; requests: \(answers.isEmpty ? "none" : answers)")
        }
        for c in connections {
            let rejected = c.rejected.sorted(by: { $0.key < $1.key }).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("  connection \(c.id): \(c.requests) requests, \(c.accepted) accepted\(rejected.isEmpty ? "" : ", " + rejected), \(c.streamsRefused) "
                + "refused, \(c.resetsReceived) resets received\(c.endedBy.map { ", ended by \($0)" } ?? "")\(c.open ? ", open" : "")")
        }
        return lines.joined(separator: "\n")
    }
}

/// Counters shared by every connection of one simulator, behind a lock. Connections keep their own
/// counts and merge them once per read burst, so the lock is not taken per request.
final class SimulatorCounterBox: Sendable {
    private let box = NIOLockedValueBox(SimulatorCounters())
    static let keptConnections = 10_000

    func update(_ body: (inout SimulatorCounters) -> Void) { box.withLockedValue(body) }
    var snapshot: SimulatorCounters { box.withLockedValue { $0 } }

    /// Counts a new connection and returns its id (accept order, from 1).
    func openConnection() -> Int {
        box.withLockedValue { c in
            c.connectionsOpened += 1
            c.connections.append(ConnectionCounters(id: c.connectionsOpened))
            if c.connections.count > Self.keptConnections { c.connections.removeFirst(c.connections.count - Self.keptConnections) }
            return c.connectionsOpened
        }
    }

    /// Merges one connection's counts since its last merge.
    func merge(_ delta: ConnectionCounters, totals: (inout SimulatorCounters) -> Void = { _ in }) {
        box.withLockedValue { c in
            c.requests += delta.requests
            c.accepted += delta.accepted
            c.resetsReceived += delta.resetsReceived
            c.streamsRefused += delta.streamsRefused
            for (r, n) in delta.rejected { c.rejected[r, default: 0] += n }
            totals(&c)
            // Connections are kept in id order with no gaps: the index follows from the id.
            if let first = c.connections.first?.id, delta.id >= first, delta.id - first < c.connections.count {
                let i = delta.id - first
                c.connections[i].requests += delta.requests
                c.connections[i].accepted += delta.accepted
                c.connections[i].resetsReceived += delta.resetsReceived
                c.connections[i].streamsRefused += delta.streamsRefused
                for (r, n) in delta.rejected { c.connections[i].rejected[r, default: 0] += n }
                if let e = delta.endedBy { c.connections[i].endedBy = e }
                if !delta.open { c.connections[i].open = false }
            }
        }
    }
}
