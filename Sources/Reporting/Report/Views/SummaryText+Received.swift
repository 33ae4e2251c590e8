extension SummaryText {
    /// `## Requests received` of a report written by `apnsbench simulate --report`: every request by push
    /// type, topic, priority and answer, and the Live Activity budget per token (the provider tokens and
    /// connections are the sender's side, ``senderSide(_:into:)``). Nothing for a run's report.
    static func received(_ report: RunReport, into md: inout String) {
        guard let r = report.received else { return }
        func line(_ text: String = "") { md += text + "\n" }
        line("## Requests received (by the simulator)")
        line()
        line("| push type | topic | priority | answer | requests |")
        line("|:--|:--|--:|:--|--:|")
        for c in r.requests {
            line("| \(Format.cell(c.pushType)) | \(Format.cell(c.topic)) | \(Format.cell(c.priority)) | \(Format.cell(c.answer)) | \(c.count) |")
        }
        line("| **all** | | | | **\(r.requests.reduce(0) { $0 + $1.count })** |")
        line()
        if let b = r.liveActivityBudget {
            line("Live Activity budget (\(b.perHour) priority-10 updates per token per hour): \(b.tokens) tokens, at most \(b.mostPerToken) to one; "
                 + "\(b.tokensOverBudget) tokens over it, \(b.overruns) pushes past it (APNs answers 200; iOS would throttle them).")
        }
        line()
    }
}
