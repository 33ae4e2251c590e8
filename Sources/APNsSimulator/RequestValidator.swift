import APNsCore
import NIOCore
import NIOHPACK

/// One request as the simulator received it: pseudo-headers, headers and the whole body.
public struct ReceivedRequest {
    public var headers: HPACKHeaders
    public var body: ByteBuffer

    public init(headers: HPACKHeaders, body: ByteBuffer) {
        self.headers = headers
        self.body = body
    }
}

/// The simulator's answer to one request.
public enum Verdict: Equatable {
    case accept
    case reject(Reason)
}

/// The validator's full answer: the verdict plus what the handler needs to answer and count.
public struct Decision: Equatable {
    public var verdict: Verdict
    /// For a 410: when the token stopped being valid, ms since the epoch.
    public var timestampMilliseconds: Int64?
    /// A liveactivity push past its token's priority-10 budget ("would be throttled on device").
    public var budgetOverrun = false
    /// A liveactivity push missing a required key but accepted (`LiveActivityRules.MissingKeys.count`).
    public var malformedLiveActivity = false

    public init(_ verdict: Verdict, timestampMilliseconds: Int64? = nil) {
        self.verdict = verdict
        self.timestampMilliseconds = timestampMilliseconds
    }
}

/// Validates requests the way APNs does, in a fixed order (Apple documents none; this is the order of
/// pushy's mock, apns-reference.md §11): method → path and device token → headers → provider token →
/// payload, then the device registry (topic, dead tokens, rate limit) and the Live Activity budget.
/// A function of the request, the connection's token state, the clock and the per-token counters
/// shared by all connections: no I/O, so it is tested without sockets.
public struct RequestValidator {
    public let configuration: SimulatorConfiguration
    private let rateWindows = WindowCounter()
    private let budgetWindows = WindowCounter()

    public init(configuration: SimulatorConfiguration) {
        self.configuration = configuration
    }

    /// The headers whose repetition is `DuplicateHeaders`.
    static let singleValued = [":method", ":path", "apns-id", "apns-priority", "apns-push-type", "apns-expiration",
                               "apns-collapse-id", "apns-topic", "authorization"]

    /// The verdict alone.
    public func validate(_ request: ReceivedRequest, auth: inout ConnectionAuthState) -> Verdict {
        evaluate(request, auth: &auth).verdict
    }

    public func evaluate(_ request: ReceivedRequest, auth: inout ConnectionAuthState) -> Decision {
        var method: String?, path: String?, apnsID: String?, priority: String?, pushType: String?
        var expiration: String?, collapseID: String?, topic: String?, authorization: String?
        var duplicate = false
        for (name, value, _) in request.headers {
            func set(_ slot: inout String?) {
                if slot != nil { duplicate = true } else { slot = value }
            }
            switch name {
            case ":method": set(&method)
            case ":path": set(&path)
            case "apns-id": set(&apnsID)
            case "apns-priority": set(&priority)
            case "apns-push-type": set(&pushType)
            case "apns-expiration": set(&expiration)
            case "apns-collapse-id": set(&collapseID)
            case "apns-topic": set(&topic)
            case "authorization": set(&authorization)
            default: break
            }
        }
        func reject(_ reason: Reason) -> Decision { Decision(.reject(reason)) }

        // 1. Method.
        guard method == "POST" else { return reject(.methodNotAllowed) }

        // 2. Path and device token.
        let prefix = "/3/device/"
        guard let path else { return reject(.badPath) }
        if path == "/3/device" || path == prefix { return reject(.missingDeviceToken) }
        guard path.hasPrefix(prefix) else { return reject(.badPath) }
        // Over contiguous bytes: String.UTF8View slices are slow to walk (12% of a request in a profile).
        let tokenIsValid = path.utf8.withContiguousStorageIfAvailable { Self.isDeviceToken(UnsafeBufferPointer(rebasing: $0[prefix.utf8.count...])) }
            ?? DeviceToken.isValid(hex: path.utf8.dropFirst(prefix.utf8.count))
        guard tokenIsValid else { return reject(.badDeviceToken) }

        // 3. Headers.
        if duplicate { return reject(.duplicateHeaders) }
        if let apnsID, !Self.isCanonicalUUID(apnsID) { return reject(.badMessageId) }
        var type: PushType? = nil
        if let pushType {
            guard let t = PushType(rawValue: pushType) else { return reject(.invalidPushType) }
            type = t
        }
        var priorityValue = 10
        if let priority {
            guard let p = Int(priority), Priority(rawValue: p) != nil else { return reject(.badPriority) }
            if type == .background, p == 10 { return reject(.badPriority) }
            priorityValue = p
        }
        if let expiration {
            guard let e = Int(expiration), e >= 0 else { return reject(.badExpirationDate) }
        }
        if let collapseID, collapseID.utf8.count > 64 { return reject(.badCollapseId) }
        guard let topic, !topic.isEmpty else { return reject(.missingTopic) }
        guard Self.isPlausibleTopic(topic) else { return reject(.badTopic) }
        let effectiveType = type ?? .alert
        guard PushType.suffixType(ofTopic: topic) == (effectiveType.topicSuffix.isEmpty ? nil : effectiveType) else {
            return reject(.badTopic)
        }
        let bundleID = String(topic.dropLast(effectiveType.topicSuffix.count))

        // 4. Provider token.
        if let reason = checkProviderToken(authorization, auth: &auth) { return reject(reason) }
        if let allowed = configuration.topicsByTeam[auth.boundTeamID ?? ""], !allowed.contains(bundleID) {
            return reject(.topicDisallowed)
        }

        // 5. Payload.
        let size = request.body.readableBytes
        if size == 0 { return reject(.payloadEmpty) }
        if size > effectiveType.payloadLimit { return reject(.payloadTooLarge) }
        let shape = request.body.withUnsafeReadableBytes { PayloadShape($0) }
        guard shape.isObject else { return reject(configuration.badPayloadReason) }
        var malformed = false
        if effectiveType == .liveactivity, LiveActivityRules.missingKey(shape) != nil {
            if configuration.liveActivity.missingKeys == .reject { return reject(configuration.liveActivity.reason) }
            malformed = true
        }

        // 6. The device registry.
        let registry = configuration.deviceRegistry
        let needsTokenText = registry.isActive || (effectiveType == .liveactivity && configuration.liveActivity.priority10Budget != nil)
        let tokenText = needsTokenText ? String(path.dropFirst(prefix.count)).lowercased() : ""
        if registry.isActive {
            if let (reason, stamp) = registry.check(token: tokenText, bundleID: bundleID) {
                return Decision(.reject(reason), timestampMilliseconds: reason.status == 410 ? stamp ?? nowMillis : nil)
            }
            if let limit = registry.rateLimit,
               rateWindows.hit(tokenText, now: configuration.clock.now(), window: limit.windowSeconds) > limit.pushes {
                return reject(.tooManyRequests)
            }
        }

        // Accepted. A Live Activity's priority-10 budget is the device's business: counted, not refused.
        var decision = Decision(.accept)
        decision.malformedLiveActivity = malformed
        if effectiveType == .liveactivity, priorityValue == 10, let budget = configuration.liveActivity.priority10Budget {
            let used = budgetWindows.hit(tokenText, now: configuration.clock.now(), window: configuration.liveActivity.budgetWindowSeconds)
            decision.budgetOverrun = used > budget
        }
        return decision
    }

    /// The clock in ms since the epoch (410 timestamps).
    var nowMillis: Int64 { Int64((configuration.clock.now() * 1000).rounded(.down)) }

    /// Checks `authorization` against the registered keys and the connection's token rules; nil when the
    /// token may be used. Binds the connection on its first valid token.
    func checkProviderToken(_ authorization: String?, auth: inout ConnectionAuthState) -> Reason? {
        guard let authorization, authorization.hasPrefix("bearer "), authorization.utf8.count > 7 else {
            return .missingProviderToken
        }
        let now = configuration.clock.now()

        // After TooManyProviderTokenUpdates the connection is unusable for a while, whatever the token.
        if let until = auth.refusingUntil {
            if now < until { return .tooManyProviderTokenUpdates }
            auth.refusingUntil = nil
        }

        // The token this connection already uses: only its age can have changed. (Whole header values
        // compared, String to String: the fast path.)
        if let current = auth.currentAuthorization, current == authorization {
            if now - Double(auth.currentTokenIssuedAt) > configuration.providerTokenLifetime { return .expiredProviderToken }
            return nil
        }

        let jwt = authorization.dropFirst(7)
        guard let parsed = try? ParsedProviderToken(jwt: jwt) else { return .invalidProviderToken }
        guard let key = configuration.keys[parsed.keyID] else { return .invalidProviderToken }
        guard key.teamID == parsed.teamID else { return .invalidProviderToken }
        switch (key.scope, configuration.environment) {
        case (.sandbox, .production), (.production, .sandbox): return .badEnvironmentKeyIdInToken
        default: break
        }
        auth.verifications += 1
        guard parsed.verify(with: key.publicKey) else { return .invalidProviderToken }
        if now - Double(parsed.issuedAt) > configuration.providerTokenLifetime { return .expiredProviderToken }

        if let team = auth.boundTeamID {
            guard team == parsed.teamID else { return .forbidden }
            guard auth.boundKeyID == parsed.keyID else { return .unrelatedKeyIdInToken }
            // A new token on a connection that changed its token less than 20 minutes ago.
            if now - auth.currentTokenSince < configuration.providerTokenMinimumRotation {
                if configuration.tokenUpdatePenalty > 0 { auth.refusingUntil = now + configuration.tokenUpdatePenalty }
                return .tooManyProviderTokenUpdates
            }
        } else {
            auth.boundTeamID = parsed.teamID
            auth.boundKeyID = parsed.keyID
        }
        auth.currentToken = String(jwt)
        auth.currentAuthorization = authorization
        auth.currentTokenIssuedAt = parsed.issuedAt
        auth.currentTokenSince = now
        return nil
    }

    /// `DeviceToken.isValid(hex:)` over contiguous bytes, specialized here (the APNsCore one is generic
    /// and not inlinable across modules).
    static func isDeviceToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard DeviceToken.hexLengthRange.contains(bytes.count), bytes.count % 2 == 0 else { return false }
        for c in bytes where !((c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x66)) { return false }
        return true
    }

    /// `8-4-4-4-12` hex digits, as `apns-id` must be.
    static func isCanonicalUUID(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 36 else { return false }
        for (i, c) in u.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return false }
            } else if !DeviceToken.isHexDigit(c) {
                return false
            }
        }
        return true
    }

    /// A bundle id: letters, digits, '-', '.', '_', no spaces, no leading or trailing dot.
    static func isPlausibleTopic(_ topic: String) -> Bool {
        guard !topic.hasPrefix("."), !topic.hasSuffix(".") else { return false }
        return topic.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c | 0x20 >= 0x61 && c | 0x20 <= 0x7A) || c == 0x2D || c == 0x2E || c == 0x5F
        }
    }
}
