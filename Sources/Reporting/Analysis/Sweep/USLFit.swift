import Foundation

/// Gunther's Universal Scalability Law fitted to throughput measured at several concurrencies:
///
///     X(N) = λ·N / (1 + σ·(N − 1) + κ·N·(N − 1))
///
/// λ is the throughput of one unit of concurrency (pushes a second at N = 1), σ the contention (the
/// serial share: alone it levels X off at λ/σ, Amdahl's law) and κ the coherency cost (each unit
/// waiting on every other: it makes X peak at N* = √((1 − σ)/κ) and fall after it).
///
/// The fit minimises the squared error of X itself (not of a linearised form, which would weigh the
/// small-N points most). For fixed (σ, κ) the best λ is closed-form, so only (σ, κ) is searched:
/// σ ∈ [0, 1] on a linear grid, κ ∈ [0, 1] on a log grid (10⁻¹² … 1, where real values live, it is
/// usually 10⁻⁷ … 10⁻¹) and κ = 0 exactly, then a pattern search refines around the best grid point
/// until the steps are far below any printed digit. Deterministic: the same points give the same fit.
public struct USLFit: Codable, Sendable, Equatable {
    /// One measurement: throughput X at concurrency N (connections × streams, or whatever was varied).
    public struct Point: Codable, Sendable, Equatable {
        /// N, at least 1.
        public var concurrency: Double
        /// X, above 0 (pushes a second).
        public var throughput: Double

        public init(concurrency: Double, throughput: Double) {
            self.concurrency = concurrency
            self.throughput = throughput
        }
    }

    /// Why points cannot be fitted. The `description` names the problem and the offending values.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// Fewer than 3 distinct concurrencies: three parameters need at least three places to be seen.
        case tooFewConcurrencies(distinct: Int)
        /// A point with N < 1 or X ≤ 0 (or either not finite); `index` is its place in the input.
        case invalidPoint(index: Int, concurrency: Double, throughput: Double)

        public var description: String {
            switch self {
            case let .tooFewConcurrencies(distinct):
                return "a USL fit needs throughput at 3 or more distinct concurrencies; got \(distinct)"
            case let .invalidPoint(index, n, x):
                return "point \(index) (concurrency \(String(format: "%g", n)), throughput \(String(format: "%g", x))): "
                    + "concurrency must be at least 1 and throughput above 0"
            }
        }
    }

    /// σ, contention, in [0, 1].
    public var sigma: Double
    /// κ, coherency, in [0, 1]; 0 when the points show no retrograde (then there is no peak).
    public var kappa: Double
    /// λ, throughput at N = 1 as the curve has it.
    public var lambda: Double
    /// 1 − SSE/SST of X over the fitted points (1 when the curve goes through them all).
    public var rSquared: Double

    public init(sigma: Double, kappa: Double, lambda: Double, rSquared: Double) {
        self.sigma = sigma
        self.kappa = kappa
        self.lambda = lambda
        self.rSquared = rSquared
    }

    /// N* = √((1 − σ)/κ), where X peaks; nil when κ = 0 (X only levels off, at λ/σ).
    public var peakConcurrency: Double? { kappa > 0 ? ((1 - sigma) / kappa).squareRoot() : nil }

    /// X(N*); nil when there is no peak.
    public var peakThroughput: Double? { peakConcurrency.map(predicted) }

    /// X(n) on the fitted curve.
    public func predicted(_ n: Double) -> Double { lambda * n / Self.denominator(n, sigma, kappa) }

    /// Fits the curve to `points` (any order; repeated concurrencies are fine).
    /// - Throws: ``Refusal`` when a point is invalid or fewer than 3 concurrencies are distinct.
    public static func fit(_ points: [Point]) throws(Refusal) -> USLFit {
        for (i, p) in points.enumerated() where !(p.concurrency >= 1 && p.throughput > 0 && p.concurrency.isFinite && p.throughput.isFinite) {
            throw .invalidPoint(index: i, concurrency: p.concurrency, throughput: p.throughput)
        }
        let distinct = Set(points.map(\.concurrency)).count
        guard distinct >= 3 else { throw .tooFewConcurrencies(distinct: distinct) }

        let problem = Problem(points: points)
        let amdahl = problem.bestSigma()
        let full = problem.bestSigmaKappa()
        let best = full.sse < amdahl.sse ? full : amdahl
        let lambda = problem.lambda(best.sigma, best.kappa)
        let mean = points.reduce(0) { $0 + $1.throughput } / Double(points.count)
        let sst = points.reduce(0) { $0 + ($1.throughput - mean) * ($1.throughput - mean) }
        let r2 = sst > 0 ? 1 - best.sse / sst : (best.sse <= 1e-12 * mean * mean ? 1 : 0)
        return USLFit(sigma: best.sigma, kappa: best.kappa, lambda: lambda, rSquared: r2)
    }

    /// The points of the cells that have both a concurrency and a throughput above 0, for ``fit(_:)``.
    public static func points(_ cells: [MatrixCell]) -> [Point] {
        cells.compactMap { c in
            guard let n = c.concurrency, let x = c.throughput, n > 0, x > 0 else { return nil }
            return Point(concurrency: Double(n), throughput: x)
        }
    }

    static func denominator(_ n: Double, _ sigma: Double, _ kappa: Double) -> Double {
        1 + sigma * (n - 1) + kappa * n * (n - 1)
    }
}

/// The least-squares problem of one set of points, and its search.
private struct Problem {
    let n: [Double]
    let x: [Double]
    let sumX2: Double

    /// log10 κ is searched in this range; κ = 0 separately.
    static let logKappaRange = (-12.0, 0.0)

    init(points: [USLFit.Point]) {
        n = points.map(\.concurrency)
        x = points.map(\.throughput)
        sumX2 = x.reduce(0) { $0 + $1 * $1 }
    }

    /// λ minimising the squared error for fixed σ, κ: Σ Xg / Σ g², g = N / D.
    func lambda(_ sigma: Double, _ kappa: Double) -> Double {
        var xg = 0.0, gg = 0.0
        for i in n.indices {
            let g = n[i] / USLFit.denominator(n[i], sigma, kappa)
            xg += x[i] * g
            gg += g * g
        }
        return gg > 0 ? xg / gg : 0
    }

    /// The squared error at the best λ for σ, κ: Σ X² − (Σ Xg)² / Σ g², never below 0.
    func sse(_ sigma: Double, _ kappa: Double) -> Double {
        let l = lambda(sigma, kappa)
        var e = 0.0
        for i in n.indices {
            let d = x[i] - l * n[i] / USLFit.denominator(n[i], sigma, kappa)
            e += d * d
        }
        return e
    }

    typealias Best = (sigma: Double, kappa: Double, sse: Double)

    /// κ = 0 (Amdahl): σ on a grid, then refined.
    func bestSigma() -> Best {
        var s = 0.0, e = sse(0, 0)
        for i in 1...100 {
            let c = Double(i) / 100
            let ce = sse(c, 0)
            if ce < e { s = c; e = ce }
        }
        var step = 0.01
        while step > 1e-13 {
            var moved = false
            for c in [s - step, s + step] where c >= 0 && c <= 1 {
                let ce = sse(c, 0)
                if ce < e { s = c; e = ce; moved = true }
            }
            if !moved { step /= 2 }
        }
        return (s, 0, e)
    }

    /// κ > 0: σ linear, log10 κ linear, a grid then a pattern search (a 5 × 5 neighbourhood; the steps
    /// halve when the centre stays best), so a valley along σ and κ together is followed too.
    func bestSigmaKappa() -> Best {
        let (tLo, tHi) = Self.logKappaRange
        func at(_ s: Double, _ t: Double) -> Double { sse(s, pow(10, t)) }
        var s = 0.0, t = tLo, e = Double.infinity
        for i in 0...100 {
            for j in 0...120 {
                let cs = Double(i) / 100, ct = tLo + Double(j) * (tHi - tLo) / 120
                let ce = at(cs, ct)
                if ce < e { s = cs; t = ct; e = ce }
            }
        }
        var ds = 0.01, dt = (tHi - tLo) / 120
        var rounds = 0
        while ds > 1e-13 || dt > 1e-11, rounds < 2_000 {
            rounds += 1
            var moved = false
            for i in -2...2 {
                for j in -2...2 where i != 0 || j != 0 {
                    let cs = s + Double(i) * ds, ct = t + Double(j) * dt
                    guard cs >= 0, cs <= 1, ct >= tLo, ct <= tHi else { continue }
                    let ce = at(cs, ct)
                    if ce < e { s = cs; t = ct; e = ce; moved = true }
                }
            }
            if !moved { ds /= 2; dt /= 2 }
        }
        return (s, pow(10, t), e)
    }
}
