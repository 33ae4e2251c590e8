/// Whether a sweep step passed: all four must hold.
/// 1. Sends kept up: first sends at least `minSendShare` (99%) of the offered rate. When they did not, the
///    step says why: the in-flight window was full (the target answered too slowly: its failure), or the
///    *client* saturated (a capacity figure must never be the harness's own limit).
/// 2. The corrected p99 is within the SLO.
/// 3. The delivered share is met, and no 429 or 5xx class appeared that the first step did not have.
/// 4. p99 does not trend upward within the step: the median p99 of the step's last third of intervals is
///    at most `trendFactor` times that of its first third (a queue that grows makes it climb steadily).
public struct KneeCriteria: Codable, Sendable, Equatable {
    public var sloP99Millis: Double
    public var minDelivered: Double
    public var minSendShare = 0.99
    public var trendFactor = 2.0

    public init(sloP99Millis: Double, minDelivered: Double) {
        self.sloP99Millis = sloP99Millis
        self.minDelivered = minDelivered
    }

    /// The criteria the step failed, each named with its numbers; empty when it passed. `first` is the
    /// sweep's first step (its error classes are the baseline's).
    public func failures(of step: SweepStep, first: SweepStep?) -> [String] {
        var out: [String] = []
        if step.streamEnded {
            return ["the recording ran out before the step's end: record a longer stream, or shorten --step-seconds"]
        }
        let share = step.offeredRate > 0 ? step.achievedRate / step.offeredRate : 1
        if share < minSendShare, step.windowFilled {
            // Not the client: every stream was waiting on an answer.
            out.append(String(format: "sent %.0f/s of %.0f/s offered (%.1f%%): the in-flight window (%d) was full, waiting on the target's answers",
                              step.achievedRate, step.offeredRate, share * 100, step.window ?? 0))
        } else if share < minSendShare {
            let cpu = (step.engineCPU.map { String(format: ", engine threads at %.0f%% of a core", $0 * 100) } ?? "")
                + (step.processCPU.map { String(format: ", process CPU %.0f%% of a core", $0 * 100) } ?? "")
            out.append(String(format: "client saturated: sent %.0f/s of %.0f/s offered (%.1f%% < %.0f%%%@)",
                              step.achievedRate, step.offeredRate, share * 100, minSendShare * 100, cpu))
        }
        if step.p99Millis > sloP99Millis {
            out.append(String(format: "p99 %.1f ms over the SLO's %.0f ms", step.p99Millis, sloP99Millis))
        }
        if step.deliveredShare < minDelivered {
            out.append(String(format: "delivered %.2f%% under the SLO's %.2f%%", step.deliveredShare * 100, minDelivered * 100))
        }
        let new = step.overloadReasons.filter { !(first?.overloadReasons.contains($0) ?? false) }
        if !new.isEmpty { out.append("new overload answers: \(new.joined(separator: ", "))") }
        if let (early, late) = thirds(step.intervalP99Millis), late > trendFactor * max(early, 0.001) {
            out.append(String(format: "p99 rising within the step: %.1f ms early, %.1f ms late", early, late))
        }
        return out
    }

    /// Median p99 of the first and the last third of the intervals; nil for fewer than 3.
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
