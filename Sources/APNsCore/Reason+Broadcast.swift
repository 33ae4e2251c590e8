/// The reasons only the broadcast APIs (iOS 18+) answer with: channel management
/// (`/1/apps/<bundle>/channels`, `/1/apps/<bundle>/all-channels`) and broadcast sends
/// (`/4/broadcasts/apps/<bundle>`).
///
/// Source: Apple's "Handling error responses from Apple Push Notification service"
/// (developer.apple.com/documentation/usernotifications/handling-error-responses-from-apns), the error
/// table of the broadcast APIs. Every row here is in that table with this status and spelling. The
/// table also lists reasons `/3/device` uses (PayloadEmpty, BadMessageId, InvalidPushType,
/// BadExpirationDate, TopicDisallowed, BadPriority, the 403 token reasons, BadPath, MethodNotAllowed,
/// PayloadTooLarge, TooManyRequests, TooManyProviderTokenUpdates, InternalServerError, Shutdown, and
/// "Service Unavailable", spelled with a space there, which is taken to be `ServiceUnavailable`); those
/// keep their rows in `Reason.swift`.
extension Reason {
    // MARK: 400
    /// Broadcast is not enabled for the app (the topic has no broadcast capability).
    public static let featureNotEnabled = Reason(rawValue: "FeatureNotEnabled", status: 400, handling: .configuration)
    /// The request has no `apns-channel-id` header.
    public static let missingChannelId = Reason(rawValue: "MissingChannelId", status: 400, handling: .fixRequest)
    /// `apns-channel-id` is not properly base64-encoded, or is longer than allowed.
    public static let badChannelId = Reason(rawValue: "BadChannelId", status: 400, handling: .fixRequest)
    /// The channel in `apns-channel-id` does not exist (never created, or deleted).
    public static let channelNotRegistered = Reason(rawValue: "ChannelNotRegistered", status: 400, handling: .fixRequest)
    /// The JSON request body has an attribute APNs does not recognize.
    public static let badRequestParams = Reason(rawValue: "BadRequestParams", status: 400, handling: .fixRequest)
    /// The JSON request body cannot be parsed.
    public static let badRequestPayload = Reason(rawValue: "BadRequestPayload", status: 400, handling: .fixRequest)
    /// The push type (the `apns-push-type` header, or a channel's `push-type` attribute) is missing.
    public static let missingPushType = Reason(rawValue: "MissingPushType", status: 400, handling: .fixRequest)
    /// The app has reached its channel limit (10,000 per environment): delete channels it no longer uses.
    public static let cannotCreateChannelConfig = Reason(rawValue: "CannotCreateChannelConfig", status: 400, handling: .configuration)
    // MARK: 403
    /// The bundle ids the provider token (or certificate) covers do not include the bundle in the path.
    public static let topicMismatch = Reason(rawValue: "TopicMismatch", status: 403, handling: .configuration)

    /// The reasons only the broadcast APIs answer with, grouped by status (part of `all`).
    public static let broadcastOnly: [Reason] = [
        .featureNotEnabled, .missingChannelId, .badChannelId, .channelNotRegistered, .badRequestParams,
        .badRequestPayload, .missingPushType, .cannotCreateChannelConfig,
        .topicMismatch,
    ]
}
