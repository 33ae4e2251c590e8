import APNsCore

/// The rows of ``ValidationRule``, in the order `RequestValidator` checks them, and what they are measured
/// against: the good request and the base setup.
public enum ValidationRules {
    /// The good push's device token; the devices file lists three others.
    public static let goodToken = String(repeating: "0a", count: 32)
    public static let otherAppsToken = String(repeating: "0b", count: 32)
    public static let unregisteredToken = String(repeating: "0c", count: 32)
    public static let expiredToken = String(repeating: "0d", count: 32)

    /// The base setup's devices file (`devices: { file: devices.txt }`).
    public static let devicesFile = [
        "\(otherAppsToken) com.example.other",
        "\(unregisteredToken) com.example.app Unregistered",
        "\(expiredToken) com.example.app ExpiredToken",
    ]

    /// The good push, accepted under the base setup: its headers in order, and its body.
    public static let goodRequest: (headers: [(String, String)], body: String) = (
        [(":method", "POST"), (":scheme", "https"), (":path", "/3/device/" + goodToken), ("apns-topic", "com.example.app"),
         ("apns-push-type", "alert"), ("apns-priority", "10"), ("authorization", "bearer <key A's token>")],
        #"{"aps":{"alert":"hi"}}"#
    )

    /// What the devices file says of a token, for the table.
    static func tokenNote(_ token: String) -> String {
        switch token {
        case otherAppsToken: return "listed for `com.example.other`"
        case unregisteredToken: return "listed `Unregistered`"
        case expiredToken: return "listed `ExpiredToken`"
        default: return "not listed"
        }
    }

    /// Reasons the validator's source names that `apnsbench simulate` cannot reach, and why.
    public static let unreachable: [(reason: Reason, why: String)] = [
        (.badEnvironmentKeyIdInToken, "a key registered for one environment only; `simulate --key-path` registers keys for both"),
    ]

    typealias R = ValidationRule
    static let liveActivityTopic = "com.example.app.push-type.liveactivity"

    public static let all: [ValidationRule] = [
        R(.method, .methodNotAllowed, "`:method` is not `POST`", [.header(":method", .text("GET"))]),
        R(.path, .badPath, "`:path` is not under `/3/device/`", [.header(":path", .text("/3/notify"))]),
        R(.path, .missingDeviceToken, "`:path` is `/3/device/` or `/3/device` (no token)", [.header(":path", .text("/3/device/"))]),
        R(.path, .badDeviceToken, "the token is not 64 to 200 hex digits, an even number", [.header(":path", .text("/3/device/xyz"))]),
        R(.headers, .duplicateHeaders, "a single-valued header (\(RequestValidator.singleValued.map { "`\($0)`" }.joined(separator: ", "))) comes twice",
          [.headerTwice("apns-topic")]),
        R(.headers, .badMessageId, "`apns-id` is not a UUID in canonical form", [.header("apns-id", .text("not-a-uuid"))]),
        R(.headers, .invalidPushType, "`apns-push-type` is not an APNs push type", [.header("apns-push-type", .text("telepathy"))]),
        R(.headers, .badPriority, "`apns-priority` is not 1, 5 or 10", [.header("apns-priority", .text("7"))]),
        R(.headers, .badPriority, "priority 10 on a `background` push",
          [.header("apns-push-type", .text("background")), .header("apns-priority", .text("10"))]),
        R(.headers, .badExpirationDate, "`apns-expiration` is not a whole number of at least 0", [.header("apns-expiration", .text("soon"))]),
        R(.headers, .badCollapseId, "`apns-collapse-id` is over 64 bytes (64 pass)", [.header("apns-collapse-id", .repeated("c", count: 65))]),
        R(.headers, .missingTopic, "no `apns-topic`, or an empty one", [.header("apns-topic", nil)]),
        R(.headers, .badTopic, "the topic is not a bundle id (letters, digits, `-`, `.`, `_`; no dot first or last)",
          [.header("apns-topic", .text("com.example app"))]),
        R(.headers, .badTopic, "the topic lacks its push type's suffix (`liveactivity`: `.push-type.liveactivity`, `voip`: `.voip`, …)",
          [.header("apns-push-type", .text("liveactivity"))]),
        R(.headers, .badTopic, "the topic has a suffix its push type does not take (`alert`, `background`, `mdm` take none)",
          [.header("apns-topic", .text(liveActivityTopic))]),
        R(.providerToken, .missingProviderToken, "no `authorization`", [.token(.absent)]),
        R(.providerToken, .missingProviderToken, "`authorization` is not `bearer ` and a token", [.token(.notBearer)]),
        R(.providerToken, .invalidProviderToken, "the token is not a JWT", [.token(.notAJWT)]),
        R(.providerToken, .invalidProviderToken, "its `kid` is not a registered key", [.token(.unknownKey)]),
        R(.providerToken, .invalidProviderToken, "its `iss` is not its key's team", [.token(.otherTeamsKeyID)]),
        R(.providerToken, .invalidProviderToken, "its ES256 signature does not verify with its key", [.token(.badSignature)]),
        R(.providerToken, .expiredProviderToken, "its `iat` is older than `provider_token_lifetime` (1h)", [.token(.issuedOverAnHourAgo)]),
        R(.providerToken, .forbidden, "another team's token on a connection bound to a team", [.token(.otherTeamAfterFirst)], first: []),
        R(.providerToken, .unrelatedKeyIdInToken, "another key's token on a connection bound to a key", [.token(.otherKeyAfterFirst)], first: []),
        R(.providerToken, .tooManyProviderTokenUpdates,
          "a new token within `provider_token_min_rotation` (20m) of the last; then every request on the connection "
            + "for `token_update_penalty` (20m)", [.token(.newSigningAfterFirst)], first: []),
        R(.topicForTeam, .topicDisallowed, "the topic's bundle id (the topic less its push type's suffix) is not the team's "
            + "(`--bundle-id`, `topics:`; any when neither is given)", [.header("apns-topic", .text("com.example.other"))]),
        R(.topicForTeam, .topicDisallowed, "the same for a Live Activity: its bundle id is `com.example.other`",
          [.header("apns-push-type", .text("liveactivity")), .header("apns-topic", .text("com.example.other.push-type.liveactivity"))]),
        R(.payload, .payloadEmpty, "no body", [.body(.empty)]),
        R(.payload, .payloadTooLarge, "over 4,096 bytes (5,120 for `voip`)", [.body(.alertOfBytes(4097))]),
        R(.payload, SimulatorConfiguration.simulatorBadPayload, "not a JSON object (the simulator's own reason; APNs documents none)",
          [.body(.text(#"{"aps":"#))]),
        R(.payload, SimulatorConfiguration.simulatorBadPayload,
          "a Live Activity without `aps.event`, `aps.timestamp` or `aps.content-state` (a `start` also needs `alert`, `attributes-type`, "
            + "`attributes`), under `live_activity.missing_keys: reject` (the default; `count` accepts it)",
          [.header("apns-push-type", .text("liveactivity")), .header("apns-topic", .text(liveActivityTopic)),
           .body(.text(#"{"aps":{"event":"update","timestamp":1}}"#))]),
        R(.deviceRegistry, .deviceTokenNotForTopic, "the devices file lists the token for another bundle id", [.deviceToken(otherAppsToken)]),
        R(.deviceRegistry, .unregistered, "the devices file lists the token `Unregistered` (410, with its timestamp)", [.deviceToken(unregisteredToken)]),
        R(.deviceRegistry, .expiredToken, "the devices file lists the token `ExpiredToken` (410, with its timestamp)", [.deviceToken(expiredToken)]),
        R(.deviceRegistry, .expiredToken, "the token is dead by `devices.dead_fraction`, with `devices.dead_reason`", [],
          config: "devices: { dead_fraction: 1, dead_reason: ExpiredToken }"),
        R(.deviceRegistry, .badDeviceToken, "a token the devices file does not list, when `devices.unknown_token_reason` names a reason", [],
          config: "devices: { file: devices.txt, unknown_token_reason: BadDeviceToken }"),
        R(.deviceRegistry, .tooManyRequests, "more than `devices.rate_limit.pushes` to one token in its window", [], first: [],
          config: "devices: { rate_limit: { pushes: 1, window: 1m } }"),
    ]

    public static let markdownHeader = "| step | reason | status | rule | the request that gets it |\n|:--|:--|--:|:--|:--|"

    /// docs/simulator.md's validation table.
    public static var markdownTable: String {
        ([markdownHeader] + all.map(\.markdownRow)).joined(separator: "\n")
    }
}
