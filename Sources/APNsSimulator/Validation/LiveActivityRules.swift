import APNsCore

/// Live Activity checks: the `aps` keys every liveactivity push needs, the
/// extra keys of a `start`, and the device-side budget of priority-10 pushes.
public struct LiveActivityRules: Sendable, Equatable {
    /// What to do with a liveactivity payload that lacks a required key.
    public enum MissingKeys: String, Sendable, Codable, CaseIterable {
        /// Answer 400 with `reason` (APNs documents no reason for it; the device would drop the push).
        case reject
        /// Answer 200 and count it as `liveactivity_malformed` (what APNs itself most likely does).
        case count
    }

    /// Default `.reject`, so a harness run shows a malformed payload at once.
    public var missingKeys: MissingKeys = .reject
    /// The reason of a rejected malformed payload. Default `BadPayload` (the simulator's own).
    public var reason = SimulatorConfiguration.simulatorBadPayload
    /// Priority-10 (or unprioritized) liveactivity pushes one activity token may get in each
    /// `budgetWindowSeconds` before the device would throttle; beyond, APNs still answers 200 and the
    /// simulator counts `liveactivity_budget_overruns`. Apple does not publish the size. Default 10; nil: no budget.
    public var priority10Budget: Int? = 10
    /// Default 3600 s.
    public var budgetWindowSeconds = 3600.0

    public init() {}

    /// Keys every liveactivity push's `aps` needs.
    public static let requiredKeys = ["event", "timestamp", "content-state"]
    /// Keys a `start` event's `aps` needs besides.
    public static let startKeys = ["alert", "attributes-type", "attributes"]

    /// `requiredKeys` then `startKeys`, as bytes: the keys a liveactivity payload's shape is read for
    /// (`PayloadShape.apsKeys` bit i is `watchedKeys[i]`).
    static let watchedKeys = (requiredKeys + startKeys).map { Array($0.utf8) }

    /// The first required key that is missing, or nil. `shape` was read watching `watchedKeys`.
    static func missingKey(_ shape: PayloadShape) -> String? {
        let keys = shape.apsKeys ?? PayloadShape.KeySet()
        for (i, k) in requiredKeys.enumerated() where !keys.contains(i) { return "aps.\(k)" }
        if shape.isStartEvent {
            for (i, k) in startKeys.enumerated() where !keys.contains(requiredKeys.count + i) { return "aps.\(k)" }
        }
        return nil
    }
}
