/// The defaults of ``RunConfig``'s settings, read once from the `default` of each one's row in
/// ``RunSettings`` with the reader of its kind (``SettingText``): the table is the one place a default is
/// written, and `--help` states the value the configuration starts from. A default the reader refuses stops
/// the process at its first use, naming the row.
public enum RunDefaults {
    public static let target: Target = read(.target) { Target(argument: $0) }
    public static let pushType: PushType = read(.pushType) { try SettingText.choice(.pushType, $0) }
    public static let badLines: RunConfig.Workload.BadLinePolicy = read(.badLines) { try SettingText.choice(.badLines, $0) }
    public static let dateDecoding: RunConfig.DateDecoding = read(.dateDecoding) { try SettingText.choice(.dateDecoding, $0) }
    public static let delivery: RunConfig.Delivery = read(.delivery) { try SettingText.choice(.delivery, $0) }
    public static let connections = whole(.connections)
    public static let streams = whole(.streams)
    public static let workers = whole(.workers)
    public static let pushTimeout = duration(.pushTimeout)
    public static let failFast = duration(.failFast)
    public static let stallTimeout = duration(.stallTimeout)
    public static let tokenRefresh = duration(.tokenRefresh)
    public static let priority: Priority = read(.priority) { try SettingText.priority(.priority, $0) }
    public static let retryAttempts = whole(.retryAttempts)
    public static let retryBackoff = duration(.retryBackoff)
    public static let retryMaxElapsed = duration(.retryMaxElapsed)
    public static let reportInterval = duration(.reportInterval)
    public static let liveActivityBudget = whole(.liveActivityBudget)

    static func read<T>(_ key: ConfigKey, _ reader: (String) throws -> T?) -> T {
        let text = RunSettings[key].defaultValue
        do {
            if let value = try reader(text) { return value }
        } catch {
            preconditionFailure("the default of \(key) in RunSettings, '\(text)', is not one: \(error)")
        }
        preconditionFailure("the default of \(key) in RunSettings, '\(text)', is not one")
    }

    static func whole(_ key: ConfigKey) -> Int { read(key) { try SettingText.wholeNumber(key, $0) } }

    /// A duration default (`1s`, `5m`).
    static func duration(_ key: ConfigKey) -> Duration { read(key) { DurationText.setting($0) } }
}
