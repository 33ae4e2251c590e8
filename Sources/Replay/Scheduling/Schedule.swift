import Foundation

/// When pushes are meant to be sent. Open-loop schedules are formulas anchored at the run's start, so
/// they never drift: the n-th push's intended time does not depend on when earlier pushes went out.
/// Latency is measured from these intended times (coordinated-omission corrected).
public enum Schedule: Sendable, Equatable, CustomStringConvertible {
    /// As fast as the in-flight window (connections × streams) allows; each push is due when it is sent.
    case closedLoop
    /// At the recorded times, compressed `speed` times (2 = twice as fast). The first event is at 0.
    case recorded(speed: Double)
    /// `perSecond` pushes a second, evenly spaced.
    case fixedRate(perSecond: Double)
    /// A rate rising linearly from `from` to `to` pushes a second over `seconds`, then staying at `to`.
    case ramp(from: Double, to: Double, seconds: Double)

    public var isOpenLoop: Bool { self != .closedLoop }

    public var description: String {
        switch self {
        case .closedLoop: return "closed-loop"
        case let .recorded(speed): return "recorded x\(Self.trim(speed))"
        case let .fixedRate(r): return "rate \(Self.trim(r))/s"
        case let .ramp(a, b, s): return "ramp \(Self.trim(a))->\(Self.trim(b))/s over \(Self.trim(s)) s"
        }
    }

    static func trim(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    /// Checks the numbers; the message names the bad one.
    public func validate() throws {
        switch self {
        case .closedLoop: break
        case let .recorded(speed):
            guard speed > 0, speed.isFinite else { throw ScheduleError("speed \(speed) must be a positive number") }
        case let .fixedRate(r):
            guard r > 0, r.isFinite else { throw ScheduleError("rate \(r) must be a positive number of pushes a second") }
        case let .ramp(a, b, s):
            guard a >= 0, b > 0, a.isFinite, b.isFinite else { throw ScheduleError("ramp rates \(a) and \(b) must be >= 0 and > 0") }
            guard s > 0, s.isFinite else { throw ScheduleError("ramp duration \(s) must be positive seconds") }
        }
    }

    /// Parses a ramp given as `FROM:TO:SECONDS`, e.g. `1000:20000:60`.
    public static func parseRamp(_ text: String) throws -> Schedule {
        let parts = text.split(separator: ":").map { Double($0) }
        guard parts.count == 3, let a = parts[0], let b = parts[1], let s = parts[2] else {
            throw ScheduleError("ramp '\(text)' must be FROM:TO:SECONDS, e.g. 1000:20000:60")
        }
        let ramp = Schedule.ramp(from: a, to: b, seconds: s)
        try ramp.validate()
        return ramp
    }
}

public struct ScheduleError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

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
