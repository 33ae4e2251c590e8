/// One push kind of a run (``OutgoingPush/kind``): a part of the workload with one of its recipe's header
/// constants laid over the run's (``RunConfig/pushKinds(_:)``), so its push type and topic are always set.
public struct PushKind: Equatable, Sendable {
    /// The part of the workload (its index in ``RunConfig/Workload/parts``).
    public var part: Int
    /// What every push of the kind sends; `apns-expiration` as seconds after the run's start.
    public var headers: HeaderConstants

    public init(part: Int, headers: HeaderConstants) {
        self.part = part
        self.headers = headers
    }

    public var pushType: PushType { headers.text(APNsHeaders.pushType).flatMap(PushType.init(rawValue:)) ?? .alert }
    public var topic: String { headers.text(APNsHeaders.topic) ?? "" }
}

extension RunConfig {
    /// The run's own header constants for one part of the workload: its push type and topic, and the profile's
    /// expiration and collapse id.
    public func headerConstants(part i: Int) -> HeaderConstants {
        let part = workload.parts[i]
        var c = HeaderConstants([APNsHeaders.pushType: .text(part.pushType.rawValue),
                                 APNsHeaders.topic: .text(part.pushType.topic(bundleID: part.bundleID))])
        c[APNsHeaders.expiration] = payload.expirationSeconds.map(HeaderConstant.number)
        c[APNsHeaders.collapseID] = payload.collapseID.map(HeaderConstant.text)
        return c
    }

    /// The run's push kinds in order: each part's recipe constants (`recipes`, by part; a part without any has one,
    /// the run's own) over the part's (``headerConstants(part:)``), so a push's kind is its part's first kind
    /// plus its constants' index. A push type of the recipe's own brings its own topic.
    public func pushKinds(_ recipes: [[HeaderConstants]]) -> [PushKind] {
        workload.parts.indices.flatMap { i in
            (i < recipes.count ? recipes[i] : [HeaderConstants()]).map { own in
                var run = headerConstants(part: i)
                if let type = own.text(APNsHeaders.pushType).flatMap(PushType.init(rawValue:)) {
                    run[APNsHeaders.topic] = .text(type.topic(bundleID: workload.parts[i].bundleID))
                }
                return PushKind(part: i, headers: own.over(run))
            }
        }
    }
}
