/// The sections of `summary.md` that a report written by `apnsbench simulate --report` has instead of a run's
/// latency and engine sections: the time in the simulator, and the sender's side as the simulator saw it.
extension SummaryText {
    /// `## Time in the simulator`: one latency (a sender's report has no intended or actual send), by priority.
    static func timeInSimulator(_ l: RunReport.Latency, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        line("## Time in the simulator (delivered pushes only, µs)")
        line()
        line("The simulator's own time: from a request's last frame read to its answer due (the model's delay included). "
            + "The sender's own time is not seen from here.")
        line()
        let t = l.responseTime
        line("| | \(SenderWording.timeInSimulatorLabel) |")
        line("|:--|--:|")
        for (label, value) in [("count", t.count), ("min", t.min), ("p50", t.p50), ("p90", t.p90), ("p99", t.p99), ("p99.9", t.p999), ("max", t.max)] {
            line("| \(label) | \(value) |")
        }
        line("| mean | \(Format.fixed(t.mean, places: 1)) |")
        line()
        guard !l.byPriority.isEmpty else { return }
        line("| priority | count | p50 | p99 | max |")
        line("|--:|--:|--:|--:|--:|")
        for (priority, pl) in l.byPriority.sorted(by: { (Int($0.key) ?? 0, $0.key) > (Int($1.key) ?? 0, $1.key) }) {
            let r = pl.responseTime
            line("| \(Format.cell(priority)) | \(r.count) | \(r.p50) | \(r.p99) | \(r.max) |")
        }
        line()
    }

    /// `## The sender's side`: its arrivals a second over time, the open streams, connections and requests per
    /// connection, and how often it reused a provider token.
    static func senderSide(_ report: RunReport, into md: inout String) {
        guard report.received != nil else { return }
        md += "## The sender's side (as the simulator saw it)\n\n"
        md += senderSideLines(report).map { "- " + $0 + "\n" }.joined() + "\n"
    }

    /// The sender's side, one fact a line (the Markdown and the page list them).
    static func senderSideLines(_ report: RunReport) -> [String] {
        guard let r = report.received else { return [] }
        var lines: [String] = []
        func line(_ text: String) { lines.append(text) }
        let arrivals = report.timeline.map(\.sent)
        if let peak = arrivals.max() {
            let sorted = arrivals.sorted()
            let shown = arrivals.prefix(60).map(String.init).joined(separator: ", ") + (arrivals.count > 60 ? ", …" : "")
            line("arrivals a second: peak \(peak), median \(sorted[sorted.count / 2]) over \(arrivals.count) s; by second: \(shown)")
        } else {
            line("arrivals a second: none arrived")
        }
        let c = r.connections
        line("open streams: " + (c.mostOpenStreams.map { "at most \($0) requests awaiting an answer at once on one connection" } ?? "not counted"))
        let streams = c.requestsPerConnection.sorted()
        let spread = streams.isEmpty ? "none" : "least \(streams[0]), median \(streams[streams.count / 2]), most \(streams[streams.count - 1])"
        line("connections: \(c.opened) opened, \(c.closed) closed; requests per connection: \(spread)")
        let t = r.providerTokens
        let reuse = t.verified > 0 ? Format.fixed(Double(report.pushes.planned) / Double(t.verified), places: 1) + " requests per token" : "no token verified"
        line("provider tokens: \(t.verified) verified (signings seen, once per connection), \(reuse); \(t.tooManyUpdates) "
            + "TooManyProviderTokenUpdates, \(t.expired) ExpiredProviderToken, \(t.invalidOrMissing) invalid or missing")
        return lines
    }
}
