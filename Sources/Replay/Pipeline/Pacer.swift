import APNsCore

/// The schedule as a pure function: the intended offset from the run's start of the n-th push (0-based)
/// whose event was recorded `recordedMillis` after the stream's first event. Nil for a closed loop.
public struct Pacer: Sendable, Equatable {
    public let schedule: Schedule

    public init(_ schedule: Schedule) { self.schedule = schedule }

    /// Seconds after the start at which push `n` is due.
    public func offset(push n: Int, recordedMillis: Int64) -> Double? {
        switch schedule {
        case .closedLoop:
            return nil
        case let .recorded(speed):
            return max(0, Double(recordedMillis) / 1000 / speed)
        case let .fixedRate(r):
            return Double(n) / r
        case let .ramp(r0, r1, t):
            // Pushes due by time x (x <= t): r0·x + (r1 − r0)·x² / (2t). Solve for the n-th.
            let total = r0 * t + (r1 - r0) * t / 2
            let k = Double(n)
            if k >= total { return t + (k - total) / r1 }
            let a = (r1 - r0) / (2 * t)
            if abs(a) < 1e-12 { return k / r0 }
            return (-r0 + (r0 * r0 + 4 * a * k).squareRoot()) / (2 * a)
        }
    }
}
