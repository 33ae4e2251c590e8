/// What the engine did during a run, besides per-push outcomes: its connections, provider tokens,
/// retries and per-token holds. One type for the engine (each worker counts its own), the worker pool
/// (which adds its workers' with ``+(_:_:)``), the report (which embeds it as `engine`) and later
/// merges of shard reports.
///
/// Every field is a count that adds up across workers and shards, so ``+(_:_:)`` adds every field; a
/// test fills every field through `Codable` and checks the sum, so a field added here and forgotten
/// there fails it.
public struct EngineCounters: Codable, Equatable, Sendable {
    /// Pushes handed to libcurl, attempts included.
    public var sent = 0
    /// New connections libcurl opened (CURLINFO_NUM_CONNECTS summed).
    public var connectionsOpened = 0
    /// Provider tokens (JWTs) signed during the run.
    public var providerTokenSignings = 0
    /// Most pushes in flight at once. Summed across workers and shards: an upper bound, since their
    /// peaks need not coincide.
    public var peakInFlight = 0
    /// Resends sent, by what the previous attempt got (a reason, or a transport error key like `curl_56_recv_error`).
    public var retries: [String: Int] = [:]
    /// Resends sent in all (each push is still counted once, by its final outcome): `sent` is first sends
    /// plus these. A resend the run ended before it went out is not one.
    public var retriesTotal = 0
    /// Pushes held because their device token was answered 429 TooManyRequests.
    public var tokenBackoffs = 0
    /// Device tokens answered 410 and not pushed again in the run.
    public var deadTokens = 0
    /// Provider tokens signed again after ExpiredProviderToken.
    public var providerTokenRefreshes = 0
    /// Connections opened after the first ones (after GOAWAY, resets, …).
    public var reconnects = 0
    /// Times sends were held because a connection died young (reconnect backoff).
    public var reconnectHolds = 0
    /// HTTP/2 PINGs asked for on idle connections.
    public var pings = 0
    /// Connections the stall watchdog gave up (no byte moved for the stall timeout with pushes in flight).
    public var stalls = 0
    /// CPU the engine threads used, ms (summed over workers): against the run's length it says whether the
    /// harness itself was the bottleneck (a thread near 100% of a core is).
    public var engineCPUMillis = 0
    /// The busiest engine thread's CPU, ms (the largest over workers and shards, not a sum): near the run's
    /// length, one engine thread was a full core busy.
    public var busiestEngineCPUMillis = 0
    /// CPU the producer thread used, ms (workload, shard filter, coalescing, device contract, budget, pacing), summed over shards.
    public var producerCPUMillis = 0
    /// Pushes the producer handed to an engine more than 1 ms after they were due (open loop), not counting
    /// those right after a full queue held it back: the producer could not keep the queues fed.
    public var producerLatePushes = 0
    /// Returns from the engine's wait (a socket ready, libcurl's timer, a push due, a wake from the
    /// producer, or the idle cap of 100 ms): the loop turns that cost a system call. Per push sent, it says
    /// whether the engine sleeps in proportion to its work (about 1–3 on a paced run) or spins.
    public var wakeUps = 0
    /// Devices the delivered pushes reached: one per delivered device push, the channel's subscribers (as
    /// the recording subscribed them) per delivered broadcast.
    public var devicesReached = 0

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case sent, connectionsOpened, providerTokenSignings, peakInFlight, retries, retriesTotal, tokenBackoffs
        case deadTokens, providerTokenRefreshes, reconnects, reconnectHolds, pings, wakeUps, stalls, engineCPUMillis
        case devicesReached, busiestEngineCPUMillis, producerCPUMillis, producerLatePushes
    }

    /// Decodes every field; `wakeUps`, `stalls`, `engineCPUMillis` and the fields after `devicesReached`, added
    /// later, are 0 in reports written before them.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sent = try c.decode(Int.self, forKey: .sent)
        connectionsOpened = try c.decode(Int.self, forKey: .connectionsOpened)
        providerTokenSignings = try c.decode(Int.self, forKey: .providerTokenSignings)
        peakInFlight = try c.decode(Int.self, forKey: .peakInFlight)
        retries = try c.decode([String: Int].self, forKey: .retries)
        retriesTotal = try c.decode(Int.self, forKey: .retriesTotal)
        tokenBackoffs = try c.decode(Int.self, forKey: .tokenBackoffs)
        deadTokens = try c.decode(Int.self, forKey: .deadTokens)
        providerTokenRefreshes = try c.decode(Int.self, forKey: .providerTokenRefreshes)
        reconnects = try c.decode(Int.self, forKey: .reconnects)
        reconnectHolds = try c.decode(Int.self, forKey: .reconnectHolds)
        pings = try c.decode(Int.self, forKey: .pings)
        wakeUps = try c.decodeIfPresent(Int.self, forKey: .wakeUps) ?? 0
        stalls = try c.decodeIfPresent(Int.self, forKey: .stalls) ?? 0
        engineCPUMillis = try c.decodeIfPresent(Int.self, forKey: .engineCPUMillis) ?? 0
        devicesReached = try c.decodeIfPresent(Int.self, forKey: .devicesReached) ?? 0
        busiestEngineCPUMillis = try c.decodeIfPresent(Int.self, forKey: .busiestEngineCPUMillis) ?? 0
        producerCPUMillis = try c.decodeIfPresent(Int.self, forKey: .producerCPUMillis) ?? 0
        producerLatePushes = try c.decodeIfPresent(Int.self, forKey: .producerLatePushes) ?? 0
    }

    /// Both sides' counts added, field by field.
    public static func + (a: EngineCounters, b: EngineCounters) -> EngineCounters {
        var s = a
        s += b
        return s
    }

    public static func += (a: inout EngineCounters, b: EngineCounters) {
        a.sent += b.sent
        a.connectionsOpened += b.connectionsOpened
        a.providerTokenSignings += b.providerTokenSignings
        a.peakInFlight += b.peakInFlight
        for (cause, n) in b.retries { a.retries[cause, default: 0] += n }
        a.retriesTotal += b.retriesTotal
        a.tokenBackoffs += b.tokenBackoffs
        a.deadTokens += b.deadTokens
        a.providerTokenRefreshes += b.providerTokenRefreshes
        a.reconnects += b.reconnects
        a.reconnectHolds += b.reconnectHolds
        a.pings += b.pings
        a.wakeUps += b.wakeUps
        a.stalls += b.stalls
        a.engineCPUMillis += b.engineCPUMillis
        a.devicesReached += b.devicesReached
        a.busiestEngineCPUMillis = max(a.busiestEngineCPUMillis, b.busiestEngineCPUMillis)
        a.producerCPUMillis += b.producerCPUMillis
        a.producerLatePushes += b.producerLatePushes
    }
}
