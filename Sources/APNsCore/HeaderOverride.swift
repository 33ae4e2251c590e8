/// Push headers one rule of a workload sets itself, over the run's: nil fields take the profile's push type,
/// topic, expiration and collapse id. The engine prebuilds one header list per override (a push's
/// ``OutgoingPush/kind``), so nothing is built per push.
public struct HeaderOverride: Equatable, Sendable {
    public var pushType: PushType?
    public var topic: String?
    /// `apns-expiration` as seconds after the run's start; 0 sends 0 (deliver now or never).
    public var expirationSeconds: Int?
    public var collapseID: String?

    public init(pushType: PushType? = nil, topic: String? = nil, expirationSeconds: Int? = nil, collapseID: String? = nil) {
        self.pushType = pushType
        self.topic = topic
        self.expirationSeconds = expirationSeconds
        self.collapseID = collapseID
    }
}
