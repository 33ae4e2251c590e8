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
    /// The long name ``RunSettings`` gives the setting's flag.
    public static func setting(_ key: ConfigKey) -> NameSpecification {
        guard let flag = RunSettings[key].flag else { preconditionFailure("\(key) has no flag") }
        return .customLong(String(flag.dropFirst(2)))
    }
}

extension ArgumentHelp {
    /// The setting's help from ``RunSettings``: what it does, its rule, default and profile key.
    /// - Parameter listed: the option's type lists its values and default in `--help` (``ExpressibleByArgument/allValueStrings``).
    public static func setting(_ key: ConfigKey, listed: Bool = false) -> ArgumentHelp {
        let s = RunSettings[key]
        return ArgumentHelp(s.flagHelp(statingValues: !listed), valueName: s.valueName)
    }
}
