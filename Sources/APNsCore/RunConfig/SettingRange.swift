/// The numbers a setting's value must lie between, both ends included, as its row in ``RunSettings`` states
/// them: `--help` prints them (``text``) and the configuration's check reads them.
public struct SettingRange: Sendable, Equatable {
    public let lower: Double
    public let upper: Double

    public init(_ lower: Double, _ upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// `1-64`, as the help states it.
    public var text: String { "\(RunSettings.number(lower))-\(RunSettings.number(upper))" }

    public func contains(_ value: Double) -> Bool { value >= lower && value <= upper }
}
