import APNsCore
import ArgumentParser
import Reporting

/// `--target`: a name, or a URL (``Target/init(argument:)``).
extension Target: ExpressibleByArgument {
    public static var allValueStrings: [String] { ["simulator", "sandbox", "production", "https://HOST:PORT", "http://HOST:PORT"] }
}

/// `--delivery device|broadcast`.
extension RunConfig.Delivery: ExpressibleByArgument {}

/// `--search exponential|binary|steps:N`.
extension RateSearch.Mode: ExpressibleByArgument {
    public static var allValueStrings: [String] { ["exponential", "binary", "steps:N"] }
    public var defaultValueDescription: String {
        switch self {
        case .exponential: return "exponential"
        case .binary: return "binary"
        case let .steps(n): return "steps:\(n)"
        }
    }
}

/// `--apns-model`: a preset's name (``APNsModel``), or the path of a model file `apnsbench model fit`
/// wrote; whether the file exists is the configuration's check.
struct APNsModelName: ExpressibleByArgument {
    let value: String
    init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        value = argument
    }
    static var allValueStrings: [String] { APNsModel.names + ["FILE"] }
}
