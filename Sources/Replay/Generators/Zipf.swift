import APNsCore
import Foundation

/// Draws ranks 0..<n with Zipf probabilities (rank k has weight 1/(k+1)^s): a few stores get most of the
/// traffic, as real stores do. Sampling is a binary search over the cumulative weights.
public struct Zipf {
    private let cumulative: [Double]

    public init(count n: Int, exponent s: Double = 1.0) {
        precondition(n > 0, "Zipf needs at least one rank")
        var c = [Double]()
        c.reserveCapacity(n)
        var total = 0.0
        for k in 0..<n {
            total += 1 / pow(Double(k + 1), s)
            c.append(total)
        }
        cumulative = c.map { $0 / total }
    }

    public func sample(_ rng: inout SplitMix64) -> Int {
        let u = rng.unit()
        var lo = 0, hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] < u { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
