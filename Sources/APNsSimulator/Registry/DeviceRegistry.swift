import APNsCore
import Foundation

/// The device tokens the simulator knows: which topic each token belongs to,
/// which tokens are no longer valid (410 `Unregistered` / `ExpiredToken`), and a per-token rate limit
/// (429 `TooManyRequests`). The default registry knows nothing and lets every well-formed token through,
/// so a run against a default simulator delivers everything.
///
/// Tokens are compared case-insensitively (stored lowercased).
public struct DeviceRegistry: Sendable, Equatable {
    /// Why a token is dead.
    public enum DeadReason: String, Sendable, Codable, CaseIterable {
        case unregistered = "Unregistered"
        case expiredToken = "ExpiredToken"

        public var reason: Reason { self == .unregistered ? .unregistered : .expiredToken }
    }

    /// A token that answers 410.
    public struct DeadToken: Sendable, Equatable {
        public var reason: DeadReason
        /// When the token stopped being valid, ms since the epoch; nil answers the current time.
        public var timestampMilliseconds: Int64?
        public init(reason: DeadReason = .unregistered, timestampMilliseconds: Int64? = nil) {
            self.reason = reason
            self.timestampMilliseconds = timestampMilliseconds
        }
    }

    /// At most `pushes` pushes to one device token in each window of `windowSeconds`.
    public struct RateLimit: Sendable, Equatable {
        public var pushes: Int
        public var windowSeconds: Double
        public init(pushes: Int, windowSeconds: Double) {
            self.pushes = pushes
            self.windowSeconds = windowSeconds
        }
    }

    /// Bundle id each known token belongs to (lowercased token → bundle id). A token pushed with the
    /// topic of another bundle is `DeviceTokenNotForTopic`. Default empty.
    public private(set) var bundleByToken: [String: String] = [:]
    /// Listed dead tokens (lowercased). Default empty.
    public private(set) var deadTokens: [String: DeadToken] = [:]
    /// Fraction of all tokens that are dead, decided from the token's bytes and `seed` (the same token
    /// is always dead or always alive). Default 0.
    public var deadFraction = 0.0
    /// The reason of tokens dead by `deadFraction`. Default `Unregistered`.
    public var deadFractionReason: DeadReason = .unregistered
    /// Seed of the dead fraction. Default 0.
    public var seed: UInt64 = 0
    /// The answer to a token the registry does not know, when it knows some: nil accepts it (the
    /// default), e.g. `BadDeviceToken` refuses it.
    public var unknownTokenReason: Reason?
    /// Per-token rate limit. Default none.
    public var rateLimit: RateLimit?
    /// SHA-256 of each devices file loaded (lower-case hex), in the order loaded: which tokens the registry
    /// knows, by value. Empty when none was.
    public private(set) var fileSHA256s: [String] = []
    /// The generated tokens' parameters (`devices.generate`), as `count=N seed=S bundle_id=B hex_length=H`, one
    /// per section read. Empty when none was.
    public var generated: [String] = []

    public init() {}

    /// Whether any check can refuse a token (the validator skips the registry otherwise).
    public var isActive: Bool {
        !bundleByToken.isEmpty || !deadTokens.isEmpty || deadFraction > 0 || rateLimit != nil
    }

    /// Registers `token` as belonging to the app `bundleID`.
    public mutating func register(token: String, bundleID: String) { bundleByToken[token.lowercased()] = bundleID }

    /// Marks `token` dead.
    public mutating func kill(token: String, _ dead: DeadToken = DeadToken()) { deadTokens[token.lowercased()] = dead }

    /// Whether `token` is dead by `deadFraction`.
    public func isDeadByFraction<C: Collection>(_ token: C) -> Bool where C.Element == UInt8 {
        guard deadFraction > 0 else { return false }
        // FNV-1a seeded by XOR into its basis, hex digits case-folded, finished with the SplitMix64 mixer.
        let h = SplitMix64.mix(FNV1a.hash(token, basis: FNV1a.offsetBasis ^ seed, folding: .hexDigits))
        return Double(h >> 11) * 0x1.0p-53 < deadFraction
    }

    /// The registry's verdict on `token` for `bundleID`, rate limit aside: nil when it may be pushed.
    /// Order: wrong topic, then dead, then unknown.
    public func check(token: String, bundleID: String) -> (reason: Reason, timestampMilliseconds: Int64?)? {
        let key = token.lowercased()
        let owner = bundleByToken[key]
        if let owner, owner != bundleID { return (.deviceTokenNotForTopic, nil) }
        if let dead = deadTokens[key] { return (dead.reason.reason, dead.timestampMilliseconds) }
        if isDeadByFraction(key.utf8) { return (deadFractionReason.reason, nil) }
        if owner == nil, !bundleByToken.isEmpty, let unknownTokenReason { return (unknownTokenReason, nil) }
        return nil
    }

    /// `count` distinct tokens of `hexLength` hex characters made from `seed`: the same arguments give
    /// the same tokens, so a replay and a simulator can agree on them without a file.
    public static func generatedTokens(count: Int, seed: UInt64, hexLength: Int = 64) -> [String] {
        precondition(DeviceToken.hexLengthRange.contains(hexLength) && hexLength % 2 == 0, "hexLength must be even, 64-200")
        var random = SplitMix64(seed: seed)
        let digits = Array("0123456789abcdef".utf8)
        return (0..<count).map { _ in
            var bytes = [UInt8]()
            bytes.reserveCapacity(hexLength)
            var word = random.next()
            for i in 0..<hexLength {
                if i % 16 == 0, i > 0 { word = random.next() }
                bytes.append(digits[Int(word & 0xF)])
                word >>= 4
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Reads a registry file: one token a line, `<token> <bundle-id> [Unregistered|ExpiredToken [timestamp-ms]]`;
    /// blank lines and `#` comments are skipped. Errors name the file, the line and the bad field.
    public mutating func load(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DeviceRegistryError(file: path, line: nil, message: "cannot be read")
        }
        fileSHA256s.append(SHA256Hasher.hex(SHA256Hasher.hash(Array(data))))
        var lineNumber = 0
        for raw in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            func fail(_ message: String) -> DeviceRegistryError { DeviceRegistryError(file: path, line: lineNumber, message: message) }
            guard fields.count >= 2, fields.count <= 4 else {
                throw fail("expected '<token> <bundle-id> [Unregistered|ExpiredToken [timestamp-ms]]', found \(fields.count) fields")
            }
            let token = String(fields[0])
            guard DeviceToken.isValid(token) else { throw fail("'\(DeviceToken.redacted(token))' is not a device token (even hex length 64-200)") }
            register(token: token, bundleID: String(fields[1]))
            if fields.count >= 3 {
                guard let reason = DeadReason(rawValue: String(fields[2])) else {
                    throw fail("'\(fields[2])' is neither Unregistered nor ExpiredToken")
                }
                var stamp: Int64?
                if fields.count == 4 {
                    guard let ms = Int64(fields[3]), ms >= 0 else { throw fail("timestamp '\(fields[3])' is not milliseconds since the epoch") }
                    stamp = ms
                }
                kill(token: token, DeadToken(reason: reason, timestampMilliseconds: stamp))
            }
        }
    }
}

/// A registry file that could not be read, with its line.
public struct DeviceRegistryError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let line: Int?
    public let message: String
    public var description: String { "device registry \(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
}
