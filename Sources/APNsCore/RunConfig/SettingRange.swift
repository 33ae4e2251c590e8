/// The numbers a setting's value must lie between, as its row in ``RunSettings`` states them: `--help`
/// prints them (``text``) and the configuration's check reads them. The lower end is included; the upper
/// end too unless `belowUpper`.
public struct SettingRange: Sendable, Equatable {
    public let lower: Double
    public let upper: Double
    /// The value must stay below ``upper`` (APNs' hour for a provider token's age).
    public let belowUpper: Bool
    /// The ends are durations, in seconds, stated as durations (`1ms-1h`).
    public let durations: Bool

    public init(_ lower: Double, _ upper: Double, belowUpper: Bool = false) {
        self.lower = lower
        self.upper = upper
        self.belowUpper = belowUpper
        durations = false
    }

    /// A range of durations, between `lower` and `upper` (`upper` included unless `belowUpper`).
    public init(_ lower: Duration, _ upper: Duration, belowUpper: Bool = false) {
        self.lower = lower.secondsValue
        self.upper = upper.secondsValue
        self.belowUpper = belowUpper
        durations = true
    }

    /// `1-64`, `1ms-1h`, or `at least 20m and below 1h`, as the help states it.
    public var text: String {
        let (l, u) = durations ? (DurationText.text(.secondsRounded(lower)), DurationText.text(.secondsRounded(upper)))
            : (RunSettings.number(lower), RunSettings.number(upper))
        return belowUpper ? "at least \(l) and below \(u)" : "\(l)-\(u)"
    }

    /// `between 1 and 64`, or `at least 20m and below 1h`, to follow "must be".
    public var bounds: String {
        belowUpper ? text : "between " + text.replacingOccurrences(of: "-", with: " and ", options: [], range: text.range(of: "-"))
    }

    public func contains(_ value: Double) -> Bool { value >= lower && (belowUpper ? value < upper : value <= upper) }
}
