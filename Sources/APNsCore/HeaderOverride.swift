/// Push headers one rule of a workload sets itself, over the run's: nil fields take the profile's push type,
/// topic, expiration and collapse id. The engine prebuilds one header list per override (a push's
/// ``OutgoingPush/kind``), so nothing is built per push; a value that differs from push to push (read from
/// an event's field, or made per push) is carried by the push itself (``OutgoingPush/headers``) and linked in
/// front of that list.
public struct HeaderOverride: Equatable, Sendable {
    public var pushType: PushType?
    public var topic: String?
    /// `apns-expiration` as seconds after the run's start; 0 sends 0 (deliver now or never).
    public var expirationSeconds: Int?
    public var collapseID: String?
    /// The headers that come from each push (``OutgoingPush/headers``), not from a constant, by slot.
    public var perPush = HeaderSlots()

    public init(pushType: PushType? = nil, topic: String? = nil, expirationSeconds: Int? = nil, collapseID: String? = nil) {
        self.pushType = pushType
        self.topic = topic
        self.expirationSeconds = expirationSeconds
        self.collapseID = collapseID
    }
}

/// One push kind of a run (``OutgoingPush/kind``): a part of the workload with one of its header sets, resolved
/// against the part's push type and app and the profile's expiration and collapse id.
public struct ResolvedPushKind: Equatable, Sendable {
    /// The part of the workload (its index in ``RunConfig/Workload/parts``).
    public var part: Int
    public var pushType: PushType
    public var topic: String
    /// `apns-expiration` as seconds after the run's start; nil sends none (or each push's, below).
    public var expirationSeconds: Int?
    public var collapseID: String?
    /// The headers whose value is each push's own (``HeaderOverride/perPush``): the kind's constant is nil.
    public var perPush = HeaderSlots()

    /// The kind's values the header rows read (``APNsHeader/constant(of:)``), expiration as seconds after the start.
    public func headerValues(priority: Priority = .immediate) -> KindHeaderValues {
        KindHeaderValues(pushType: pushType, topic: topic, priority: priority, expiration: expirationSeconds, collapseID: collapseID, perPush: perPush)
    }
}

extension RunConfig {
    /// The run's push kinds in order: each part's header sets (`overrides`, by part; a part without any has one,
    /// the profile's), so a push's kind is its part's first kind plus its set's index.
    public func pushKinds(overrides: [[HeaderOverride]]) -> [ResolvedPushKind] {
        workload.parts.enumerated().flatMap { i, part in
            (i < overrides.count ? overrides[i] : [HeaderOverride()]).map { o in
                let pushType = o.pushType ?? part.pushType
                // A header read from each push replaces the profile's constant, so the list carries neither.
                let expiration = o.expirationSeconds ?? payload.expiration.map { Int($0.millis / 1000) }
                return ResolvedPushKind(part: i, pushType: pushType, topic: o.topic ?? pushType.topic(bundleID: part.bundleID),
                                        expirationSeconds: o.perPush.contains(APNsHeaders.expiration) ? nil : expiration,
                                        collapseID: o.perPush.contains(APNsHeaders.collapseID) ? nil : o.collapseID ?? payload.collapseID,
                                        perPush: o.perPush)
            }
        }
    }
}
