/// The settings a run was made with, copied verbatim into the report so that two reports can be
/// compared knowing what differed. Plain strings and numbers on purpose: the report must decode even
/// when a later build renames an option's cases.
public struct RunSettings: Codable, Sendable, Equatable {
    /// The profile's name or path, e.g. `profiles/leave-requests.yaml`.
    public var profile: String
    /// The workload that turns events into pushes, e.g. `leave-requests`.
    public var workload: String
    /// Path of the recorded stream (NDJSON).
    public var stream: String
    /// `simulator`, `sandbox`, `production` or a URL.
    public var target: String
    /// `apns-push-type`, e.g. `liveactivity`.
    public var pushType: String
    /// `apns-topic`.
    public var topic: String
    /// `apns-priority`: `"10"`, `"5"`, `"1"`, or `"per-event"` when each event chooses.
    public var priority: String
    /// `apns-expiration` relative to the send, in seconds; nil = header not sent.
    public var expirationSeconds: Int?
    /// HTTP/2 connections to APNs.
    public var connections: Int
    /// Concurrent streams per connection.
    public var streams: Int
    /// How often the provider token (JWT) is re-signed, in seconds.
    public var tokenRefreshSeconds: Int
    /// Per-push timeout, in milliseconds.
    public var pushTimeoutMillis: Int
    /// What a bad stream line does: e.g. `skip` or `stop`.
    public var badLinePolicy: String
    /// The run's wall-clock limit, in seconds; nil = until the stream ends.
    public var durationLimitSeconds: Double?
    /// When pushes were due: `closed-loop`, `recorded x60`, `rate 2000/s`, `ramp 1000->20000/s over 60 s`.
    /// Nil in reports written before schedules existed.
    public var schedule: String?
    /// Coalescing window for Live Activity updates (ms); nil when off.
    public var coalesceMillis: Int?
    /// Engine threads (`--workers`); `connections` is the total across them. Nil in reports written
    /// before workers existed (which ran one).
    public var workers: Int?
    /// `apns-collapse-id` sent with every push; nil when none.
    public var collapseID: String?
    /// The retry policy, e.g. `10 attempts, backoff 1 s doubling to 60 s, within 300 s`; nil in older reports.
    public var retry: String?
    /// `validating` or `fast` when the target was the embedded simulator.
    public var simulatorMode: String?
    /// The profile's service-level objective, when it has one.
    public var slo: SLO?

    /// What the profile promises: p99 latency from the intended send, and the share of planned pushes delivered.
    public struct SLO: Codable, Sendable, Equatable {
        public var p99Millis: Int?
        public var minDelivered: Double?
        public init(p99Millis: Int? = nil, minDelivered: Double? = nil) {
            self.p99Millis = p99Millis
            self.minDelivered = minDelivered
        }
    }

    public init(
        profile: String,
        workload: String,
        stream: String,
        target: String,
        pushType: String,
        topic: String,
        priority: String,
        expirationSeconds: Int? = nil,
        connections: Int,
        streams: Int,
        tokenRefreshSeconds: Int,
        pushTimeoutMillis: Int,
        badLinePolicy: String,
        durationLimitSeconds: Double? = nil,
        schedule: String? = nil,
        coalesceMillis: Int? = nil,
        workers: Int? = nil
    ) {
        self.profile = profile
        self.workload = workload
        self.stream = stream
        self.target = target
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.expirationSeconds = expirationSeconds
        self.connections = connections
        self.streams = streams
        self.tokenRefreshSeconds = tokenRefreshSeconds
        self.pushTimeoutMillis = pushTimeoutMillis
        self.badLinePolicy = badLinePolicy
        self.durationLimitSeconds = durationLimitSeconds
        self.schedule = schedule
        self.coalesceMillis = coalesceMillis
        self.workers = workers
    }
}
