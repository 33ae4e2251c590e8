import APNsCore

/// The flag of `run` and `sweep` that sets each run setting the command line sets: one entry per row of ``RunSettings``
/// whose value the command line lays over the profile (``RunSetting/overlay``). The command line names its options from
/// it, and the configuration's errors about a value a flag gave name the flag here (``message(_:)``): APNsCore's errors
/// carry the setting's key only.
public enum RunSettingFlags {
    /// Each flag, by key: the key's name with dashes (`--fail-fast` for `fail_fast`) unless spelled here.
    public static let name: [ConfigKey: String] = {
        let spelled: [ConfigKey: String] = [.schedule: "--closed-loop", .loopRecording: "--loop"]
        let keys: [ConfigKey] = [
            .target, .delivery, .keepChannels, .connections, .streams, .workers, .failFast, .stallTimeout,
            .priority, .priorityOverride, .expiration, .collapseID,
            .schedule, .speed, .rate, .ramp, .duration, .loopRecording, .coalesce,
            .retryAttempts,
            .sloP99, .sloMinDelivered, .sloMaxErrorShare, .sloMaxWouldNotDecode, .sloP99TimeToDevice, .sloMaxThrottledShare,
            .reportInterval, .liveActivityBudget, .fastSimulator, .apnsModel, .allowProductionLoad, .shard,
        ]
        return Dictionary(uniqueKeysWithValues: keys.map { ($0, spelled[$0] ?? "--" + $0.rawValue.replacingOccurrences(of: "_", with: "-")) })
    }()

    /// The flag of `key`'s setting; nil when only the profile sets it.
    public static subscript(_ key: ConfigKey) -> String? { name[key] }

    /// A configuration error about a value a flag gave, as the command line's user reads it:
    /// `--connections must be between 1 and 64, found 65` (the profile key for a setting without a flag).
    public static func message(_ error: RunConfigError) -> String { "\(self[error.key] ?? error.key.profileKey) \(error.problem)" }
}
