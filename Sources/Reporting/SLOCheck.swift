import APNsCore

/// The profile's service-level objective checked against a report: each target, what the run did, met or not.
public struct SLOCheck: Sendable, Equatable {
    public var what: String
    public var target: String
    public var actual: String
    public var met: Bool

    /// The checks for `report`'s SLO; empty when its profile has none.
    public static func checks(_ report: RunReport) -> [SLOCheck] {
        let slo = report.configuration.slo
        var out: [SLOCheck] = []
        if let p99 = slo.p99Millis {
            let r = report.latency.responseTime
            let actualMillis = Double(r.p99) / 1000
            out.append(SLOCheck(what: "p99 response time (from the intended send)", target: "≤ \(p99) ms",
                                actual: r.count == 0 ? "no delivered pushes" : Format.fixed(actualMillis, places: 1) + " ms",
                                met: r.count > 0 && actualMillis <= Double(p99)))
        }
        if let share = slo.minDelivered {
            let p = report.pushes
            let actual = p.planned == 0 ? 0 : Double(p.delivered) / Double(p.planned)
            out.append(SLOCheck(what: "delivered share of planned pushes", target: "≥ \(Format.fixed(share * 100, places: 2)) %",
                                actual: Format.fixed(actual * 100, places: 2) + " %", met: p.planned > 0 && actual >= share))
        }
        return out
    }
}
