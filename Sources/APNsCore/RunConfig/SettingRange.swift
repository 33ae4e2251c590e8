/// The numbers a setting's value must lie between, as its row in ``RunSettings`` states them: `--help`
/// prints them (``text``) and the configuration's check reads them. The lower end is included; the upper
/// end too unless `belowUpper`.
public struct SettingRange: Sendable, Equatable {
    public let lower: Double
    public let upper: Double
    /// The value must stay below ``upper`` (APNs' hour for a provider token's age).
    public let belowUpper: Bool

    public init(_ lower: Double, _ upper: Double, belowUpper: Bool = false) {
        self.lower = lower
        self.upper = upper
        self.belowUpper = belowUpper
    }

    /// `1-64`, or `at least 20 and below 60`, as the help states it.
    public var text: String {
        belowUpper ? "at least \(RunSettings.number(lower)) and below \(RunSettings.number(upper))"
            : "\(RunSettings.number(lower))-\(RunSettings.number(upper))"
    }

    public func contains(_ value: Double) -> Bool { value >= lower && (belowUpper ? value < upper : value <= upper) }
}
