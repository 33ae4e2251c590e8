import APNsCore

/// Human-readable renderings of a ``RunReport``: a short console summary and the Markdown `summary.md`.
/// Both are rendered from the report alone, so an old `report.json` renders the same way.
public enum SummaryText {
    /// A summary of about eight lines for the terminal: push classes, latency p50/p99/max, throughput.
    /// The caller adds the report's path.
    public static func console(_ report: RunReport) -> String {
        let p = report.pushes
        let c = report.configuration
        let width = String(p.planned).count
        func row(_ label: String, _ n: Int, _ detail: [String: Int] = [:]) -> String {
            let padded = label.padding(toLength: 11, withPad: " ", startingAt: 0)
            let number = String(repeating: " ", count: Swift.max(0, width - String(n).count)) + String(n)
            return "  " + padded + number + breakdown(detail)
        }
        let rejected = p.rejected.mapValues(\.count)
        let response = report.latency.responseTime
        let service = report.latency.serviceTime
        var lines: [String] = []
        lines.append("apnsbench: \(c.profilePath) → \(c.target), \(Format.fixed(report.durationSeconds, places: 1)) s, "
            + "\(p.planned) pushes planned" + (p.balanced ? " (balanced)" : " (NOT BALANCED)"))
        if let stop = SenderWording.stop(report) { lines.append("  stopped    " + stop.text) }
        if let m = report.merged {
            lines.append("  merged     \(m.shards) shards of run \(report.runID ?? "?") (\(Set(m.parts.compactMap(\.host)).count) host(s))")
        }
        if let s = c.shard { lines.append("  shard      \(s) of run \(report.runID ?? "?")") }
        lines.append(row("delivered", p.delivered))
        if let line = wouldNotDecodeLine(report) { lines.append(line) }
        if let line = deviceLine(report) { lines.append(line) }
        if let line = priorityOverrideLine(report) { lines.append("  tuning     " + line) }
        if let line = priorityReachLine(report) { lines.append("  tuning     " + line) }
        lines.append(row("rejected", p.rejectedTotal, rejected))
        lines.append(row("failed", p.failedTotal, p.failed))
        lines.append(row("timed out", p.timedOut))
        lines.append(row("not sent", p.notSentDue, p.notSentDueByCause))
        if p.afterEnd > 0 { lines.append(row("after end", p.afterEnd) + "  (due after the run's end: not judged)") }
        if response.count > 0, report.received != nil {
            lines.append("  latency    time in the simulator p50 \(Format.micros(response.p50)), p99 \(Format.micros(response.p99)), "
                + "max \(Format.micros(response.max))")
        } else if response.count > 0 {
            lines.append("  latency    response p50 \(Format.micros(response.p50)), p99 \(Format.micros(response.p99)), max \(Format.micros(response.max))"
                + " · service p50 \(Format.micros(service.p50)), p99 \(Format.micros(service.p99)), max \(Format.micros(service.max))")
        } else {
            lines.append("  latency    no delivered pushes")
        }
        lines.append("  throughput \(Format.fixed(report.throughput.pushesPerSecond, places: 1)) pushes/s")
        for o in TimelineOutage.find(in: report.timeline, interval: c.timelineInterval.secondsValue) {
            lines.append("  outage     no answer from \(Format.fixed(o.from, places: 0)) s to \(Format.fixed(o.to, places: 0)) s: "
                + "\(o.transportResends) resends after transport errors" + (o.connectionsLost > 0 ? ", \(o.connectionsLost) connections lost" : ""))
        }
        if let b = report.broadcast {
            lines.append("  broadcast  \(report.engine.devicesReached) devices reached by \(report.pushes.delivered) broadcasts on \(b.channels) channel(s)"
                + (b.storesRefused > 0 ? ", \(b.storesRefused) store(s) refused a channel (limit)" : "")
                + "; \(b.followersNotSubscribed) follower pushes not covered (not subscribed); \(b.managementCallCount) channel-API calls"
                + (b.kept ? ", channels kept" : ", \(b.deleted) deleted"))
        }
        for check in SLOCheck.checks(report) {
            lines.append("  SLO        " + check.line)
        }
        if let note = SLOCheck.shardNote(report) { lines.append("  SLO        " + note) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `  (A 3, B 1, +2 more)`: the three largest entries of a count table, or "" when empty.
    static func breakdown(_ counts: [String: Int]) -> String {
        let sorted = Format.byCount(counts)
        guard !sorted.isEmpty else { return "" }
        var parts = sorted.prefix(3).map { "\($0.key) \($0.count)" }
        if sorted.count > 3 { parts.append("+\(sorted.count - 3) more") }
        return "  (" + parts.joined(separator: ", ") + ")"
    }
}
