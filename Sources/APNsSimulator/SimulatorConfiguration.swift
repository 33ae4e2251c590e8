import APNsCore
import Crypto

/// A provider key the simulator knows: the public part of an `AuthKey_<KEYID>.p8`, its team, and the
/// environments it is valid in.
public struct RegisteredKey: Sendable {
    public enum Scope: String, Sendable, Codable { case both, sandbox, production }
    public let keyID: String
    public let teamID: String
    public let publicKey: P256.Signing.PublicKey
    public let scope: Scope

    public init(keyID: String, teamID: String, publicKey: P256.Signing.PublicKey, scope: Scope = .both) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKey = publicKey
        self.scope = scope
    }
}

/// How the simulator behaves. Defaults follow APNs as observed (apns-reference.md §9).
public struct SimulatorConfiguration: Sendable {
    public enum Environment: String, Sendable, Codable { case sandbox, production }

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
    public var badPayloadReason = Reason(rawValue: "BadPayload", status: 400, handling: .fixRequest)
    /// The clock for token rules; tests move it.
    public var clock: WallClock = .system
    /// Event-loop threads. Default 1.
    public var threads = 1

    public init() {}

    /// Registers a key (replacing one with the same id).
    public mutating func register(_ key: RegisteredKey) { keys[key.keyID] = key }
}
