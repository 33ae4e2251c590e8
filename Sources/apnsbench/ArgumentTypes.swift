import ArgumentParser
import Reporting

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
