import APNsCore

/// Everything the engine needs to know to send; immutable for a run.
public struct EngineConfiguration: Sendable {
    /// `https://host:port` (or `http://host:port` for h2c prior knowledge), no trailing slash.
    public var baseURL: String
    /// `apns-topic` of kind 0.
    public var topic: String { kinds[0].text(APNsHeaders.topic) ?? "" }
    /// `apns-push-type` of kind 0.
    public var pushType: PushType { kinds[0].text(APNsHeaders.pushType).flatMap(PushType.init(rawValue:)) ?? .alert }
    /// What pushes are sent with, by ``OutgoingPush/kind``: each kind's header constants, the run's already laid
    /// under the recipe's (``RunConfig/pushKinds(_:)``), `apns-expiration` as seconds after the run's start (one
    /// header list per kind and priority is built up front). Kind 0 is the run's own. Never empty.
    public var kinds: [HeaderConstants]
    /// The run's start in epoch seconds: `apns-expiration` (a kind's, and a push's own ``PushHeaderValue/seconds``)
    /// counts from it.
    public var startedAtEpochSeconds = 0
    /// Whether pushes are sent open loop (a rate, a ramp, recorded time) or closed loop; nil: not said
    /// (settings built by hand).
    public var openLoop: Bool?
    /// How the engine drives libcurl: chosen from the schedule and this engine's connections
    /// (``CurlDrive/chosen(openLoop:connections:)``); ``CurlDrive/fromEnvironment`` when the schedule is not said.
    public var drive: CurlDrive { openLoop.map { CurlDrive.chosen(openLoop: $0, connections: connections) } ?? .fromEnvironment }
    /// HTTP/2 connections to open at most. Default: the run settings' (``RunDefaults``), as every default here
    /// that a run setting has.
    public var connections: Int = RunDefaults.connections
    /// Concurrent streams per connection at most (CURLMOPT_MAX_CONCURRENT_STREAMS; libcurl's default is 100).
    public var streamsPerConnection: Int = RunDefaults.streams
    /// PEM of the one CA certificate to trust (the simulator's); nil uses the system's trust store.
    public var trustedCertificatePEM: String?
    /// How long a push may take from send to answer before it counts as timed out.
    public var pushTimeoutMillis: Int = RunDefaults.pushTimeoutMillis
    /// How long a connection may take to connect. Default 10 s.
    public var connectTimeoutMillis: Int = 10_000
    /// While no transfer has ever been answered, how long transport failures may go on before the engine
    /// gives up on the target (``RunStop`` with `target_unreachable`).
    public var failFastSeconds: Double = RunDefaults.failFastSeconds
    /// The stall watchdog: a transfer that moved no byte for this many seconds (libcurl's low-speed
    /// check) gives its connection up. 0: off.
    public var stallTimeoutSeconds: Int = RunDefaults.stallTimeoutSeconds
    /// The run's end, seconds after its start; nil = no limit. From then on the engine takes no push due after
    /// it (those end as `notSent(.afterEnd)`), and the pushes due before it that are still queued or waiting
    /// for a resend get up to ``durationGraceSeconds`` more to be sent and answered; what is left then ends as
    /// `notSent(.runStopped)` (due) or `.afterEnd`.
    public var durationLimit: Double?
    /// How long after ``durationLimit`` the pushes due before the end still get (a resend after a GOAWAY or a
    /// 503 near the end, a backlog of a second). Default 5, as a signal's drain.
    public var durationGraceSeconds: Double = 5
    /// Seconds between calls of the engine's progress hook. Default 2.
    public var progressInterval: Double = 2
    /// What is resent after which answer, and when. Default: a run's (``RetryPolicy/init()``).
    public var retry = RetryPolicy()
    /// Warm-up, reconnect backoff and idle PING.
    public var lifecycle = ConnectionLifecycle.Settings()
    /// Broadcast delivery: the channel ids that pushes with `channel >= 0` go to, by index (one header
    /// list per channel and priority is built up front). Empty: device pushes only.
    public var broadcastChannels: [String] = []
    /// The broadcast send path, `/4/broadcasts/apps/<bundle-id>`.
    public var broadcastPath = ""

    /// One kind: `pushType` and `topic`, and `apns-expiration` `expiration` seconds after ``startedAtEpochSeconds``
    /// (nil: none).
    public init(baseURL: String, topic: String, pushType: PushType, expiration: Int? = nil,
                connections: Int = RunDefaults.connections, streamsPerConnection: Int = RunDefaults.streams,
                trustedCertificatePEM: String? = nil) {
        self.baseURL = baseURL
        var kind = HeaderConstants([APNsHeaders.pushType: .text(pushType.rawValue), APNsHeaders.topic: .text(topic)])
        kind[APNsHeaders.expiration] = expiration.map(HeaderConstant.number)
        self.kinds = [kind]
        self.connections = connections
        self.streamsPerConnection = streamsPerConnection
        self.trustedCertificatePEM = trustedCertificatePEM
    }

    /// How many pushes may be in flight at once: every stream of every connection.
    public var window: Int { connections * streamsPerConnection }

    /// The engine's settings for a run, derived from its configuration in this one place.
    /// - Parameters:
    ///   - baseURL: where the target answers (the simulator's URL, or APNs').
    ///   - trustedCertificatePEM: the one CA to trust (the embedded simulator's); nil for the system's.
    ///   - startedAtEpochSeconds: the run's start, which `apns-expiration` counts from.
    ///   - broadcastChannels: broadcast delivery's channel ids by index (``broadcastChannels``); empty for device delivery.
    ///   - progressInterval: seconds between calls of the progress hook (``progressInterval``).
    ///   - kinds: the run's push kinds (``RunConfig/pushKinds(_:)``); nil: one per part, the run's own headers.
    public init(run c: RunConfig, baseURL: String, trustedCertificatePEM: String?, startedAtEpochSeconds: Int,
                broadcastChannels: [String] = [], progressInterval: Double = 2, kinds: [PushKind]? = nil) {
        self.init(baseURL: baseURL, topic: c.topic, pushType: c.workload.pushType,
                  connections: c.transport.connections, streamsPerConnection: c.transport.streams,
                  trustedCertificatePEM: trustedCertificatePEM)
        pushTimeoutMillis = c.transport.pushTimeoutMillis
        durationLimit = c.schedule.durationSeconds
        openLoop = c.schedule.mode.isOpenLoop
        retry = RetryPolicy(c.retry)
        failFastSeconds = c.transport.failFastLimit
        stallTimeoutSeconds = c.transport.stallLimit
        self.startedAtEpochSeconds = startedAtEpochSeconds
        self.kinds = (kinds ?? c.pushKinds([])).map(\.headers)
        broadcastPath = "/4/broadcasts/apps/\(c.workload.bundleID)"
        self.broadcastChannels = broadcastChannels
        self.progressInterval = progressInterval
    }

    /// The URL scheme, then the configuration's own rules for connections, streams, the push timeout and
    /// each kind's collapse id (``RunConfig``), for callers that build these settings by hand.
    /// - Parameter workers: engine threads sharing `connections` (a pool's): each needs one of its own.
    public func validate(workers: Int = 1) throws {
        guard baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://") else {
            throw EngineError.badConfiguration("target URL '\(baseURL)' must start with https:// (or http:// for h2c)")
        }
        var transport = RunConfig.Transport()
        transport.connections = connections
        transport.streams = streamsPerConnection
        transport.pushTimeoutMillis = pushTimeoutMillis
        transport.workers = workers
        try transport.validate()
        for kind in kinds { if let collapseID = kind.text(APNsHeaders.collapseID) { try RunConfig.Payload.validate(collapseID: collapseID) } }
        try retry.validate()
    }
}
