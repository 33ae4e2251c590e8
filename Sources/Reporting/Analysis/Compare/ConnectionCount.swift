/// Connections opened depend on timing: libcurl opens another connection when pushes wait while the open ones
/// are full (before the target's first SETTINGS, or at a stream limit of 1 until the provider token is
/// accepted), and a sender's pool does the same. So the count is judged within a tolerance, not exactly: a
/// change of at most ``relative`` of the baseline, and never less than ``floor`` connections, is within
/// tolerance (as is one within the runs' own spread); past it, polarity decides (more is worse).
public enum ConnectionCount {
    public static let metric = "connections opened"
    public static let relative = 0.10
    public static let floor = 1.0

    static func judge(_ rows: inout [ComparisonReport.Row]) {
        for i in rows.indices where rows[i].metric == metric && [.regression, .improvement].contains(rows[i].verdict) {
            guard let change = rows[i].change else { continue }
            let allowed = Swift.max(floor, relative * abs(rows[i].baseline ?? 0))
            if abs(change) <= allowed {
                rows[i].verdict = .withinTolerance
                rows[i].note = "within ±\(ComparisonMarkdown.number(allowed)) (connections opened depend on timing: "
                    + "\(ComparisonMarkdown.number(relative * 100))% of the baseline, at least \(ComparisonMarkdown.number(floor)))"
            }
        }
    }
}
