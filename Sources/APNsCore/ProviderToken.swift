import Foundation

/// An APNs signing key (`AuthKey_<KEYID>.p8`): a P-256 private key with its 10-character key id and
/// the team id that owns it. Its `description` never shows the key.
public struct SigningKey: Sendable, CustomStringConvertible {
    public let privateKey: ES256PrivateKey
    public let keyID: String
    public let teamID: String

    public init(privateKey: ES256PrivateKey, keyID: String, teamID: String) {
        self.privateKey = privateKey
        self.keyID = keyID
        self.teamID = teamID
    }

    /// Reads a `.p8` file's PEM (PKCS#8 wrapping a P-256 key). Errors name the file and the cause,
    /// never the key material.
    public init(p8PEM pem: String, keyID: String, teamID: String, source: String = "key") throws {
        guard pem.contains("-----BEGIN PRIVATE KEY-----") else {
            throw ProviderTokenError.badKey(source: source, why: "not a PEM private key (expected '-----BEGIN PRIVATE KEY-----', as in an AuthKey_<KEYID>.p8)")
        }
        let key: ES256PrivateKey
        do { key = try ES256PrivateKey(pem: pem) } catch let e as ES256PrivateKey.LoadError {
            switch e {
            case .notAPrivateKey:
                throw ProviderTokenError.badKey(source: source, why: "no readable private key in the PEM (damaged, or encrypted with a passphrase)")
            case .notEllipticCurve, .notP256:
                throw ProviderTokenError.badKey(source: source, why: "not a P-256 (ES256) private key")
            }
        }
        try Self.checkIdentifier(keyID, name: "key id")
        try Self.checkIdentifier(teamID, name: "team id")
        self.init(privateKey: key, keyID: keyID, teamID: teamID)
    }

    /// Reads `path` as a `.p8` file.
    public init(p8Path path: String, keyID: String, teamID: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProviderTokenError.badKey(source: path, why: "cannot be read")
        }
        try self.init(p8PEM: String(decoding: data, as: UTF8.self), keyID: keyID, teamID: teamID, source: path)
    }

    /// A fresh key, as the simulator target uses when none is given.
    public static func generate(keyID: String = "SIMKEY0001", teamID: String = "SIMTEAM001") -> SigningKey {
        SigningKey(privateKey: ES256PrivateKey(), keyID: keyID, teamID: teamID)
    }

    /// APNs key and team ids are 10 characters of A–Z and 0–9.
    public static func checkIdentifier(_ id: String, name: String) throws {
        guard id.utf8.count == 10, id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }) else {
            throw ProviderTokenError.badIdentifier(name: name, value: id)
        }
    }

    /// The public key as an uncompressed P-256 point (65 bytes), for a verifier to register.
    public var publicKeyX963: [UInt8] { privateKey.publicKeyX963 }
    public var description: String { "SigningKey(keyID: \(keyID), teamID: \(teamID))" }
}

public enum ProviderTokenError: Error, CustomStringConvertible, Equatable {
    case badKey(source: String, why: String)
    case badIdentifier(name: String, value: String)
    case refreshIntervalOutOfRange(seconds: Double)

    public var description: String {
        switch self {
        case let .badKey(source, why): return "signing key \(source): \(why)"
        case let .badIdentifier(name, value): return "\(name) '\(value)' is not 10 characters of A-Z and 0-9"
        case let .refreshIntervalOutOfRange(s):
            return "provider token refresh interval \(Int(s)) s is outside [20, 60) minutes: "
                + "APNs refuses tokens older than 60 minutes and tokens changed more often than every 20 minutes"
        }
    }
}

/// Wall-clock seconds since the epoch, replaceable in tests so that the 20/60-minute rules can be
/// exercised in milliseconds.
public struct WallClock: Sendable {
    public let now: @Sendable () -> Double
    public init(now: @escaping @Sendable () -> Double) { self.now = now }
    public static let system = WallClock { Date().timeIntervalSince1970 }

    /// This clock, stepped forward by `seconds` once `after` seconds have passed on it from now (an NTP
    /// step, a VM resumed): the simulator's clock-step fault.
    public func steppedForward(by seconds: Double, after: Double) -> WallClock {
        let base = now, start = base()
        return WallClock {
            let t = base()
            return t - start >= after ? t + seconds : t
        }
    }
}

/// The provider token (ES256 JWT) and its `authorization` header value, signed once and reused until it
/// is older than the refresh interval (default 50 minutes; APNs allows 20 to 60).
///
/// Not thread-safe: each engine worker owns one. Signing happens off the hot path in practice, since a
/// token lives for tens of minutes; `bearer()` is a comparison and a cached string otherwise.
public final class ProviderTokenCache: CustomStringConvertible {
    public static let defaultRefreshInterval: Double = 50 * 60
    public static let allowedRefreshIntervals: Range<Double> = (20 * 60)..<(60 * 60)

    public let key: SigningKey
    public let refreshInterval: Double
    private let clock: WallClock
    /// The cached `bearer <JWT>` value.
    private var cached: String = ""
    /// `iat` of the cached token, seconds since the epoch.
    public private(set) var issuedAt: Int = 0
    /// How many times a token was signed.
    public private(set) var signings: Int = 0

    public init(key: SigningKey, refreshInterval: Double = ProviderTokenCache.defaultRefreshInterval, clock: WallClock = .system) throws {
        guard Self.allowedRefreshIntervals.contains(refreshInterval) else {
            throw ProviderTokenError.refreshIntervalOutOfRange(seconds: refreshInterval)
        }
        self.key = key
        self.refreshInterval = refreshInterval
        self.clock = clock
    }

    /// `bearer <JWT>`, re-signed only when the cached token is older than the refresh interval.
    public func bearer() -> String {
        let now = clock.now()
        if signings == 0 || now - Double(issuedAt) >= refreshInterval {
            sign(now: now)
        }
        return cached
    }

    /// Whether `bearer()` would sign a new token now.
    public var needsRefresh: Bool { signings == 0 || clock.now() - Double(issuedAt) >= refreshInterval }

    /// Signs a new token now, whatever the age of the cached one (after ExpiredProviderToken).
    public func forceRefresh() { sign(now: clock.now()) }

    /// APNs refuses a token changed more often than this on one connection (TooManyProviderTokenUpdates).
    public static let minimumRotationInterval: Double = 20 * 60

    /// Seconds until a new token may be signed under the 20-minute rule (0 when it may be now).
    public var secondsUntilRefreshAllowed: Double {
        guard signings > 0 else { return 0 }
        return max(0, Double(issuedAt) + Self.minimumRotationInterval - clock.now())
    }

    private func sign(now: Double) {
        issuedAt = Int(now.rounded(.down))
        cached = "bearer " + Self.makeJWT(key: key, issuedAt: issuedAt)
        signings += 1
    }

    /// A compact JWS: base64url(header).base64url(claims).base64url(r‖s).
    public static func makeJWT(key: SigningKey, issuedAt: Int) -> String {
        let header = #"{"alg":"ES256","kid":"\#(key.keyID)"}"#
        let claims = #"{"iss":"\#(key.teamID)","iat":\#(issuedAt)}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        // libcrypto signs with a random nonce; signing cannot fail for a valid key.
        let signature = key.privateKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// Never the token itself: a JWT is a credential for up to an hour.
    public var description: String { "ProviderTokenCache(kid: \(key.keyID), iat: \(issuedAt), signings: \(signings))" }
}
