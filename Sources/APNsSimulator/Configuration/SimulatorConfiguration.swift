import APNsCore
import DeviceDelivery

/// A provider key the simulator knows: the public part of an `AuthKey_<KEYID>.p8`, its team, and the
/// environments it is valid in.
public struct RegisteredKey: Sendable {
    public enum Scope: String, Sendable, Codable { case both, sandbox, production }
    public let keyID: String
    public let teamID: String
    public let publicKey: ES256PublicKey
    public let scope: Scope

    public init(keyID: String, teamID: String, publicKey: ES256PublicKey, scope: Scope = .both) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKey = publicKey
        self.scope = scope
    }
}

/// How the simulator behaves. Defaults follow APNs as observed: a stream limit of 1, then 1000;
/// provider tokens valid for an hour and re-signed at most every 20 minutes.
public struct SimulatorConfiguration: Sendable {
    public enum Environment: String, Sendable, Codable, CaseIterable { case sandbox, production }

    /// Address to bind. Default loopback.
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one. Default 0.
    public var port = 0
    /// Plaintext HTTP/2 with prior knowledge instead of TLS. Default off.
    public var h2c = false
    /// Sandbox adds `apns-unique-id` to 200s. Default sandbox.
    public var environment: Environment = .sandbox
    /// The keys whose tokens verify, by key id.
    public var keys: [String: RegisteredKey] = [:]
    /// Bundle ids each team may push to; a team with no entry may push to any topic.
    public var topicsByTeam: [String: Set<String>] = [:]
    /// SETTINGS_MAX_CONCURRENT_STREAMS before the first request with a valid provider token. Default 1.
    public var initialMaxConcurrentStreams = 1
    /// SETTINGS_MAX_CONCURRENT_STREAMS after it. Default 1000.
    public var maxConcurrentStreams = 1000
    /// Provider tokens older than this are refused with ExpiredProviderToken. Default 3600 s.
    public var providerTokenLifetime: Double = 3600
    /// A connection may change its provider token at most once in this many seconds. Default 1200 s.
    public var providerTokenMinimumRotation: Double = 1200
    /// The reason for a body that is not a JSON object. Apple documents none; `BadPayload` is the simulator's own.
    public var badPayloadReason = SimulatorConfiguration.simulatorBadPayload
    /// The clock for token rules, budgets and 410 timestamps; tests move it.
    public var clock: WallClock = .system
    /// Event-loop threads. Default 1 (one core; use more only with more cores than clients need).
    public var threads = 1

    /// Answer every request `200` with prebuilt headers and no validation, as pushy's BenchmarkApnsServer
    /// does, so that a benchmark measures the client. The stream limit is `maxConcurrentStreams` from the
    /// start. Default off.
    public var fast = false
    /// After a rejected request advertise MAX_CONCURRENT_STREAMS 1, and `maxConcurrentStreams` again after
    /// the next accepted one (reported of APNs in 2016). Default off.
    public var dropStreamLimitAfterRejection = false
    /// Streams the HTTP/2 layer admits before it treats the client as grossly violating the limit
    /// (GOAWAY PROTOCOL_ERROR); streams past the advertised limit but within this get RST_STREAM
    /// REFUSED_STREAM. Default nil: twice `maxConcurrentStreams`.
    public var hardMaxConcurrentStreams: Int?
    /// After `TooManyProviderTokenUpdates` a connection refuses every request with it for this many
    /// seconds (Apple forum: the connection is unusable until enough time passes). Default 1200 s.
    public var tokenUpdatePenalty: Double = 1200
    /// Known device tokens, dead tokens, per-token rate limit. Default: every well-formed token is valid.
    public var deviceRegistry = DeviceRegistry()
    /// Live Activity payload checks and the priority-10 budget.
    public var liveActivity = LiveActivityRules()
    /// Broadcast channels (iOS 18+): the per-app channel limit and which apps have the capability.
    public var broadcast = BroadcastSettings()
    /// Injected latency, 5xx, GOAWAY, resets, delayed SETTINGS. Default none.
    public var faults = FaultInjection()
    /// The device side of delivery: what devices do with the pushes accepted (``DeviceDeliveryModel``), judged by the
    /// run in the recording's time. Default nil (not modelled).
    public var device: DeviceDeliveryParameters?
    /// Seed of every random choice of fault injection. Default 0.
    public var seed: UInt64 = 0

    /// `BadPayload`, 400: the simulator's own reason for a body that is not a JSON object or a Live
    /// Activity payload without its required keys (Apple documents none).
    public static let simulatorBadPayload = Reason(rawValue: "BadPayload", status: 400, handling: .fixRequest)

    /// The HTTP/2 layer's own stream limit (see `hardMaxConcurrentStreams`).
    var effectiveHardLimit: Int {
        max(hardMaxConcurrentStreams ?? 2 * maxConcurrentStreams, maxConcurrentStreams, initialMaxConcurrentStreams)
    }

    public init() {}

    /// Registers a key (replacing one with the same id).
    public mutating func register(_ key: RegisteredKey) { keys[key.keyID] = key }
}
