import Foundation

/// Latency percentiles and throughput: noisy, so a change is flagged only when it is past both the
/// relative and the absolute tolerance, and — with at least 3 runs on each side — when the bootstrap
/// confidence interval of the median difference excludes 0 (``Statistics``). With fewer runs the
/// tolerances decide alone, and ``method(baselineRuns:newRuns:tolerances:)`` says so.
///
/// Latency: p50, p90, p99 and p99.9 of response time (from the intended send) and service time (from
/// the actual send), overall and per priority, read from each run's ``LatencySummary`` (µs) and shown
/// in milliseconds. Throughput: `throughput.pushesPerSecond`.
public enum LatencyVerdict {
    /// Runs per side from which the bootstrap decides significance.
    public static let minimumRunsForStatistics = 3
    /// Samples a percentile needs beyond it in every run (for p99.9: 10,000 delivered pushes) before its
    /// change may be a finding: with fewer, one or two slow answers move it past any tolerance.
    public static let minimumSamplesBeyond = 10

    public static func method(baselineRuns: Int, newRuns: Int, tolerances: ComparisonReport.Tolerances, timingMinimumRuns: Int = 1) -> String {
        if min(baselineRuns, newRuns) < timingMinimumRuns { return SingleRunTiming.method(timingMinimumRuns) }
        if baselineRuns == 1 && newRuns == 1 { return "single run per side: tolerances only" }
        if min(baselineRuns, newRuns) < minimumRunsForStatistics {
            return "\(baselineRuns) baseline and \(newRuns) new runs (fewer than \(minimumRunsForStatistics) on a side): tolerances only, on each side's median"
        }
        return "\(baselineRuns) baseline and \(newRuns) new runs: flagged when past both tolerances and the bootstrap "
            + "\(Int((tolerances.confidence * 100).rounded()))% confidence interval of the median difference excludes 0 "
            + "(per-run values, fixed seed); otherwise within noise"
    }

    /// The latency views every run of both sides has: overall, then each priority.
    static func views(_ reports: [RunReport], warnings: inout [String]) -> [(label: String, pick: (RunReport) -> RunReport.PriorityLatency?)] {
        var out: [(label: String, pick: (RunReport) -> RunReport.PriorityLatency?)] = [
            ("", { RunReport.PriorityLatency(serviceTime: $0.latency.serviceTime, responseTime: $0.latency.responseTime) }),
        ]
        let priorities = Set(reports.flatMap { $0.latency.byPriority.keys }).sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        for p in priorities {
            let everywhere = reports.allSatisfy { ($0.latency.byPriority[p]?.responseTime.count ?? 0) > 0 }
            if everywhere {
                out.append((" (priority \(p))", { $0.latency.byPriority[p] }))
            } else {
                warnings.append("latency of priority \(p) is not in every run (nothing delivered at that priority in some): not compared")
            }
        }
        return out
    }

    /// Each percentile with the share of samples beyond it.
    static var percentiles: [(name: String, beyond: Double, pick: (LatencySummary) -> Int)] {
        [("p50", 0.5, { $0.p50 }), ("p90", 0.1, { $0.p90 }), ("p99", 0.01, { $0.p99 }), ("p99.9", 0.001, { $0.p999 })]
    }

    /// Reports written by `apnsbench simulate --report` on both sides with fewer than 3 runs a side: their
    /// timing (the server's time, the sender's rate on a shared machine) is shown, not judged.
    static func timingJudged(_ baseline: [RunReport], _ new: [RunReport]) -> Bool {
        let senders = (baseline + new).allSatisfy { $0.received != nil }
        return !senders || min(baseline.count, new.count) >= minimumRunsForStatistics
    }

    /// A latency row with its sample counts; a finding resting on too few samples beyond its percentile
    /// becomes ``ComparisonReport/Row/Verdict/tooFewSamples``.
    static func withSamples(_ row: ComparisonReport.Row, percentile: String, beyond share: Double, baseline: [Int], new: [Int]) -> ComparisonReport.Row {
        var row = row
        row.baselineSamples = baseline.reduce(0, +)
        row.newSamples = new.reduce(0, +)
        let fewest = (baseline + new).min() ?? 0
        let beyond = Int((Double(fewest) * share).rounded(.down))
        if beyond < minimumSamplesBeyond, [.regression, .improvement, .withinNoise].contains(row.verdict) {
            row.verdict = .tooFewSamples
            row.note = "\(beyond) samples beyond \(percentile) in the smallest run (of \(fewest)); at least \(minimumSamplesBeyond) are needed"
        }
        return row
    }

    /// One row for throughput and one per latency percentile and view, unsorted.
    public static func rows(baseline: [RunReport], new: [RunReport], tolerances t: ComparisonReport.Tolerances,
                            warnings: inout [String], timingMinimumRuns: Int = 1) -> [ComparisonReport.Row] {
        var out = [judge(metric: "throughput", kind: .throughput, unit: "pushes/s",
                         baselineRuns: baseline.map(\.throughput.pushesPerSecond), newRuns: new.map(\.throughput.pushesPerSecond),
                         lowerIsBetter: false, relative: t.throughputRelative, floor: t.throughputFloor, confidence: t.confidence)]
        for view in views(baseline + new, warnings: &warnings) {
            for (time, pickTime) in [("response time", { (l: RunReport.PriorityLatency) in l.responseTime }),
                                     ("service time", { (l: RunReport.PriorityLatency) in l.serviceTime })] {
                let emptySomewhere = (baseline + new).contains { view.pick($0).map { pickTime($0).count == 0 } ?? true }
                if emptySomewhere {
                    if view.label.isEmpty { warnings.append("\(time): a run delivered nothing, so its latency is not compared") }
                    continue
                }
                func counts(_ rs: [RunReport]) -> [Int] { rs.map { pickTime(view.pick($0)!).count } }
                for (p, share, pickP) in percentiles {
                    func values(_ rs: [RunReport]) -> [Double] { rs.map { Double(pickP(pickTime(view.pick($0)!))) / 1_000 } }
                    let row = judge(metric: "\(time) \(p)\(view.label)", kind: .latency, unit: "ms",
                                    baselineRuns: values(baseline), newRuns: values(new), lowerIsBetter: true,
                                    relative: t.latencyRelative, floor: t.latencyFloorMillis, confidence: t.confidence)
                    out.append(withSamples(row, percentile: p, beyond: share, baseline: counts(baseline), new: counts(new)))
                }
            }
        }
        if min(baseline.count, new.count) < timingMinimumRuns {
            SingleRunTiming.notJudged(&out, timingMinimumRuns)
        } else if !timingJudged(baseline, new) {
            for i in out.indices where out[i].verdict != .unchanged {
                out[i].verdict = .notJudged
                out[i].note = "a sender's report (simulate --report): timing is judged with \(minimumRunsForStatistics)+ runs a side"
            }
        }
        return out
    }

    /// The verdict of one noisy metric from its per-run values.
    public static func judge(metric: String, kind: ComparisonReport.Row.Kind, unit: String, baselineRuns a: [Double], newRuns b: [Double],
                             lowerIsBetter: Bool, relative: Double, floor: Double, confidence: Double = 0.95) -> ComparisonReport.Row {
        func row(_ verdict: ComparisonReport.Row.Verdict, _ note: String?, _ interval: Statistics.Interval? = nil) -> ComparisonReport.Row {
            ComparisonReport.Row(metric: metric, kind: kind, unit: unit, baseline: Statistics.median(a), new: Statistics.median(b),
                                 verdict: verdict, note: note, baselineRuns: a, newRuns: b, interval: interval)
        }
        guard let x = Statistics.median(a), let y = Statistics.median(b) else { return row(.unchanged, "not recorded on one side") }
        let change = y - x
        if change == 0 { return row(.unchanged, nil) }
        let pastRelative = x == 0 || abs(change) > relative * abs(x)
        let pastFloor = abs(change) > floor
        let floorText = ComparisonMarkdown.number(floor) + " " + unit
        let relativeText = ComparisonMarkdown.number(relative * 100) + "%"
        guard pastRelative && pastFloor else {
            let why: String
            switch (pastRelative, pastFloor) {
            case (true, false): why = "past \(relativeText) but not past the \(floorText) floor"
            case (false, true): why = "past the \(floorText) floor but not past \(relativeText)"
            default: why = "within \(relativeText) and the \(floorText) floor"
            }
            return row(.withinTolerance, why)
        }
        let worse = lowerIsBetter ? change > 0 : change < 0
        let verdict: ComparisonReport.Row.Verdict = worse ? .regression : .improvement
        guard a.count >= minimumRunsForStatistics, b.count >= minimumRunsForStatistics else {
            return row(verdict, a.count == 1 && b.count == 1 ? "single run per side: tolerances only" : "tolerances only")
        }
        guard let ci = Statistics.bootstrapMedianDifference(baseline: a, new: b, confidence: confidence) else {
            return row(verdict, "tolerances only")
        }
        let ciText = "\(Int((confidence * 100).rounded()))% CI [\(ComparisonMarkdown.signed(ci.lower)), \(ComparisonMarkdown.signed(ci.upper))] \(unit)"
        // Significant only in the direction of the change.
        let significant = change > 0 ? ci.lower > 0 : ci.upper < 0
        return significant ? row(verdict, ciText, ci) : row(.withinNoise, ciText + " includes 0", ci)
    }
}
