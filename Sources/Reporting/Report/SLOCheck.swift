import APNsCore

/// The profile's service-level objective checked against a report: each rule, what the run did, met or not.
/// A run whose checks are not all met exits 99 (`apnsbench run`), after its report is written.
public struct SLOCheck: Sendable, Equatable {
    /// What the rule measures: `p99 response time (from the intended send)`.
    public var what: String
    /// The bound with its comparison: `≤ 50 ms`, `≥ 99.00 %`.
    public var target: String
    /// What the run did: `12.3 ms`, `98.50 %`.
    public var actual: String
    public var met: Bool
    /// What the rule measures without this run's counts (`delivered share of pushes owed`): the same in every
    /// run, so a CI's test history (`run --junit`) follows one test per rule.
    public var name: String

    public init(what: String, target: String, actual: String, met: Bool, name: String? = nil) {
        self.what = what
        self.target = target
        self.actual = actual
        self.met = met
        self.name = name ?? what
    }

    /// A shard of a sharded run holds part of the run (shard 0 also every push no shard sends: no token,
    /// nobody to receive it), so its SLO is judged on the merged report, not on its own.
    public static func judgedOnMerge(_ report: RunReport) -> Bool { (report.configuration.shard?.count ?? 1) > 1 }

    /// What a shard's summary says in place of its SLO lines; nil for any other report or one without an SLO.
    public static func shardNote(_ report: RunReport) -> String? {
        guard judgedOnMerge(report), !report.configuration.slo.isEmpty, let s = report.configuration.shard else { return nil }
        return "shard \(s): the SLO is judged on the merged report (apnsbench merge), not per shard"
    }

    /// `✓ p99 response time (from the intended send) 12.3 ms ≤ 50 ms (at most)`: one line per rule, the
    /// comparison both as a symbol and in words.
    public var line: String {
        let words = target.hasPrefix("≤") ? "at most" : "at least"
        return "\(met ? "✓" : "✗") \(what): \(actual), target \(target) (\(words))"
    }

    /// The checks for `report`'s SLO, in a fixed order; empty when its configuration has none, and for one
    /// shard of a sharded run (``judgedOnMerge(_:)``).
    public static func checks(_ report: RunReport) -> [SLOCheck] {
        if judgedOnMerge(report) { return [] }
        let slo = report.configuration.slo
        let p = report.pushes
        var out: [SLOCheck] = []
        if let p99 = slo.p99?.millis {
            let r = report.latency.responseTime
            let actualMillis = Double(r.p99) / 1000
            out.append(SLOCheck(what: "p99 response time (from the intended send)", target: "≤ \(p99) ms",
                                actual: r.count == 0 ? "no delivered pushes" : Format.fixed(actualMillis, places: 1) + " ms",
                                met: r.count > 0 && actualMillis <= Double(p99)))
        }
        // Shares are of the pushes owed: those due after the end, replaced on purpose, or with nobody to
        // receive them were never owed (``RunReport/Pushes/notOwedCauses``).
        let of = ofOwed(p)
        if let share = slo.minDelivered {
            let actual = p.deliveredShare ?? 0
            out.append(SLOCheck(what: "delivered share of \(of)", target: "≥ \(percent(share))",
                                actual: percent(actual), met: p.owed > 0 && actual >= share, name: "delivered share of pushes owed"))
        }
        for errorClass in RunConfig.SLO.ErrorClass.allCases {
            guard let limit = slo.maxErrorShare?[errorClass.rawValue] else { continue }
            let count = Self.count(errorClass, in: p)
            let actual = p.owed <= 0 ? 0 : Double(count) / Double(p.owed)
            let measured = "\(errorClass.rawValue.replacingOccurrences(of: "_", with: " ")) share of"
            out.append(SLOCheck(what: "\(measured) \(of)", target: "≤ \(percent(limit))", actual: "\(percent(actual)) (\(count))",
                                met: actual <= limit, name: "\(measured) pushes owed"))
        }
        if let limit = slo.maxWouldNotDecode {
            // The share of delivered pushes: those are the ones the device received and dropped.
            let count = p.wouldNotDecode?.total ?? 0
            let actual = p.wouldNotDecode?.share(ofDelivered: p.delivered) ?? 0
            out.append(SLOCheck(what: "delivered pushes the device would not decode", target: "≤ \(percent(limit))",
                                actual: p.wouldNotDecode == nil ? "not checked" : "\(percent(actual)) (\(count))",
                                met: p.wouldNotDecode != nil && actual <= limit))
        }
        out += deviceChecks(report)
        return out
    }

    /// The device rules: judged on the report's device section; missed, and said so, when devices were not modelled.
    static func deviceChecks(_ report: RunReport) -> [SLOCheck] {
        let slo = report.configuration.slo, d = report.device
        var out: [SLOCheck] = []
        if let limit = slo.p99TimeToDevice.map({ Int($0.millis) }) {
            let shown = d.map { $0.timeToDevice.byPriority.values.reduce(0) { $0 + $1.count } } ?? 0
            let p99 = d?.overallP99Millis
            out.append(SLOCheck(what: "p99 time to device (from the event, recorded time)", target: "≤ \(limit) ms",
                                actual: d == nil ? "devices not modelled (no device: in the simulator's section)"
                                    : p99.map { "\($0) ms" } ?? "no push shown",
                                met: shown > 0 && (p99 ?? Int.max) <= limit))
        }
        if let limit = slo.maxThrottledShare {
            let n = d?.outcomes["throttled"] ?? 0
            out.append(SLOCheck(what: "delivered pushes throttled on the device", target: "≤ \(percent(limit))",
                                actual: d == nil ? "devices not modelled (no device: in the simulator's section)" : "\(percent(d!.share(.throttled))) (\(n))",
                                met: d != nil && d!.share(.throttled) <= limit))
        }
        return out
    }

    /// Pushes of a class in a report's push counts.
    static func count(_ errorClass: RunConfig.SLO.ErrorClass, in p: RunReport.Pushes) -> Int {
        switch errorClass {
        case .rejected: return p.rejectedTotal
        case .failed: return p.failedTotal
        case .timedOut: return p.timedOut
        case .notSent: return p.notSentLost
        case .errors: return p.rejectedTotal + p.failedTotal + p.timedOut
        }
    }

    /// `pushes owed (planned 2000 less 310 not owed: 12 after the end, 298 coalesced)`, or `planned pushes`.
    static func ofOwed(_ p: RunReport.Pushes) -> String {
        guard p.notOwed > 0 else { return "planned pushes" }
        let causes = p.notSent.filter { RunReport.Pushes.notOwedCauses.contains($0.key) && $0.value > 0 }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "pushes owed (planned \(p.planned) less \(p.notOwed) not owed: \(causes))"
    }

    static func percent(_ share: Double) -> String { Format.fixed(share * 100, places: 2) + " %" }
}
