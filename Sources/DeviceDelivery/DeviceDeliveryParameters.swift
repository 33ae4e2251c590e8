import APNsCore

/// The numbers behind the device model. Apple documents the device's behaviour (priority 10 at once, 5 when
/// power allows, 1 only when it costs nothing; one stored push per app while offline; a per-activity budget of
/// priority-10 Live Activity updates) but publishes none of these figures: each default below says whether it
/// is Apple's statement or an assumption of this tool.
public struct DeviceDeliveryParameters: Sendable, Equatable, Codable {
    /// What iOS does with a priority-10 Live Activity update past its budget.
    public enum ThrottleAction: String, Sendable, Codable, CaseIterable {
        /// The update is not shown (counted `throttled`).
        case drop
        /// The update is shown once the budget has room again (counted as displayed late).
        case delay
    }

    /// A push displayed at most this long after its intended send is on time; later, late. Assumption: 1 s.
    public var onTimeMillis: Int64 = 1_000
    /// Mean time between a device's opportunistic wakes, at which priority-5 pushes are delivered (the wakes
    /// form a Poisson process). Assumption: 600 s.
    public var wakeIntervalSeconds: Double = 600
    /// A priority-1 push waits at least this long for an opportunistic wake, unless a priority-10 delivery
    /// wakes the device first. Assumption: 3,600 s.
    public var powerFirstDeferralSeconds: Double = 3_600
    /// Share of devices that go offline now and then. Assumption: 0 (every device always online).
    public var offlineShare: Double = 0
    /// Mean length of an online period of such a device (exponential). Assumption: 3,600 s.
    public var onlineSeconds: Double = 3_600
    /// Mean length of its offline periods (exponential). Assumption: 900 s.
    public var offlineSeconds: Double = 900
    /// How long APNs stores a push without `apns-expiration` for an offline device. Apple: 30 days.
    public var storageSeconds: Double = 30 * 86_400
    /// Priority-10 Live Activity updates an activity may get in an hour, refilled evenly. Assumption: 10.
    public var activityBudgetPerHour: Double = 10
    /// Updates an activity may get at once before the hourly refill limits it. Assumption: 10.
    public var activityBudgetBurst: Int = 10
    /// The app sets `NSSupportsLiveActivitiesFrequentUpdates` and the user allows it: the larger budget below.
    public var frequentUpdates = false
    /// The budget with frequent updates. Assumption: 60 an hour, 30 at once.
    public var frequentBudgetPerHour: Double = 60
    public var frequentBudgetBurst: Int = 30
    /// What happens to an update past the budget. Assumption: dropped.
    public var throttle: ThrottleAction = .drop
    /// Push-to-start pushes a token may get in an hour, and at once. Assumption (Apple's engineers speak of
    /// about 10 in a short time): 10 an hour, 10 at once.
    public var pushToStartPerHour: Double = 10
    public var pushToStartBurst: Int = 10
    /// How long an ended activity stays without a `dismissal-date`. Apple: up to 4 hours.
    public var endedActivitySeconds: Double = 4 * 3_600
    /// Seeds the per-device draws (wakes, offline periods), so that a model is the same in every run.
    public var seed: UInt64 = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case onTimeMillis = "on_time_ms", wakeIntervalSeconds = "wake_interval_seconds"
        case powerFirstDeferralSeconds = "power_first_deferral_seconds", offlineShare = "offline_share"
        case onlineSeconds = "online_seconds", offlineSeconds = "offline_seconds", storageSeconds = "storage_seconds"
        case activityBudgetPerHour = "activity_budget_per_hour", activityBudgetBurst = "activity_budget_burst"
        case frequentUpdates = "frequent_updates", frequentBudgetPerHour = "frequent_budget_per_hour"
        case frequentBudgetBurst = "frequent_budget_burst", throttle
        case pushToStartPerHour = "push_to_start_per_hour", pushToStartBurst = "push_to_start_burst"
        case endedActivitySeconds = "ended_activity_seconds", seed
    }

    /// The first value out of its range, as "key: what is wrong", or nil.
    public func problem() -> String? {
        let positive: [(String, Double)] = [
            ("wake_interval_seconds", wakeIntervalSeconds), ("power_first_deferral_seconds", powerFirstDeferralSeconds),
            ("online_seconds", onlineSeconds), ("offline_seconds", offlineSeconds), ("storage_seconds", storageSeconds),
            ("activity_budget_per_hour", activityBudgetPerHour), ("frequent_budget_per_hour", frequentBudgetPerHour),
            ("push_to_start_per_hour", pushToStartPerHour), ("ended_activity_seconds", endedActivitySeconds),
        ]
        if let (key, v) = positive.first(where: { !($0.1 > 0 && $0.1.isFinite) }) { return "\(key): must be above 0, found \(v)" }
        if !(0...1).contains(offlineShare) { return "offline_share: must be between 0 and 1, found \(offlineShare)" }
        if onTimeMillis < 0 { return "on_time_ms: must be at least 0, found \(onTimeMillis)" }
        let bursts = [("activity_budget_burst", activityBudgetBurst), ("frequent_budget_burst", frequentBudgetBurst),
                      ("push_to_start_burst", pushToStartBurst)]
        if let (key, v) = bursts.first(where: { $0.1 < 1 }) { return "\(key): must be at least 1, found \(v)" }
        return nil
    }
}
