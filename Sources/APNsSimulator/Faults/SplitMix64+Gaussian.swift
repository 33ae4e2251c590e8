import APNsCore
import Foundation

extension SplitMix64 {
    /// A standard normal sample (Box–Muller), for lognormal latency.
    public mutating func gaussian() -> Double {
        let u1 = max(unit(), .leastNonzeroMagnitude)
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
