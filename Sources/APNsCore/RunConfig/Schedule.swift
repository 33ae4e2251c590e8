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

    /// One of `shards` equal parts of this schedule: a fixed rate or a ramp divided by `shards`; recorded
    /// times need no split (each shard sends its own pushes at their times), nor does a closed loop.
    public func share(of shards: Int) -> Schedule {
        guard shards > 1 else { return self }
        let n = Double(shards)
        switch self {
        case .closedLoop, .recorded: return self
        case let .fixedRate(r): return .fixedRate(perSecond: r / n)
        case let .ramp(a, b, s): return .ramp(from: a / n, to: b / n, seconds: s)
        }
    }

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


/// In `report.json` a schedule is a flat object: `{"kind": "closed-loop"}`, `{"kind": "recorded", "speed": 60}`,
/// `{"kind": "rate", "perSecond": 2000}`, `{"kind": "ramp", "from": 1000, "to": 20000, "seconds": 60}`: the
/// same names a profile uses, so a reader needs no Swift enum encoding.
extension Schedule: Codable {
    private enum CodingKeys: String, CodingKey { case kind, speed, perSecond, from, to, seconds }

    /// The profile's `schedule:` word for this case.
    public var kind: String {
        switch self {
        case .closedLoop: return "closed-loop"
        case .recorded: return "recorded"
        case .fixedRate: return "rate"
        case .ramp: return "ramp"
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "closed-loop": self = .closedLoop
        case "recorded": self = .recorded(speed: try c.decode(Double.self, forKey: .speed))
        case "rate": self = .fixedRate(perSecond: try c.decode(Double.self, forKey: .perSecond))
        case "ramp":
            self = .ramp(from: try c.decode(Double.self, forKey: .from), to: try c.decode(Double.self, forKey: .to),
                         seconds: try c.decode(Double.self, forKey: .seconds))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "unknown schedule kind '\(kind)'")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .closedLoop: break
        case let .recorded(speed): try c.encode(speed, forKey: .speed)
        case let .fixedRate(r): try c.encode(r, forKey: .perSecond)
        case let .ramp(a, b, s):
            try c.encode(a, forKey: .from)
            try c.encode(b, forKey: .to)
            try c.encode(s, forKey: .seconds)
        }
    }
}
