import APNsCore
import NIOCore

/// The simulator's answer to one broadcast-API request, before it becomes frames
/// (`ChannelRequests.swift`) and counts.
struct ChannelAnswer: Equatable {
    enum Success: Equatable {
        /// 201 with `apns-channel-id`.
        case created(channelID: String)
        /// 200 with the channel's configuration as JSON.
        case read(body: String)
        /// 204.
        case deleted
        /// 200 with `{"channels": [...]}`.
        case listed(body: String)
        /// 200 with `apns-unique-id`; the broadcast reached this many subscribers.
        case broadcast(subscribers: Int)

        var status: Int {
            switch self {
            case .created: return 201
            case .deleted: return 204
            case .read, .listed, .broadcast: return 200
            }
        }
    }

    /// What a validated request will do to the store, once the connection's rules (faults) let it.
    enum Operation: Equatable {
        case create(bundleID: String, policy: MessageStoragePolicy)
        case read(bundleID: String, channelID: String)
        case delete(bundleID: String, channelID: String)
        case list(bundleID: String)
        case broadcast(bundleID: String, channelID: String, expiration: Int)
    }

    enum Outcome: Equatable {
        /// Valid: carry it out with `ChannelRequestValidator.carryOut` (unless a fault replaces the answer,
        /// so that a request answered 503 or never answered changes nothing).
        case pending(Operation)
        case success(Success)
        case rejected(Reason)
    }

    var api: ChannelRoute.API
    var outcome: Outcome
    /// The request's `apns-request-id` when it sent a well-formed one (echoed); nil: answer a new one.
    var requestID: String?
    /// A broadcast payload missing a Live Activity key, accepted (`LiveActivityRules.MissingKeys.count`).
    var malformedLiveActivity = false

    /// Valid so far (pending) or carried out: not a rejection.
    var isValid: Bool { if case .rejected = outcome { return false }; return true }
}

/// Validates channel-management and broadcast requests and carries them out on the channel store, in a
/// fixed order like `RequestValidator`'s (Apple documents none): path and method → headers → bundle →
/// provider token (the same rules and connection state as `/3/device`) → the token's topics → the
/// app's broadcast capability → what the operation needs (body, room under the limit, the channel).
/// Two steps: `evaluate` decides, reading the store but changing nothing; `carryOut` changes it (and
/// checks again, atomically: another connection may have got there first). No I/O apart from the
/// store: tested without sockets. The reasons and their causes are listed in `ChannelRequests.swift`.
struct ChannelRequestValidator {
    let validator: RequestValidator
    let channels: ChannelStore

    /// The largest broadcast payload, in bytes (Apple: "limited to a maximum size of 5 KB (5,120 bytes)").
    static let broadcastPayloadLimit = 5120

    var configuration: SimulatorConfiguration { validator.configuration }

    func evaluate(_ fields: RequestHeaderFields, body: ByteBuffer, auth: inout ConnectionAuthState) -> ChannelAnswer {
        let api = ChannelRoute.api(ofPath: fields.path) ?? .management
        var answer = ChannelAnswer(api: api, outcome: .rejected(.badPath))
        // A well-formed request id is echoed whatever the answer.
        if let id = fields.requestID, UUIDText.isCanonical(id.utf8) { answer.requestID = id }
        answer.outcome = outcome(fields, body: body, auth: &auth, malformed: &answer.malformedLiveActivity)
        return answer
    }

    private func outcome(_ fields: RequestHeaderFields, body: ByteBuffer, auth: inout ConnectionAuthState,
                         malformed: inout Bool) -> ChannelAnswer.Outcome {
        // 1. Path and method.
        let route: ChannelRoute
        switch ChannelRoute.parse(method: fields.method, path: fields.path ?? "") {
        case let .valid(r): route = r
        case let .refused(reason): return .rejected(reason)
        }

        // 2. Headers.
        let expiration: Int
        switch headerExpiration(fields, route: route) {
        case let .valid(e): expiration = e
        case let .refused(reason): return .rejected(reason)
        }
        let bundleID = route.bundleID
        // Apple: "Ensure that no push type suffix is added to the bundle ID."
        guard RequestValidator.isPlausibleTopic(bundleID), PushType.suffixType(ofTopic: bundleID) == nil else {
            return .rejected(.topicDisallowed)
        }

        // 3. Provider token, then the bundle ids it covers.
        if let reason = validator.checkProviderToken(fields.authorization, auth: &auth) { return .rejected(reason) }
        if let allowed = configuration.topicsByTeam[auth.boundTeamID ?? ""], !allowed.contains(bundleID) {
            return .rejected(.topicMismatch)
        }
        guard configuration.broadcast.isEnabled(bundleID) else { return .rejected(.featureNotEnabled) }

        // 4. The operation, checked against the store as it is now.
        return operation(route, bundleID: bundleID, channelID: fields.channelID ?? "", expiration: expiration, body: body, malformed: &malformed)
    }

    /// Step 2: the headers in APNs' order; valid with a broadcast's `apns-expiration` (0 for the channel API's other calls).
    private func headerExpiration(_ fields: RequestHeaderFields, route: ChannelRoute) -> Checked<Int> {
        if fields.duplicate { return .refused(.duplicateHeaders) }
        if let id = fields.requestID, !UUIDText.isCanonical(id.utf8) { return .refused(.badMessageId) }
        if let id = fields.apnsID, !UUIDText.isCanonical(id.utf8) { return .refused(.badMessageId) }
        var expiration = 0
        if case .broadcast = route {
            guard let type = fields.pushType else { return .refused(.missingPushType) }
            guard type.lowercased() == PushType.liveactivity.rawValue else { return .refused(.invalidPushType) }
            guard let p = fields.priority.flatMap({ Int($0) }), Priority(rawValue: p) != nil else { return .refused(.badPriority) }
            guard let e = fields.expiration.flatMap({ Int($0) }), e >= 0 else { return .refused(.badExpirationDate) }
            expiration = e
        }
        switch route {
        case .read, .delete, .broadcast:
            guard let id = fields.channelID else { return .refused(.missingChannelId) }
            guard ChannelTable.isWellFormedID(id) else { return .refused(.badChannelId) }
        case .create, .list:
            break
        }
        return .valid(expiration)
    }

    /// Step 4: the operation, checked against the store as it is now.
    private func operation(_ route: ChannelRoute, bundleID: String, channelID: String, expiration: Int, body: ByteBuffer,
                           malformed: inout Bool) -> ChannelAnswer.Outcome {
        switch route {
        case .create:
            switch ChannelCreateBody.parse(body) {
            case let .refused(reason): return .rejected(reason)
            case let .valid(policy):
                guard channels.hasRoom(bundleID: bundleID) else { return .rejected(.cannotCreateChannelConfig) }
                return .pending(.create(bundleID: bundleID, policy: policy))
            }
        case .read, .delete:
            guard channels.channel(id: channelID, bundleID: bundleID) != nil else { return .rejected(.channelNotRegistered) }
            if case .read = route { return .pending(.read(bundleID: bundleID, channelID: channelID)) }
            return .pending(.delete(bundleID: bundleID, channelID: channelID))
        case .list:
            return .pending(.list(bundleID: bundleID))
        case .broadcast:
            if let reason = payloadReason(body, malformed: &malformed) { return .rejected(reason) }
            guard let channel = channels.channel(id: channelID, bundleID: bundleID) else { return .rejected(.channelNotRegistered) }
            if channel.storagePolicy == .noMessageStored, expiration != 0 { return .rejected(.badExpirationDate) }
            return .pending(.broadcast(bundleID: bundleID, channelID: channelID, expiration: expiration))
        }
    }

    /// Carries out a validated operation on the store: the answer, or the rejection the store gives now.
    func carryOut(_ operation: ChannelAnswer.Operation) -> ChannelAnswer.Outcome {
        switch operation {
        case let .create(bundleID, policy):
            guard let channel = try? channels.create(bundleID: bundleID, policy: policy) else { return .rejected(.cannotCreateChannelConfig) }
            return .success(.created(channelID: channel.id))
        case let .read(bundleID, channelID):
            guard let channel = channels.channel(id: channelID, bundleID: bundleID) else { return .rejected(.channelNotRegistered) }
            return .success(.read(body: Self.configurationJSON(channel)))
        case let .delete(bundleID, channelID):
            guard channels.delete(id: channelID, bundleID: bundleID) else { return .rejected(.channelNotRegistered) }
            return .success(.deleted)
        case let .list(bundleID):
            return .success(.listed(body: Self.listJSON(channels.channelIDs(bundleID: bundleID))))
        case let .broadcast(bundleID, channelID, expiration):
            switch channels.broadcast(bundleID: bundleID, channelID: channelID, expiration: expiration) {
            case .notRegistered: return .rejected(.channelNotRegistered)
            case .expirationRefused: return .rejected(.badExpirationDate)
            case let .delivered(subscribers): return .success(.broadcast(subscribers: subscribers))
            }
        }
    }

    /// A broadcast payload's reason, or nil: empty, over 5120 bytes, not a JSON object, a Live Activity
    /// key missing (as `/3/device` liveactivity pushes: rejected or counted, `LiveActivityRules`).
    private func payloadReason(_ body: ByteBuffer, malformed: inout Bool) -> Reason? {
        let size = body.readableBytes
        if size == 0 { return .payloadEmpty }
        if size > Self.broadcastPayloadLimit { return .payloadTooLarge }
        // A tape of its own (one allocation, as the keys' Set was): broadcasts are rare next to pushes.
        var tape = JSONTape()
        let shape = body.withUnsafeReadableBytes { PayloadShape($0, watching: LiveActivityRules.watchedKeys, tape: &tape) }
        guard shape.isObject else { return .badRequestPayload }
        if LiveActivityRules.missingKey(shape) != nil {
            if configuration.liveActivity.missingKeys == .reject { return configuration.liveActivity.reason }
            malformed = true
        }
        return nil
    }

    /// `{"message-storage-policy":N,"push-type":"LiveActivity"}`
    static func configurationJSON(_ channel: BroadcastChannel) -> String {
        #"{"message-storage-policy":\#(channel.storagePolicy.rawValue),"push-type":"\#(ChannelCreateBody.liveActivity)"}"#
    }

    /// `{"channels":["id",...]}` (ids are base64: nothing in them needs escaping).
    static func listJSON(_ ids: [String]) -> String {
        #"{"channels":["# + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
    }
}
