import Foundation

/// An APNs rejection reason: the wire text of `{"reason": …}`, its HTTP status and how a client
/// should treat it. One table, shared by the engine (parsing responses) and the simulator (sending them).
///
/// A struct with static constants rather than an enum, so that a reason APNs adds later can still be
/// represented (`Reason(rawValue:)` falls back to status 0 and class `.unknown`).
/// Source: Apple's "Handling notification responses from APNs" (each reason with its status).
public struct Reason: Hashable, Sendable, CustomStringConvertible {
    /// The reason string exactly as APNs writes it, e.g. `BadDeviceToken`.
    public let rawValue: String
    /// The HTTP status APNs answers with for this reason.
    public let status: Int
    /// What the client should do about it.
    public let handling: Handling

    public enum Handling: String, Codable, Sendable {
        /// The request is wrong; sending it again cannot help.
        case fixRequest
        /// The device token is no longer valid for the topic; stop sending to it.
        case dropToken
        /// Credentials or configuration; an operator must act.
        case configuration
        /// Provider token expired: sign a new one, retry once.
        case refreshProviderToken
        /// The connection can't be used for this key or any more: open another.
        case newConnection
        /// Too many pushes to one device token: back off that token only.
        case backOffToken
        /// Server-side trouble: retry with backoff, preferably elsewhere.
        case retry
        /// Not in the table.
        case unknown
    }

    public init(rawValue: String, status: Int, handling: Handling) {
        self.rawValue = rawValue
        self.status = status
        self.handling = handling
    }

    /// Looks up a reason string; an unknown string keeps its text, with status 0 and `.unknown`.
    public init(rawValue: String) {
        self = Reason.byName[rawValue] ?? Reason(rawValue: rawValue, status: 0, handling: .unknown)
    }

    /// Looks up a reason from the bytes of its name (a String is built only for an unknown one).
    public static func lookup<C: Collection>(utf8 bytes: C) -> Reason where C.Element == UInt8 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { known(utf8: $0) } ?? Reason(rawValue: String(decoding: array, as: UTF8.self))
    }

    /// The reasons' names as bytes, in `all`'s order: compared without building a String.
    private static let names: [[UInt8]] = all.map { Array($0.rawValue.utf8) }

    /// The known reason spelled by `bytes`, if any. Allocates nothing.
    static func known(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Reason? {
        for index in names.indices {
            let matches = names[index].withUnsafeBufferPointer { name in
                name.count == bytes.count && (name.count == 0 || memcmp(name.baseAddress!, bytes.baseAddress!, name.count) == 0)
            }
            if matches { return all[index] }
        }
        return nil
    }

    public var description: String { rawValue }

    /// Whether the simulator may answer with it only by fault injection (no request can cause it).
    public var isServerSide: Bool { handling == .retry || self == .idleTimeout }

    // MARK: 400
    public static let badCollapseId = Reason(rawValue: "BadCollapseId", status: 400, handling: .fixRequest)
    public static let badDeviceToken = Reason(rawValue: "BadDeviceToken", status: 400, handling: .dropToken)
    public static let badExpirationDate = Reason(rawValue: "BadExpirationDate", status: 400, handling: .fixRequest)
    public static let badMessageId = Reason(rawValue: "BadMessageId", status: 400, handling: .fixRequest)
    public static let badPriority = Reason(rawValue: "BadPriority", status: 400, handling: .fixRequest)
    public static let badTopic = Reason(rawValue: "BadTopic", status: 400, handling: .fixRequest)
    public static let deviceTokenNotForTopic = Reason(rawValue: "DeviceTokenNotForTopic", status: 400, handling: .fixRequest)
    public static let duplicateHeaders = Reason(rawValue: "DuplicateHeaders", status: 400, handling: .fixRequest)
    public static let idleTimeout = Reason(rawValue: "IdleTimeout", status: 400, handling: .newConnection)
    public static let invalidPushType = Reason(rawValue: "InvalidPushType", status: 400, handling: .fixRequest)
    public static let missingDeviceToken = Reason(rawValue: "MissingDeviceToken", status: 400, handling: .fixRequest)
    public static let missingTopic = Reason(rawValue: "MissingTopic", status: 400, handling: .fixRequest)
    public static let payloadEmpty = Reason(rawValue: "PayloadEmpty", status: 400, handling: .fixRequest)
    public static let topicDisallowed = Reason(rawValue: "TopicDisallowed", status: 400, handling: .configuration)
    // MARK: 403
    public static let badCertificate = Reason(rawValue: "BadCertificate", status: 403, handling: .configuration)
    public static let badCertificateEnvironment = Reason(rawValue: "BadCertificateEnvironment", status: 403, handling: .configuration)
    public static let expiredProviderToken = Reason(rawValue: "ExpiredProviderToken", status: 403, handling: .refreshProviderToken)
    public static let forbidden = Reason(rawValue: "Forbidden", status: 403, handling: .configuration)
    public static let invalidProviderToken = Reason(rawValue: "InvalidProviderToken", status: 403, handling: .configuration)
    public static let missingProviderToken = Reason(rawValue: "MissingProviderToken", status: 403, handling: .configuration)
    public static let unrelatedKeyIdInToken = Reason(rawValue: "UnrelatedKeyIdInToken", status: 403, handling: .newConnection)
    public static let badEnvironmentKeyIdInToken = Reason(rawValue: "BadEnvironmentKeyIdInToken", status: 403, handling: .configuration)
    // MARK: 404, 405
    public static let badPath = Reason(rawValue: "BadPath", status: 404, handling: .fixRequest)
    public static let methodNotAllowed = Reason(rawValue: "MethodNotAllowed", status: 405, handling: .fixRequest)
    // MARK: 410
    public static let expiredToken = Reason(rawValue: "ExpiredToken", status: 410, handling: .dropToken)
    public static let unregistered = Reason(rawValue: "Unregistered", status: 410, handling: .dropToken)
    // MARK: 413
    public static let payloadTooLarge = Reason(rawValue: "PayloadTooLarge", status: 413, handling: .fixRequest)
    // MARK: 429
    public static let tooManyProviderTokenUpdates = Reason(rawValue: "TooManyProviderTokenUpdates", status: 429, handling: .newConnection)
    public static let tooManyRequests = Reason(rawValue: "TooManyRequests", status: 429, handling: .backOffToken)
    // MARK: 500, 503
    public static let internalServerError = Reason(rawValue: "InternalServerError", status: 500, handling: .retry)
    public static let serviceUnavailable = Reason(rawValue: "ServiceUnavailable", status: 503, handling: .retry)
    public static let shutdown = Reason(rawValue: "Shutdown", status: 503, handling: .retry)

    /// Every reason APNs documents, grouped by status; the broadcast APIs' own reasons
    /// (`broadcastOnly`, in `Reason+Broadcast.swift`) come last.
    public static let all: [Reason] = [
        .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
        .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
        .missingTopic, .payloadEmpty, .topicDisallowed,
        .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden, .invalidProviderToken,
        .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken,
        .badPath, .methodNotAllowed,
        .expiredToken, .unregistered,
        .payloadTooLarge,
        .tooManyProviderTokenUpdates, .tooManyRequests,
        .internalServerError, .serviceUnavailable, .shutdown,
    ] + broadcastOnly

    private static let byName: [String: Reason] = Dictionary(uniqueKeysWithValues: all.map { ($0.rawValue, $0) })

    /// The `{"reason":"…"}` body of an error response.
    public var responseBody: String { #"{"reason":"\#(rawValue)"}"# }

    public static func == (lhs: Reason, rhs: Reason) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension Reason {
    /// Finds the `reason` value in an APNs error body such as `{"reason":"BadDeviceToken"}` without a
    /// JSON parser (the engine calls this per rejected push). Returns nil if there is none.
    public static func parse(body: [UInt8]) -> Reason? {
        body.withUnsafeBufferPointer { parse(buffer: $0) }
    }

    /// `parse(body:)` over raw bytes; allocates nothing for a known reason (the engine's case).
    public static func parse(buffer body: UnsafeBufferPointer<UInt8>) -> Reason? {
        let key: StaticString = "\"reason\""
        let keyLen = key.utf8CodeUnitCount
        guard body.count > keyLen, let base = body.baseAddress else { return nil }
        let end = body.count
        var i = 0
        while i + keyLen <= end {
            guard memcmp(base + i, key.utf8Start, keyLen) == 0 else { i += 1; continue }
            var j = i + keyLen
            while j < end, body[j] == UInt8(ascii: " ") || body[j] == UInt8(ascii: ":") { j += 1 }
            guard j < end, body[j] == UInt8(ascii: "\"") else { return nil }
            let start = j + 1
            var stop = start
            while stop < end, body[stop] != UInt8(ascii: "\"") { stop += 1 }
            guard stop < end else { return nil }
            let name = UnsafeBufferPointer(rebasing: body[start..<stop])
            return known(utf8: name) ?? Reason(rawValue: String(decoding: name, as: UTF8.self))
        }
        return nil
    }

    /// `parse(body:)` for any byte collection.
    public static func parse<C: RandomAccessCollection>(body: C) -> Reason? where C.Element == UInt8, C.Index == Int {
        if let found = body.withContiguousStorageIfAvailable({ parse(buffer: $0) }) { return found }
        return Array(body).withUnsafeBufferPointer { parse(buffer: $0) }
    }
}
