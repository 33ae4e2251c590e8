import APNsCore
import ArgumentParser

/// `--target`: a name, or a URL (``Target/init(argument:)``).
extension Target: ExpressibleByArgument {
    public static var allValueStrings: [String] { ["simulator", "sandbox", "production", "https://HOST:PORT", "http://HOST:PORT"] }
}

/// `--delivery device|broadcast`, read as the profile's `delivery:` is (``SettingText/choice(_:_:)``).
extension RunConfig.Delivery: ExpressibleByArgument {
    public init?(argument: String) {
        guard let d: RunConfig.Delivery = try? SettingText.choice(.delivery, argument) else { return nil }
        self = d
    }
}

/// `--apns-model`: a preset's name (``APNsLatencyModel``), or the path of a model file `apnsbench model fit`
/// wrote; whether the file exists is the configuration's check.
public struct APNsLatencyModelName: ExpressibleByArgument {
    public let value: String
    public init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        value = argument
    }
    public static var allValueStrings: [String] { APNsLatencyModel.names + ["FILE"] }
}

extension NameSpecification {
    /// The long name of the setting's flag (``RunSettingFlags``).
    public static func setting(_ key: ConfigKey) -> NameSpecification {
        guard let flag = RunSettingFlags[key] else { preconditionFailure("\(key) has no flag") }
        return .customLong(String(flag.dropFirst(2)))
    }
}

extension ArgumentHelp {
    /// The setting's help from ``RunSettings``: what it does, its rule, default and profile key.
    /// - Parameter listed: the option's type lists its values and default in `--help` (``ExpressibleByArgument/allValueStrings``).
    public static func setting(_ key: ConfigKey, listed: Bool = false) -> ArgumentHelp {
        let s = RunSettings[key]
        return ArgumentHelp(RunSettingHelp.flagHelp(s, statingValues: !listed), valueName: s.valueName)
    }
}

/// A duration flag's value, read in the one grammar of durations (``DurationText``: `250ms`, `10s`, `1h30m`) or
/// `0`; which of these a flag allows (0, its upper end) is the flag's own rule, checked with its other values.
extension Duration: @retroactive ExpressibleByArgument {
    public init?(argument: String) {
        if argument.trimmingCharacters(in: .whitespaces) == "0" {
            self = .zero
            return
        }
        guard let d = DurationText.setting(argument) else { return nil }
        self = d
    }

    /// A default as a user writes it: `5s`.
    public var defaultValueDescription: String { DurationText.text(self) }
}
