import APNsCore

/// What one connection has learned about provider tokens: the team and key its first accepted push bound
/// it to, and the token it uses now. APNs applies its token rules per connection.
public struct ConnectionAuthState: Sendable {
    /// Set by the first push with a valid token.
    public internal(set) var boundTeamID: String?
    public internal(set) var boundKeyID: String?
    /// The token text (after `bearer `) last accepted on this connection, and its `iat`.
    public internal(set) var currentToken: String?
    public internal(set) var currentTokenIssuedAt = 0
    /// The whole `authorization` value that carried `currentToken`.
    public internal(set) var currentAuthorization: String?
    /// Clock time at which this connection started using `currentToken`.
    public internal(set) var currentTokenSince: Double = 0
    /// Tokens verified (signature checked) on this connection; a token seen again is not re-verified.
    public internal(set) var verifications = 0
    /// Set by `TooManyProviderTokenUpdates`: until this clock time every request on the connection gets it.
    public internal(set) var refusingUntil: Double?

    /// The last topic that passed the topic checks on this connection (a connection sends the same topic
    /// again and again): the checks are pure functions of topic, push type and team, so they are not
    /// repeated for it.
    var topicMemo: TopicMemo?

    public init() {}

    /// Whether a request with a valid provider token has been accepted here (the stream limit rises then).
    public var isAuthenticated: Bool { boundTeamID != nil }
}

/// A topic that passed `BadTopic`'s checks for a push type, its bundle id, and the team it passed
/// `TopicDisallowed` for (nil: not checked yet).
struct TopicMemo: Sendable {
    var topic: String
    var type: PushType
    var bundleID: String
    var allowedForTeam: String?
}
