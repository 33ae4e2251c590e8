import APNsCore
import NIOCore
import NIOHPACK
import NIOHTTP2

// # Broadcast channels in the simulator (iOS 18+): the contract
//
// The validating simulator serves APNs' broadcast APIs beside `/3/device`, on the same host and port;
// the path tells them apart. (APNs serves channel management on its own hosts,
// `api-manage-broadcast[.sandbox].push.apple.com`, ports 2196 / 2195, and broadcasts on the normal
// push hosts; a client pointed at the simulator uses its one URL for all three.) Channels belong to
// the simulator's one environment and live as long as it does, until deleted. Sources: Apple's
// "Sending channel management requests to APNs", "Sending broadcast push notification requests to
// APNs" and "Handling error responses from Apple Push Notification service".
//
// ## Answers
//
// Every answer, success or error, carries `apns-request-id`: the request's own when it sent a
// well-formed one (canonical UUID, 8-4-4-4-12 hex), otherwise a new lowercase UUID. Errors are the status
// with `content-type: application/json` and `{"reason":"<Reason>"}`. No answer carries `apns-id`.
//
// Each request and its success:
// - `POST /1/apps/<bundle>/channels`, body `{"message-storage-policy": 0|1, "push-type": "LiveActivity"}`:
//   **201**, `apns-channel-id: <id>`, empty body
// - `GET /1/apps/<bundle>/channels`, `apns-channel-id: <id>`:
//   **200**, `content-type: application/json`, `{"message-storage-policy":N,"push-type":"LiveActivity"}`
// - `DELETE /1/apps/<bundle>/channels`, `apns-channel-id: <id>`: **204**, empty body
// - `GET /1/apps/<bundle>/all-channels`: **200**, `content-type: application/json`, `{"channels":["<id>",...]}` (oldest first)
// - `POST /4/broadcasts/apps/<bundle>` (headers below), body ≤ 5120 bytes: **200**, `apns-unique-id: <uuid>`, empty body
//
// A channel id is standard base64 with padding of 16 random bytes (24 characters, e.g.
// `q83vASNFZ4mrze8BI0VniQ==`), never reused, even after deletion. Send it back byte for byte.
// At most `BroadcastSettings.channelLimitPerBundle` channels per app (default 10,000, Apple's); a
// delete frees a slot. A broadcast needs `apns-channel-id`, `apns-push-type: liveactivity` (any case),
// `apns-priority` 10, 5 or 1, `apns-expiration` (epoch seconds, 0 = no storage; must be 0 on a
// policy-0 channel), the provider token, and a JSON-object payload of at most 5120 bytes.
// Request bodies of GET and DELETE are ignored. `apns-topic` is not read on these paths: the bundle is
// the path's.
//
// ## Checks, in order, and their reasons
//
// 1. Path: not one of the four shapes above (e.g. `/1/apps/<bundle>/channel`, an empty bundle) → 404
//    `BadPath`. Method the path does not take (e.g. `PUT …/channels`, `POST …/all-channels`,
//    `GET /4/broadcasts/…`) → 405 `MethodNotAllowed`.
// 2. Headers: a repeated single-valued header (incl. `apns-channel-id`, `apns-request-id`) → 400
//    `DuplicateHeaders`; a malformed `apns-request-id` or `apns-id` → 400 `BadMessageId`.
//    Broadcast only: no `apns-push-type` → 400 `MissingPushType`; not `liveactivity` → 400
//    `InvalidPushType`; `apns-priority` absent or not 10/5/1 → 400 `BadPriority`; `apns-expiration`
//    absent or not a non-negative integer → 400 `BadExpirationDate`. (Apple names no reason for an
//    absent priority or expiration; the simulator answers the header's Bad… reason.)
//    Read, delete, broadcast: no `apns-channel-id` → 400 `MissingChannelId`; empty, not canonical
//    standard base64 (padding included, no stray `=`), or over 64 bytes decoded → 400 `BadChannelId`
//    (64 is the simulator's choice; Apple says only "greater than the allowed length").
// 3. Bundle: not a plausible bundle id, or ending in a push-type suffix such as
//    `.push-type.liveactivity` → 400 `TopicDisallowed`.
// 4. Provider token: the same rules and per-connection state as `/3/device` → 403
//    `MissingProviderToken`, `InvalidProviderToken`, `ExpiredProviderToken`, `Forbidden`,
//    `UnrelatedKeyIdInToken`, `BadEnvironmentKeyIdInToken`; 429 `TooManyProviderTokenUpdates`. A valid
//    token raises the connection's stream limit as a push does.
// 5. The token's team may not use the bundle (`SimulatorConfiguration.topicsByTeam`) → 403 `TopicMismatch`.
// 6. The bundle lacks the broadcast capability (`BroadcastSettings.enabledBundleIDs`) → 400 `FeatureNotEnabled`.
// 7. The operation:
//    - create: empty body → 400 `PayloadEmpty`; not JSON or not an object → 400 `BadRequestPayload`;
//      an unknown key → 400 `BadRequestParams`; no `message-storage-policy` → 400
//      `MissingMessageStoragePolicy` (**not in Apple's published list**: the simulator's own, after
//      Apple's `MissingPushType`); a policy that is not the integer 0 or 1 → 400 `BadRequestParams`;
//      no `push-type` → 400 `MissingPushType`; not `LiveActivity` (any case) → 400 `InvalidPushType`;
//      the app at its channel limit → 400 `CannotCreateChannelConfig`.
//    - read, delete: no such channel of this bundle (never created, deleted, or another app's) →
//      400 `ChannelNotRegistered`.
//    - broadcast: empty payload → 400 `PayloadEmpty`; over 5120 bytes → 413 `PayloadTooLarge`; not a
//      JSON object → 400 `BadRequestPayload`; a Live Activity key missing (`aps.event`, `timestamp`,
//      `content-state`) → as `/3/device` liveactivity pushes (`LiveActivityRules`: 400 `BadPayload`, the
//      simulator's own, or accepted and counted); no such channel of this bundle → 400
//      `ChannelNotRegistered`; a non-zero `apns-expiration` on a policy-0 channel → 400 `BadExpirationDate`.
//
// Injected faults (latency, 500/503/`Shutdown`, resets, stalls, GOAWAY) apply as to pushes; a request
// whose answer a fault replaces changes nothing (no channel created or deleted, no delivery counted).
// Fast mode answers 200 with `apns-id` to everything, these paths included, and keeps no channels.
//
// ## Subscribers and counters
//
// `APNsSimulator.channels` (`ChannelStore`) holds the channels and their subscribers:
// `subscribe(channelID:tokens:)` stands for devices whose activity started with `input-push-channel`.
// A 200 broadcast counts `SimulatorCounters.broadcasts` + 1 and `broadcastDeliveries` + the channel's
// subscriber count; rejections count in `broadcastsRejected`; management answers in `channelRequests`
// (`created`, `read`, `deleted`, `listed` or the reason), with `channelsCreated` and `channelsDeleted`.
// None of them count in `requests`, `accepted` or `rejected` (pushes to `/3/device` only).

/// Turns a broadcast-API answer into HTTP/2 frames and counts it (the contract is above).
enum ChannelRequests {
    static let json = "application/json"

    /// The frames of `answer` on `streamID`. `uniqueID` is called for a 200 broadcast only.
    static func frames(_ answer: ChannelAnswer, streamID: HTTP2StreamID, requestID: String,
                       uniqueID: () -> String) -> [HTTP2Frame] {
        var headers: HPACKHeaders
        var body: String?
        switch answer.outcome {
        case let .success(success):
            headers = [":status": String(success.status)]
            headers.add(name: "apns-request-id", value: requestID, indexing: .nonIndexable)
            switch success {
            case let .created(channelID): headers.add(name: "apns-channel-id", value: channelID, indexing: .nonIndexable)
            case .broadcast: headers.add(name: "apns-unique-id", value: uniqueID(), indexing: .nonIndexable)
            case let .read(json), let .listed(json):
                headers.add(name: "content-type", value: Self.json)
                body = json
            case .deleted: break
            }
        case let .rejected(reason):
            headers = [":status": String(reason.status)]
            headers.add(name: "apns-request-id", value: requestID, indexing: .nonIndexable)
            headers.add(name: "content-type", value: Self.json)
            body = reason.responseBody
        case .pending:
            preconditionFailure("a pending operation is carried out before it is answered")
        }
        guard let body else {
            return [HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: true)))]
        }
        return [
            HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers))),
            HTTP2Frame(streamID: streamID, payload: .data(.init(data: .byteBuffer(ByteBuffer(string: body)), endStream: true))),
        ]
    }

    /// Counts an answered request (see "Subscribers and counters" above).
    static func count(_ answer: ChannelAnswer, into c: inout SimulatorCounters) {
        switch (answer.api, answer.outcome) {
        case let (.broadcast, .success(.broadcast(subscribers))):
            c.broadcasts += 1
            c.broadcastDeliveries += subscribers
        case let (.broadcast, .rejected(reason)):
            c.broadcastsRejected[reason.rawValue, default: 0] += 1
        case let (.management, .rejected(reason)):
            c.channelRequests[reason.rawValue, default: 0] += 1
        case let (.management, .success(success)):
            switch success {
            case .created:
                c.channelsCreated += 1
                c.channelRequests["created", default: 0] += 1
            case .deleted:
                c.channelsDeleted += 1
                c.channelRequests["deleted", default: 0] += 1
            case .read: c.channelRequests["read", default: 0] += 1
            case .listed: c.channelRequests["listed", default: 0] += 1
            case .broadcast: break
            }
        case (.broadcast, .success), (_, .pending):
            break
        }
    }
}
