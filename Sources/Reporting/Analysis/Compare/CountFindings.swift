import APNsCore

/// The counts `compare` compares exactly: against the simulator they are deterministic for a given
/// recording and configuration, so any change is a finding. Each count has a polarity that says which
/// way is worse:
///
/// | count | worse when |
/// | --- | --- |
/// | planned | it changes at all (the same stream and configuration plan the same pushes) |
/// | delivered | fewer |
/// | delivered but would not decode on the device, in all and by field (the device contract) | more |
/// | rejected, by reason | more; a reason that was not there before is a regression |
/// | failed, by transport error; timed out | more |
/// | not sent, by cause (but `after_end`: due after the run's end, not judged) | more |
/// | provider-token signings | more |
/// | connections opened | more, past a tolerance (``ConnectionCount``: the count depends on timing) |
/// | Live Activity budget overruns (simulator counter `liveactivity_budget_overruns`) | more |
/// | Live Activity updates the budget throttles in recorded time (the run's own `liveActivityBudget`) | more |
///
/// With repeated runs each side's value is the median of its runs; a count that differs between the
/// repeats of one side is noted, and a change within that spread is noise (``judgeTiming(_:baseline:new:)``),
/// as are delivered pushes that moved to `after_end` and the dead-token split.
public enum CountFindings {
    /// The simulator's counter of Live Activity priority-10 pushes past their budget.
    public static let budgetOverrunsKey = "liveactivity_budget_overruns"

    enum Polarity {
        case lowerIsBetter, higherIsBetter, anyChangeIsWorse
    }

    struct Metric {
        var name: String
        var unit: String
        var polarity: Polarity
        /// A keyed count (a reason, a cause): absent on a side where it is 0 in every run.
        var keyed: Bool
        var value: (RunReport) -> Int?
    }

    static func metrics(_ reports: [RunReport]) -> [Metric] {
        var out: [Metric] = [
            Metric(name: "planned", unit: "pushes", polarity: .anyChangeIsWorse, keyed: false) { $0.pushes.planned },
            Metric(name: "delivered", unit: "pushes", polarity: .higherIsBetter, keyed: false) { $0.pushes.delivered },
        ]
        func keys(_ pick: (RunReport) -> [String]) -> [String] { Set(reports.flatMap(pick)).sorted() }
        // Runs checked against a model (compare refuses a checked run against an unchecked one).
        if reports.contains(where: { $0.pushes.wouldNotDecode != nil }) {
            out.append(Metric(name: "delivered, would not decode on device", unit: "pushes", polarity: .lowerIsBetter, keyed: false) {
                $0.pushes.wouldNotDecode?.total
            })
            for field in keys({ Array(($0.pushes.wouldNotDecode?.byField ?? [:]).keys) }) {
                out.append(Metric(name: "would not decode \(field)", unit: "pushes", polarity: .lowerIsBetter, keyed: true) {
                    $0.pushes.wouldNotDecode.map { $0.byField[field] ?? 0 }
                })
            }
        }
        for reason in keys({ Array($0.pushes.rejected.keys) }) {
            out.append(Metric(name: "rejected \(reason)", unit: "pushes", polarity: .lowerIsBetter, keyed: true) { $0.pushes.rejected[reason]?.count ?? 0 })
        }
        for key in keys({ Array($0.pushes.failed.keys) }) {
            out.append(Metric(name: "failed \(key)", unit: "pushes", polarity: .lowerIsBetter, keyed: true) { $0.pushes.failed[key] ?? 0 })
        }
        out.append(Metric(name: "timed out", unit: "pushes", polarity: .lowerIsBetter, keyed: false) { $0.pushes.timedOut })
        // Pushes due after the run's end are not judged: fewer or more of them is neither better nor worse
        // (they are part of `planned`, which is compared).
        for cause in keys({ Array($0.pushes.notSentDueByCause.keys) }) {
            out.append(Metric(name: "not sent \(cause)", unit: "pushes", polarity: .lowerIsBetter, keyed: true) { $0.pushes.notSent[cause] ?? 0 })
        }
        out.append(Metric(name: "provider-token signings", unit: "signings", polarity: .lowerIsBetter, keyed: false) { $0.engine.providerTokenSignings })
        out.append(Metric(name: "connections opened", unit: "connections", polarity: .lowerIsBetter, keyed: false) { $0.engine.connectionsOpened })
        if reports.contains(where: { $0.simulator?[budgetOverrunsKey] != nil }) {
            out.append(Metric(name: "Live Activity budget overruns", unit: "pushes", polarity: .lowerIsBetter, keyed: false) {
                $0.simulator?[budgetOverrunsKey]
            })
        }
        // The run's own count, in recorded time: it needs no simulator, so it compares against real APNs too.
        if reports.contains(where: { $0.liveActivityBudget != nil }) {
            out.append(Metric(name: "Live Activity budget-throttled (recorded time)", unit: "pushes", polarity: .lowerIsBetter, keyed: false) {
                $0.liveActivityBudget?.throttled
            })
        }
        return out
    }

    /// One row per count, unsorted; `notes` gets a line for each count that varies between one side's repeats.
    public static func rows(baseline: [RunReport], new: [RunReport], notes: inout [String]) -> [ComparisonReport.Row] {
        var rows = metrics(baseline + new).map { metric in
            let a = baseline.compactMap(metric.value).map(Double.init)
            let b = new.compactMap(metric.value).map(Double.init)
            for (side, values) in [("baseline", a), ("new", b)] where Set(values).count > 1 {
                notes.append("\(metric.name) differs between the \(side) runs: \(values.map(ComparisonMarkdown.number).joined(separator: ", ")) "
                    + "(the median is compared)")
            }
            return row(metric, baselineRuns: a, newRuns: b)
        }
        judgeTiming(&rows, baseline: baseline, new: new)
        return rows
    }

    /// Counts that depend on timing are judged against their run-to-run noise, not exactly: a change no
    /// bigger than the spread between one side's own runs; delivered pushes that moved to `after_end` (due
    /// after the run's end, a matter of when the end fell); and the dead-token split (`not sent dead_token`
    /// against `rejected Unregistered`: how many pushes to a dead token go out before its first 410 comes
    /// back), when their sum is unchanged. Such changes are within noise, never regressions.
    static func judgeTiming(_ rows: inout [ComparisonReport.Row], baseline: [RunReport], new: [RunReport]) {
        func median(_ reports: [RunReport], _ value: (RunReport) -> Int) -> Double { Statistics.median(reports.map { Double(value($0)) }) ?? 0 }
        func spread(_ values: [Double]) -> Double { (values.max() ?? 0) - (values.min() ?? 0) }
        let findings: [ComparisonReport.Row.Verdict] = [.regression, .improvement]
        // Planned pushes are fixed by the recording, unless a duration cut the runs: then where the end fell
        // decides how many were planned too.
        let durationBound = (baseline + new).allSatisfy { $0.configuration.schedule.duration != nil }
        for i in rows.indices where findings.contains(rows[i].verdict) && (rows[i].metric != "planned" || durationBound) {
            // Each side's median lies within its own runs' range: the two ranges together bound honest noise.
            let noise = spread(rows[i].baselineRuns) + spread(rows[i].newRuns)
            if let change = rows[i].change, noise > 0, abs(change) <= noise {
                rows[i].verdict = .withinNoise
                rows[i].note = "within the runs' own spread of \(ComparisonMarkdown.number(noise))"
            }
        }
        // Where the end fell decides which pushes near it were due: pushes of any class move to or from
        // after_end. A change no bigger than after_end's own is that, unless a reason or cause is new.
        let afterEnd = NotSentCause.afterEnd.rawValue
        let moved = median(new) { $0.pushes.notSent[afterEnd] ?? 0 } - median(baseline) { $0.pushes.notSent[afterEnd] ?? 0 }
        let pushClasses = ["delivered", "rejected ", "failed ", "not sent ", "timed out"]
        for i in rows.indices where findings.contains(rows[i].verdict) && pushClasses.contains(where: rows[i].metric.hasPrefix) {
            guard moved != 0, let change = rows[i].change, abs(change) <= abs(moved), (rows[i].baseline ?? 0) != 0 else { continue }
            rows[i].verdict = .withinNoise
            rows[i].note = "\(ComparisonMarkdown.signed(change)) while after_end moved \(ComparisonMarkdown.signed(moved)) (pushes due after the run's end: "
                + "where the end fell)"
        }
        let deadToken = NotSentCause.deadToken.rawValue, unregistered = Reason.unregistered.rawValue
        func dead(_ r: RunReport) -> Int { (r.pushes.notSent[deadToken] ?? 0) + (r.pushes.rejected[unregistered]?.count ?? 0) }
        guard median(baseline, dead) == median(new, dead) else { return }
        for i in rows.indices where findings.contains(rows[i].verdict) && ["not sent \(deadToken)", "rejected \(unregistered)"].contains(rows[i].metric) {
            rows[i].verdict = .withinNoise
            rows[i].note = "dead-token split: not sent \(deadToken) + rejected \(unregistered) is \(ComparisonMarkdown.number(median(new, dead))) "
                + "on both sides "
                + "(which one a push to a dead token lands in is timing)"
        }
    }

    static func row(_ metric: Metric, baselineRuns a: [Double], newRuns b: [Double]) -> ComparisonReport.Row {
        let base = Statistics.median(a), new = Statistics.median(b)
        let x = base ?? 0, y = new ?? 0
        var verdict = ComparisonReport.Row.Verdict.unchanged
        var note: String?
        if base != nil, new != nil, x != y {
            switch metric.polarity {
            case .higherIsBetter: verdict = y > x ? .improvement : .regression
            case .lowerIsBetter: verdict = y < x ? .improvement : .regression
            case .anyChangeIsWorse:
                verdict = .regression
                note = "changed: the same recording and configuration should plan the same pushes"
            }
            if metric.keyed, x == 0 { note = "new: not there before" }
            if metric.keyed, y == 0 { note = "gone" }
        } else if base == nil || new == nil {
            note = "not recorded on one side"
        }
        return ComparisonReport.Row(metric: metric.name, kind: .count, unit: metric.unit, baseline: base, new: new,
                                    verdict: verdict, note: note, baselineRuns: a, newRuns: b)
    }
}
