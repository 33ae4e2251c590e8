import APNsCore
import DeviceDelivery

/// What a sender controls, compared: the pushes it sent by push type, topic and priority; the headers it set
/// (`apns-expiration`, `apns-collapse-id`); and what the devices did with them (the device section's outcomes,
/// as shares of the pushes modelled). A change in what is sent is never "identical":
///
/// | row | judged |
/// | --- | --- |
/// | `sent TYPE TOPIC priority P` (pushes) | exactly: any change is a regression (a class new or gone above all) |
/// | `sent with apns-expiration` (pushes) | exactly: any change is a regression |
/// | `sent with apns-collapse-id` (% of pushes), `distinct apns-collapse-id values` | exactly: any change is a regression |
/// | `device OUTCOME share` (%) | a run's (recorded time, deterministic): exactly, worse by polarity; a sender's (wall clock): |
/// | | past ``deviceShareFloorPoints``, and with 3 or more runs a side by its bootstrap interval, as latency is |
///
/// With repeats, a count that differs between one side's runs is judged against that spread, as other counts are.
public enum SendFindings {
    /// A sender's device shares are judged only past this many percentage points.
    public static let deviceShareFloorPoints = 2.0

    public static func rows(baseline: [RunReport], new: [RunReport], tolerances: ComparisonReport.Tolerances) -> [ComparisonReport.Row] {
        var rows = classRows(baseline: baseline, new: new) + headerRows(baseline: baseline, new: new)
        for i in rows.indices where [.regression, .improvement].contains(rows[i].verdict) {
            let noise = spread(rows[i].baselineRuns) + spread(rows[i].newRuns)
            if let change = rows[i].change, noise > 0, abs(change) <= noise {
                rows[i].verdict = .withinNoise
                rows[i].note = "within the runs' own spread of \(ComparisonMarkdown.number(noise))"
            }
        }
        return rows + deviceRows(baseline: baseline, new: new, tolerances: tolerances)
    }

    static func spread(_ values: [Double]) -> Double { (values.max() ?? 0) - (values.min() ?? 0) }

    /// One row per class sent on either side; absent on a side whose reports do not count classes.
    static func classRows(baseline: [RunReport], new: [RunReport]) -> [ComparisonReport.Row] {
        let all = baseline + new
        guard all.contains(where: { $0.sendClasses != nil }) else { return [] }
        let labels = Set(all.flatMap { ($0.sendClasses ?? []).map(\.label) }).sorted()
        return labels.map { label in
            let metric = CountFindings.Metric(name: "sent \(label)", unit: "pushes", polarity: .anyChangeIsWorse, keyed: true) { r in
                r.sendClasses.map { classes in classes.filter { $0.label == label }.reduce(0) { $0 + $1.count } }
            }
            return changed(CountFindings.row(metric, baselineRuns: baseline.compactMap(metric.value).map(Double.init),
                                             newRuns: new.compactMap(metric.value).map(Double.init)),
                           what: "the pushes sent by push type, topic and priority")
        }
    }

    /// Header use, when both sides' reports count it.
    static func headerRows(baseline: [RunReport], new: [RunReport]) -> [ComparisonReport.Row] {
        guard (baseline + new).contains(where: { $0.sends != nil }) else { return [] }
        let picks: [(String, String, (RunReport.Sends) -> Double)] = [
            ("sent with apns-expiration", "pushes", { Double($0.withExpiration) }),
            ("sent with apns-collapse-id", "%", { $0.total == 0 ? 0 : Double($0.withCollapseID) / Double($0.total) * 100 }),
            ("distinct apns-collapse-id values", "ids", { Double($0.distinctCollapseIDs) }),
        ]
        return picks.map { name, unit, pick in
            let a = baseline.compactMap { $0.sends.map(pick) }, b = new.compactMap { $0.sends.map(pick) }
            let metric = CountFindings.Metric(name: name, unit: unit, polarity: .anyChangeIsWorse, keyed: false) { _ in nil }
            return changed(CountFindings.row(metric, baselineRuns: a, newRuns: b), what: "the headers sent")
        }
    }

    /// A changed row's note says what changed, a class new or gone by name.
    static func changed(_ row: ComparisonReport.Row, what: String) -> ComparisonReport.Row {
        var row = row
        guard row.verdict == .regression else { return row }
        switch (row.baseline ?? 0, row.new ?? 0) {
        case (0, _): row.note = "new: not sent before"
        case (_, 0): row.note = "gone: not sent any more"
        default: row.note = "changed: \(what) differ"
        }
        return row
    }

    /// The device outcomes as shares, when a side's reports model devices.
    static func deviceRows(baseline: [RunReport], new: [RunReport], tolerances: ComparisonReport.Tolerances) -> [ComparisonReport.Row] {
        guard (baseline + new).contains(where: { $0.device != nil }) else { return [] }
        // A sender's device section runs on the wall clock: its shares move with the sender's pace.
        let wallClock = (baseline + new).contains { $0.received != nil }
        return DeviceDeliveryOutcomeClass.allCases.map { outcome in
            func shares(_ reports: [RunReport]) -> [Double] { reports.compactMap { $0.device.map { $0.share(outcome) * 100 } } }
            let name = "device \(outcome.rawValue) share"
            let lowerIsBetter = outcome != .onTime
            if wallClock {
                var row = LatencyVerdict.judge(metric: name, kind: .count, unit: "%", baselineRuns: shares(baseline), newRuns: shares(new),
                                               lowerIsBetter: lowerIsBetter, relative: 0, floor: deviceShareFloorPoints,
                                               confidence: tolerances.confidence)
                if row.verdict == .withinTolerance {
                    row.note = "within \(ComparisonMarkdown.number(deviceShareFloorPoints)) points (a sender's device shares move with its pace)"
                }
                return row
            }
            let metric = CountFindings.Metric(name: name, unit: "%", polarity: lowerIsBetter ? .lowerIsBetter : .higherIsBetter, keyed: false) { _ in nil }
            return CountFindings.row(metric, baselineRuns: shares(baseline), newRuns: shares(new))
        }
    }
}
