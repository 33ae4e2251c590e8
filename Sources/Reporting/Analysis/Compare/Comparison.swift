/// `apnsbench compare`'s logic, from reports read to a ``ComparisonReport``: first whether the runs may be
/// compared at all (``Comparability``), then the exact counts (``CountFindings``), then throughput and
/// latency (``LatencyVerdict``).
public enum Comparison {
    public struct Options: Sendable, Equatable {
        public var tolerances = ComparisonReport.Tolerances()
        /// Environment differences (libcurl, nghttp2, cores) are warnings instead of refusals.
        public var allowEnvironmentMismatch = false
        /// Improvements fail the comparison (exit 4).
        public var failOnImprovement = false
        /// Configuration fields (report.json paths or prefixes ending in `.`, from ``DifferOn``) the sides may
        /// differ in on purpose (`--differ-on`): a what-if. Every other difference still refuses.
        public var differOn: [String] = []
        /// Latency and throughput are judged only with at least this many runs a side; with fewer they are shown,
        /// not judged (`--timing-min-runs`). Default 1: tolerances judge even single runs.
        public var timingMinimumRuns = 1

        public init(tolerances: ComparisonReport.Tolerances = .init(), allowEnvironmentMismatch: Bool = false, failOnImprovement: Bool = false) {
            self.tolerances = tolerances
            self.allowEnvironmentMismatch = allowEnvironmentMismatch
            self.failOnImprovement = failOnImprovement
        }
    }

    /// Compares two sides, each one or more runs. Neither side may be empty.
    public static func compare(baseline: ComparisonReport.Side, _ a: [LoadedReport], new: ComparisonReport.Side, _ b: [LoadedReport],
                               options: Options = .init()) -> ComparisonReport {
        precondition(!a.isEmpty && !b.isEmpty, "each side needs at least one report")
        var differences: [Difference] = []
        for (name, side) in [("baseline", a), ("new", b)] {
            for run in side.dropFirst() {
                differences += Comparability.differences(side[0], run, between: "\(name) runs \(side[0].path) and \(run.path)")
            }
        }
        var varied: [Difference] = []
        for d in Comparability.differences(a[0], b[0], between: "baseline vs new") {
            if d.kind == .configuration, DifferOn.covers(options.differOn, field: d.field) { varied.append(d) } else { differences.append(d) }
        }
        var warnings: [String] = []
        if let note = Comparability.simulatorNotRecorded(a + b) { warnings.append(note) }
        var refusals = differences
        if options.allowEnvironmentMismatch {
            refusals = differences.filter { $0.kind != .environment }
            warnings += differences.filter { $0.kind == .environment }.map { "environment differs (--allow-env-mismatch): \($0)" }
        }
        let t = options.tolerances
        let method = ComparisonReport.Method(
            latency: LatencyVerdict.method(baselineRuns: a.count, newRuns: b.count, tolerances: t, timingMinimumRuns: options.timingMinimumRuns),
            counts: a.count == 1 && b.count == 1 ? "exact" : "exact, on the median of each side's runs")
        func report(_ verdict: ComparisonReport.Verdict, _ rows: [ComparisonReport.Row]) -> ComparisonReport {
            var r = ComparisonReport(verdict: verdict, baseline: baseline, new: new, workload: a[0].report.configuration.workload.label,
                                     tolerances: t, method: method, failOnImprovement: options.failOnImprovement,
                                     refusals: refusals, warnings: warnings, rows: rows)
            r.varied = varied.isEmpty ? nil : varied
            return r
        }
        guard refusals.isEmpty else { return report(.incomparable, []) }

        let ra = a.map(\.report), rb = b.map(\.report)
        var rows = CountFindings.rows(baseline: ra, new: rb, notes: &warnings)
        ConnectionCount.judge(&rows)
        rows += SendFindings.rows(baseline: ra, new: rb, tolerances: t)
        rows += LatencyVerdict.rows(baseline: ra, new: rb, tolerances: t, warnings: &warnings, timingMinimumRuns: options.timingMinimumRuns)
        // Regressions first; otherwise the order above (counts, throughput, latency) holds.
        rows = rows.enumerated().sorted { ($0.element.verdict.rank, $0.offset) < ($1.element.verdict.rank, $1.offset) }.map(\.element)
        let verdict: ComparisonReport.Verdict =
            rows.contains { $0.verdict == .regression } ? .regression
            : rows.contains { $0.verdict == .improvement } ? .improvementsOnly : .noRegression
        return report(verdict, rows)
    }
}
