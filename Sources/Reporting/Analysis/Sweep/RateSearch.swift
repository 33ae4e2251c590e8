/// Which rates a sweep tries, as a state machine: ask ``next()`` for a rate, run it, tell ``record(_:passed:)``.
///
/// - `exponential`: from the low bound, doubling while steps pass (capped at the high bound); after the
///   first failure, bisect between the highest pass and the lowest failure until they are within
///   `precision` (5%) of each other.
/// - `binary`: bisect between the bounds from the start (the low bound first, then the high one).
/// - `steps(n)`: n rates evenly spaced from the low bound to the high one, all of them.
/// Rates stay within the bounds; a search never tries one rate twice.
public struct RateSearch: Sendable {
    public enum Mode: Sendable, Equatable {
        case exponential, binary
        case steps(Int)

        /// `exponential`, `binary` or `steps:N`.
        public init?(argument: String) {
            switch argument {
            case "exponential": self = .exponential
            case "binary": self = .binary
            default:
                guard argument.hasPrefix("steps:"), let n = Int(argument.dropFirst(6)), (2...100).contains(n) else { return nil }
                self = .steps(n)
            }
        }
    }

    public let low: Double, high: Double, mode: Mode
    public var precision = 0.05
    /// Highest rate that passed, lowest that failed.
    public private(set) var bestPass: Double?
    public private(set) var firstFail: Double?
    private var tried: [Double] = []
    private var pending: Double?

    public init(low: Double, high: Double, mode: Mode) {
        precondition(low > 0 && high >= low, "0 < low <= high")
        self.low = low
        self.high = high
        self.mode = mode
    }

    /// The next rate to try; nil when the search is done.
    public mutating func next() -> Double? {
        precondition(pending == nil, "record the last rate first")
        let rate: Double?
        switch mode {
        case let .steps(n):
            rate = tried.count < n ? low + (high - low) * Double(tried.count) / Double(n - 1) : nil
        case .exponential:
            if firstFail == nil {
                let candidate = tried.isEmpty ? low : min(high, (tried.last ?? low) * 2)
                rate = tried.contains(candidate) ? nil : candidate
            } else {
                rate = bisect()
            }
        case .binary:
            if tried.isEmpty { rate = low }
            else if tried.count == 1 { rate = bestPass == nil ? nil : high }
            else { rate = bisect() }
        }
        pending = rate
        return rate
    }

    public mutating func record(_ rate: Double, passed: Bool) {
        precondition(pending == rate, "record the rate next() gave")
        pending = nil
        tried.append(rate)
        if passed { bestPass = max(bestPass ?? rate, rate) } else { firstFail = min(firstFail ?? rate, rate) }
    }

    /// The midpoint of the highest pass and the lowest failure, while they are further apart than the
    /// precision; nil when close enough, or when the low bound already failed (nothing passes).
    private func bisect() -> Double? {
        guard let fail = firstFail else { return nil }
        guard let pass = bestPass else { return nil }
        guard pass < fail, (fail - pass) / pass > precision else { return nil }
        let mid = ((pass + fail) / 2).rounded()
        return tried.contains(mid) ? nil : mid
    }
}
