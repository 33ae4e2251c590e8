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
/// pushy's mock server): method → path and device token → headers → provider token →
/// payload, then the device registry (topic, dead tokens, rate limit) and the Live Activity budget.
/// A function of the request, the connection's token state, the clock and the per-token counters
/// shared by all connections: no I/O, so it is tested without sockets.
public struct RequestValidator: Sendable {
    public let configuration: SimulatorConfiguration
    private let rateWindows = WindowCounter()
    private let budgetWindows = WindowCounter()

    public init(configuration: SimulatorConfiguration) {
        self.configuration = configuration
    }

    /// The headers whose repetition is `DuplicateHeaders`.
    static let singleValued = [":method", ":path", "apns-id", "apns-priority", "apns-push-type", "apns-expiration",
                               "apns-collapse-id", "apns-topic", "authorization", "apns-channel-id", "apns-request-id"]

    /// The verdict alone.
    public func validate(_ request: ReceivedRequest, auth: inout ConnectionAuthState) -> Verdict {
        evaluate(request, auth: &auth).verdict
    }

    public func evaluate(_ request: ReceivedRequest, auth: inout ConnectionAuthState) -> Decision {
        var tape = JSONTape()
        return evaluate(RequestHeaderFields(request.headers), body: request.body, auth: &auth, tape: &tape)
    }

    /// `evaluate` on headers already gathered (the handler gathers them when the HEADERS frame arrives).
    /// `tape` is the connection's, scanned into for the payload's shape (kept so that its storage is reused).
    func evaluate(_ fields: RequestHeaderFields, body: ByteBuffer, auth: inout ConnectionAuthState,
                  tape: inout JSONTape) -> Decision {
        func reject(_ reason: Reason) -> Decision { Decision(.reject(reason)) }
        // 1–3. Method, path and device token, headers.
        let headers: HeaderFacts
        switch checkHeaders(fields, auth: &auth) {
        case let .refused(reason): return reject(reason)
        case let .valid(facts): headers = facts
        }
        // 4. Provider token.
        if let reason = checkProviderToken(fields.authorization, auth: &auth) { return reject(reason) }
        // The connection is bound to a team now; the memo holds the team its bundle id was allowed for.
        if auth.boundTeamID == nil || auth.topicMemo?.allowedForTeam != auth.boundTeamID {
            if let allowed = configuration.topicsByTeam[auth.boundTeamID ?? ""], !allowed.contains(headers.bundleID) {
                return reject(.topicDisallowed)
            }
            auth.topicMemo?.allowedForTeam = auth.boundTeamID
        }
        // 5. Payload.
        let malformed: Bool
        switch checkPayload(body, type: headers.type, tape: &tape) {
        case let .refused(reason): return reject(reason)
        case let .valid(m): malformed = m
        }
        // 6. The device registry.
        let needsTokenText = configuration.deviceRegistry.isActive
            || (headers.type == .liveactivity && configuration.liveActivity.priority10Budget != nil)
        let tokenText = needsTokenText ? String(headers.path.dropFirst(Self.devicePrefix.count)).lowercased() : ""
        if let refused = checkRegistry(token: tokenText, bundleID: headers.bundleID) { return refused }

        // Accepted. A Live Activity's priority-10 budget is the device's business: counted, not refused.
        var decision = Decision(.accept)
        decision.malformedLiveActivity = malformed
        if headers.type == .liveactivity, headers.priority == 10, let budget = configuration.liveActivity.priority10Budget {
            let used = budgetWindows.hit(tokenText, now: configuration.clock.now(), window: configuration.liveActivity.budgetWindowSeconds)
            decision.budgetOverrun = used > budget
        }
        return decision
    }

    /// What the headers said, once checked: the request's path, its push type (alert when absent), priority and
    /// the bundle id its topic names.
    struct HeaderFacts: Equatable {
        var path: String
        var type: PushType
        var priority: Int
        var bundleID: String
    }

    /// Steps 1–3: the method, the path and device token, and the headers in APNs' order.
    private func checkHeaders(_ fields: RequestHeaderFields, auth: inout ConnectionAuthState) -> Checked<HeaderFacts> {
        guard fields.method == "POST" else { return .refused(.methodNotAllowed) }
        guard var path = fields.path else { return .refused(.badPath) }
        // Over contiguous bytes: String comparisons and UTF8View slices are slow to walk (12% of a
        // request in a profile). Paths are ASCII on the wire; a byte prefix is the prefix APNs sees.
        if let reason = path.withUTF8({ Self.pathReason(UnsafeBufferPointer(rebasing: $0[...])) }) { return .refused(reason) }
        if fields.duplicate { return .refused(.duplicateHeaders) }
        if let apnsID = fields.apnsID, !Self.isCanonicalUUID(apnsID) { return .refused(.badMessageId) }
        var type: PushType? = nil
        if let pushType = fields.pushType {
            guard let t = PushType(rawValue: pushType) else { return .refused(.invalidPushType) }
            type = t
        }
        var priorityValue = 10
        if let priority = fields.priority {
            guard let p = Int(priority), Priority(rawValue: p) != nil else { return .refused(.badPriority) }
            if type == .background, p == 10 { return .refused(.badPriority) }
            priorityValue = p
        }
        if let expiration = fields.expiration {
            guard let e = Int(expiration), e >= 0 else { return .refused(.badExpirationDate) }
        }
        if let collapseID = fields.collapseID, collapseID.utf8.count > 64 { return .refused(.badCollapseId) }
        guard let topic = fields.topic, !topic.isEmpty else { return .refused(.missingTopic) }
        let effectiveType = type ?? .alert
        // A connection sends the same topic again and again: its checks are remembered per connection.
        let bundleID: String
        if let memo = auth.topicMemo, memo.type == effectiveType, memo.topic == topic {
            bundleID = memo.bundleID
        } else {
            guard Self.isPlausibleTopic(topic) else { return .refused(.badTopic) }
            guard PushType.suffixType(ofTopic: topic) == (effectiveType.topicSuffix.isEmpty ? nil : effectiveType) else {
                return .refused(.badTopic)
            }
            bundleID = String(topic.dropLast(effectiveType.topicSuffix.count))
            auth.topicMemo = TopicMemo(topic: topic, type: effectiveType, bundleID: bundleID)
        }
        return .valid(HeaderFacts(path: path, type: effectiveType, priority: priorityValue, bundleID: bundleID))
    }

    /// Step 5: the payload's size and shape; valid(true) for a Live Activity payload missing a key that the
    /// simulator is told to accept anyway (counted as malformed).
    private func checkPayload(_ body: ByteBuffer, type: PushType, tape: inout JSONTape) -> Checked<Bool> {
        let size = body.readableBytes
        if size == 0 { return .refused(.payloadEmpty) }
        if size > type.payloadLimit { return .refused(.payloadTooLarge) }
        // `aps` keys are read only where a rule needs them.
        let watched = type == .liveactivity ? LiveActivityRules.watchedKeys : nil
        let shape = body.withUnsafeReadableBytes { PayloadShape($0, watching: watched, tape: &tape) }
        guard shape.isObject else { return .refused(configuration.badPayloadReason) }
        if type == .liveactivity, LiveActivityRules.missingKey(shape) != nil {
            if configuration.liveActivity.missingKeys == .reject { return .refused(configuration.liveActivity.reason) }
            return .valid(true)
        }
        return .valid(false)
    }

    /// Step 6: the device registry's verdict on the token (unregistered, gone with its 410 timestamp, or over
    /// its rate limit); nil when it has none or is not active.
    private func checkRegistry(token tokenText: String, bundleID: String) -> Decision? {
        let registry = configuration.deviceRegistry
        guard registry.isActive else { return nil }
        if let (reason, stamp) = registry.check(token: tokenText, bundleID: bundleID) {
            return Decision(.reject(reason), timestampMilliseconds: reason.status == 410 ? stamp ?? nowMillis : nil)
        }
        if let limit = registry.rateLimit,
           rateWindows.hit(tokenText, now: configuration.clock.now(), window: limit.windowSeconds) > limit.pushes {
            return Decision(.reject(.tooManyRequests))
        }
        return nil
    }

    /// The clock in ms since the epoch (410 timestamps).
    var nowMillis: Int64 { Int64((configuration.clock.now() * 1000).rounded(.down)) }

    /// Checks `authorization` against the registered keys and the connection's token rules; nil when the
    /// token may be used. Binds the connection on its first valid token.
    func checkProviderToken(_ authorization: String?, auth: inout ConnectionAuthState) -> Reason? {
        // The token this connection already uses (whole header values compared, String to String: the
        // fast path), when nothing refuses the connection: only its age can have changed.
        if auth.refusingUntil == nil, let current = auth.currentAuthorization, let authorization, current == authorization {
            if configuration.clock.now() - Double(auth.currentTokenIssuedAt) > configuration.providerTokenLifetime { return .expiredProviderToken }
            return nil
        }
        guard let authorization, authorization.hasPrefix("bearer "), authorization.utf8.count > 7 else {
            return .missingProviderToken
        }
        let now = configuration.clock.now()

        // After TooManyProviderTokenUpdates the connection is unusable for a while, whatever the token.
        if let until = auth.refusingUntil {
            if now < until { return .tooManyProviderTokenUpdates }
            auth.refusingUntil = nil
        }

        // The token this connection already uses: only its age can have changed.
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

    static let devicePrefix = "/3/device/"

    /// The reason a `:path` is refused (BadPath, MissingDeviceToken, BadDeviceToken), or nil.
    static func pathReason(_ path: UnsafeBufferPointer<UInt8>) -> Reason? {
        let prefix: StaticString = "/3/device/"
        let n = prefix.utf8CodeUnitCount
        func startsWithPrefix(_ count: Int) -> Bool {
            for i in 0..<count where path[i] != prefix.utf8Start[i] { return false }
            return true
        }
        // "/3/device" or "/3/device/": no token.
        if path.count == n || path.count == n - 1, startsWithPrefix(path.count) { return .missingDeviceToken }
        guard path.count > n, startsWithPrefix(n) else { return .badPath }
        return isDeviceToken(UnsafeBufferPointer(rebasing: path[n...])) ? nil : .badDeviceToken
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

/// The request headers the validator reads, gathered in one pass over the header block: a `switch` on
/// each name's length first (a `switch` over the name strings compared every header with every case in
/// turn: 60 string comparisons a request in a profile). Also `content-length`, which the handler checks
/// against the body as the HTTP/2 layer would (see `ContentLength`).
struct RequestHeaderFields {
    var method: String?, path: String?, apnsID: String?, priority: String?, pushType: String?
    var expiration: String?, collapseID: String?, topic: String?, authorization: String?
    /// The broadcast APIs' headers (`ChannelRequests.swift`).
    var channelID: String?, requestID: String?
    /// One of the single-valued headers came twice (`DuplicateHeaders`).
    var duplicate = false
    var contentLength = ContentLength.absent

    /// `content-length` as HTTP/2 and NIOHTTP2's own check read it: every value, split at
    /// commas and trimmed of spaces and tabs, must be the same non-negative decimal number.
    enum ContentLength: Equatable {
        case absent
        case length(Int)
        /// Values that disagree, or one that is not a non-negative number: the stream is malformed.
        case invalid
    }

    init(_ headers: HPACKHeaders) {
        var lengthText: Substring?
        var lengthsDisagree = false
        for (name, value, _) in headers {
            switch name.utf8.count {
            case 5:
                if name == ":path" { Self.set(&path, value, &duplicate) }
            case 7:
                if name == ":method" { Self.set(&method, value, &duplicate) } else if name == "apns-id" { Self.set(&apnsID, value, &duplicate) }
            case 10:
                if name == "apns-topic" { Self.set(&topic, value, &duplicate) }
            case 13:
                if name == "authorization" {
                    Self.set(&authorization, value, &duplicate)
                } else if name == "apns-priority" {
                    Self.set(&priority, value, &duplicate)
                }
            case 14:
                if name == "apns-push-type" {
                    Self.set(&pushType, value, &duplicate)
                } else if Self.isContentLength(name) {
                    Self.gatherLength(value, into: &lengthText, disagree: &lengthsDisagree)
                }
            case 15:
                if name == "apns-expiration" {
                    Self.set(&expiration, value, &duplicate)
                } else if name == "apns-channel-id" {
                    Self.set(&channelID, value, &duplicate)
                } else if name == "apns-request-id" {
                    Self.set(&requestID, value, &duplicate)
                }
            case 16:
                if name == "apns-collapse-id" { Self.set(&collapseID, value, &duplicate) }
            default:
                break
            }
        }
        if lengthsDisagree {
            contentLength = .invalid
        } else if let lengthText {
            if let n = Int(lengthText, radix: 10), n >= 0 { contentLength = .length(n) } else { contentLength = .invalid }
        }
    }

    @inline(__always)
    private static func set(_ slot: inout String?, _ value: String, _ duplicate: inout Bool) {
        if slot == nil { slot = value } else { duplicate = true }
    }

    /// `content-length` in any case, compared as the HTTP/2 layer compared it (HTTP/2 names are lowercase,
    /// but its check matched the name case-insensitively).
    static func isContentLength(_ name: String) -> Bool {
        if name == "content-length" { return true }
        return name.utf8.elementsEqual("content-length".utf8) { a, b in a & 0xDF == b & 0xDF }
    }

    /// Adds one `content-length` value's comma-separated, trimmed (spaces and tabs), non-empty parts.
    private static func gatherLength(_ value: String, into first: inout Substring?, disagree: inout Bool) {
        func add(_ text: Substring) {
            if let first {
                if first != text { disagree = true }
            } else {
                first = text
            }
        }
        // The common case: one plain number.
        if !value.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) {
            if !value.isEmpty { add(value[...]) }
            return
        }
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            var text = part
            while let c = text.first, c == " " || c == "\t" { text = text.dropFirst() }
            while let c = text.last, c == " " || c == "\t" { text = text.dropLast() }
            if !text.isEmpty { add(text) }
        }
    }
}
