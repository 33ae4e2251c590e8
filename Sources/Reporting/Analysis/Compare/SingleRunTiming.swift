/// `compare --timing-min-runs N`: latency and throughput judged only with at least N runs a side. One run cannot
/// tell a change from the host's load: on a shared 2-core machine, two runs of the same binary 5 s long moved
/// p90 by +17% to +913% and p50 by up to +55%, past any tolerance that still catches a 10%
/// regression. With fewer runs the timing rows are shown, not judged; the counts still are.
public enum SingleRunTiming {
    static func method(_ minimumRuns: Int) -> String {
        "fewer than \(minimumRuns) runs on a side (--timing-min-runs \(minimumRuns)): shown, not judged"
    }

    static func notJudged(_ rows: inout [ComparisonReport.Row], _ minimumRuns: Int) {
        for i in rows.indices where rows[i].verdict != .unchanged {
            rows[i].verdict = .notJudged
            rows[i].note = "timing is judged with \(minimumRuns)+ runs a side (--timing-min-runs)"
        }
    }
}
