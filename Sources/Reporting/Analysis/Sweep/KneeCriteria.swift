import Foundation

/// Whether a sweep step passed: all four must hold.
/// 1. Sends kept up: pushes sent at least `minSendShare` (99%) of the offered rate, both counting only the
///    pushes that could be sent. When they did not, the step says why (``Shortfall``): the *client*
///    saturated, with its evidence (an engine thread near a full core, which also fills the window as it
///    reads answers late; or a producer that fell behind): a capacity figure must never be the harness's own
///    limit; else the in-flight window was full (the target answered too slowly: its failure); or, when
///    nothing shows, that the cause is unknown.
/// 2. The corrected p99 is within the SLO.
/// 3. The delivered share is met, and no 429 or 5xx class rose by a point or more of the requests over the
///    first step's share.
/// 4. Latency does not trend upward within the step: the median of the interval p50s of the step's last
///    third is at most `trendFactor` times that of its first third, or higher by less than
///    ``trendFloorMillis`` (a queue that grows makes the whole distribution climb steadily; a p50 is not
///    moved by one unlucky push, where a p99 of a heavy-tailed model is).
public struct KneeCriteria: Codable, Sendable, Equatable {
    public var sloP99Millis: Double
    public var minDelivered: Double
    public var minSendShare = 0.99
    public var trendFactor = 2.0

    public init(sloP99Millis: Double, minDelivered: Double) {
        self.sloP99Millis = sloP99Millis
        self.minDelivered = minDelivered
    }

    /// Why sends fell short of the offered rate, as far as the step shows it.
    public enum Shortfall: String, Codable, Sendable, Equatable {
        /// Every stream was waiting on an answer: the target was too slow (its failure).
        case targetWindow = "target"
        /// An engine thread was near a full core: the client was the limit.
        case engineSaturated = "engine"
        /// The producer could not keep the engines fed (near a full core, or handing pushes over late).
        case producerBehind = "producer"
        /// Neither shows: the cause is not known from the step.
        case unknown
    }

    /// A 429 or 5xx class whose share of the requests rose by this much over the first step's is new.
    public static let newOverloadShare = 0.01
    /// A thread at or above this share of a core is saturated.
    public static let saturatedCPU = 0.85
    /// A producer that handed over at least this share of the pushes late could not keep up.
    public static let lateShare = 0.01

    /// Why the step's sends fell short of its offered rate; nil when they kept up (or the recording ran out).
    public func shortfall(of step: SweepStep) -> Shortfall? {
        guard !step.streamEnded else { return nil }
        let share = step.offeredRate > 0 ? step.achievedRate / step.offeredRate : 1
        guard share < minSendShare else { return nil }
        // An engine thread at a full core reads answers late, so the window fills on its account: the
        // client's saturation explains a full window, not the other way round.
        if (step.engineCPU ?? 0) >= Self.saturatedCPU { return .engineSaturated }
        if step.windowFilled { return .targetWindow }
        if (step.producerCPU ?? 0) >= Self.saturatedCPU || (step.producerLateShare ?? 0) >= Self.lateShare { return .producerBehind }
        return .unknown
    }

    /// The criteria the step failed, each named with its numbers; empty when it passed. `first` is the
    /// sweep's first step (its error classes are the baseline's).
    public func failures(of step: SweepStep, first: SweepStep?) -> [String] {
        var out: [String] = []
        if step.streamEnded {
            return ["the recording ran out before the step's end: loop it (the default), record a longer stream, or shorten --step-seconds"]
        }
        let share = step.offeredRate > 0 ? step.achievedRate / step.offeredRate : 1
        let sent = String(format: "sent %.0f/s of %.0f/s sendable (%@%% < %.0f%%)", step.achievedRate, step.offeredRate, Self.floored(share * 100, places: 1),
                          minSendShare * 100)
        let threads = [
            step.engineCPU.map { String(format: "engine thread %.0f%% of a core", $0 * 100) },
            step.producerCPU.map { String(format: "producer %.0f%%", $0 * 100) },
            step.producerLateShare.map { String(format: "%.1f%% of pushes handed over late", $0 * 100) },
            step.processCPU.map { String(format: "process %.0f%%", $0 * 100) },
        ].compactMap { $0 }.joined(separator: ", ")
        switch shortfall(of: step) {
        case .targetWindow?:
            // Not the client: every stream was waiting on an answer.
            out.append(String(format: "%@: the in-flight window (%d) was full, waiting on the target's answers", sent, step.window ?? 0))
        case .engineSaturated?:
            out.append("client saturated: \(sent); \(threads)")
        case .producerBehind?:
            out.append("client saturated, the producer fell behind: \(sent); \(threads)")
        case .unknown?:
            out.append("\(sent), cause unknown: no thread near a full core and the window never full (\(threads))")
        case nil:
            break
        }
        if step.p99Millis > sloP99Millis {
            out.append(String(format: "p99 %.1f ms over the SLO's %.0f ms", step.p99Millis, sloP99Millis))
        }
        if step.deliveredShare < minDelivered {
            out.append(String(format: "delivered %@%% under the SLO's %.2f%%", Self.floored(step.deliveredShare * 100, places: 2), minDelivered * 100))
        }
        // A class is new when its share rose over the first step's by a point or more and by more than chance
        // allows (three standard errors of the difference of two shares): a model's random 2% of 503s may
        // show as 0.7% in 150 requests and 1.8% in 1,500, while shedding under overload is tens of percent.
        // The first step is the baseline: it has no classes of its own to compare with.
        let new = newOverloadReasons(of: step, first: first)
        if !new.isEmpty {
            let shares = new.map { r in
                step.overloadShares?[r].map { String(format: "%@ %.1f%% of requests (first step %.1f%%)", r, $0 * 100, (first?.overloadShares?[r] ?? 0) * 100) }
                    ?? r
            }
            out.append("new overload answers: \(shares.joined(separator: ", "))")
        }
        if let (early, late) = thirds(step.intervalP50Millis ?? step.intervalP99Millis), late > trendFactor * max(early, 0.001),
           late - early >= trendFloorMillis {
            let what = step.intervalP50Millis == nil ? "p99" : "p50"
            out.append(String(format: "%@ rising within the step: %.1f ms early, %.1f ms late", what, early, late))
        }
        return out
    }

    /// `value` rounded down to `places` decimals: a share under its threshold never prints as the threshold
    /// (98.96% is "98.9%", not "99.0%", beside "< 99%").
    public static func floored(_ value: Double, places: Int) -> String {
        let scale = pow(10, Double(places))
        return String(format: "%.\(places)f", (value * scale + 1e-9).rounded(.down) / scale)
    }

    /// The 429 and 5xx reasons whose share of the requests rose over the first step's by a point or more and
    /// by more than chance allows; none without a first step.
    public func newOverloadReasons(of step: SweepStep, first: SweepStep?) -> [String] {
        guard let first else { return [] }
        return step.overloadReasons.filter { reason in
            guard let share = step.overloadShares?[reason] else { return !first.overloadReasons.contains(reason) }
            let before = first.overloadShares?[reason] ?? 0
            return share - before >= max(Self.newOverloadShare, 3 * Self.standardError(share, step.requests, before, first.requests))
        }
    }

    /// A rise in p99 smaller than this is scheduling noise, not a queue: 1% of the SLO, at least 5 ms (a
    /// sub-millisecond p99 on loopback doubles by chance).
    public var trendFloorMillis: Double { max(5, sloP99Millis * 0.01) }

    /// The standard error of the difference of two shares of `n1` and `n2` requests (pooled); 0 when a count
    /// is unknown.
    static func standardError(_ p1: Double, _ n1: Int?, _ p2: Double, _ n2: Int?) -> Double {
        guard let n1, let n2, n1 > 0, n2 > 0 else { return 0 }
        let p = (p1 * Double(n1) + p2 * Double(n2)) / Double(n1 + n2)
        return (p * (1 - p) * (1 / Double(n1) + 1 / Double(n2))).squareRoot()
    }

    /// Median of the first and the last third of the intervals' values; nil for fewer than 3.
    func thirds(_ values: [Double]) -> (Double, Double)? {
        guard values.count >= 3 else { return nil }
        let n = values.count / 3
        return (Self.median(Array(values.prefix(n))), Self.median(Array(values.suffix(n))))
    }

    static func median(_ v: [Double]) -> Double {
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
