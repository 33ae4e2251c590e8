import APNsCore

/// `summary.md`'s push kinds (each kind's push type, topic, priorities, expiration and collapse id) and its
/// pushes by push rule (planned, to send, not sent by cause), for a run whose workload has several of them.
extension SummaryText {
    /// Whether the configuration line's one push type, topic and expiration would misstate the run: it used more
    /// than one push kind, or a kind whose headers are not the profile's.
    static func kindsDiffer(_ report: RunReport) -> Bool {
        guard let kinds = report.pushKinds else { return false }
        let c = report.configuration
        return kinds.count > 1 || kinds.contains {
            $0.topic != c.topic || $0.pushType != c.workload.pushType.rawValue || $0.expirationPerPush == true
                || $0.expirationSeconds != c.payload.expiration.map { Int($0.millis / 1000) } || $0.collapseIDPerPush == true
        }
    }

    /// The push kinds the run handed pushes out for, one row each.
    static func pushKinds(_ report: RunReport, into md: inout String) {
        guard let kinds = report.pushKinds, kindsDiffer(report) else { return }
        func line(_ text: String = "") { md += text + "\n" }
        line("## Push kinds")
        line()
        line("| push type | topic | priority (pushes) | expiration | collapse id | pushes to send |")
        line("|:--|:--|:--|:--|:--|--:|")
        for k in kinds {
            let priorities = k.toSendByPriority.sorted { (Int($0.key) ?? 0) > (Int($1.key) ?? 0) }.map { "\($0.key): \($0.value)" }
            let expiration = k.expirationPerPush == true ? "each push's own" : k.expirationSeconds.map { "start + \($0) s" } ?? "none"
            let collapse = k.collapseIDPerPush == true ? "each push's own" : k.collapseID.map(Format.code) ?? "none"
            line("| \(Format.code(k.pushType)) | \(Format.code(k.topic)) | \(priorities.joined(separator: ", ")) | \(expiration) | \(collapse) | "
                + "\(k.toSendByPriority.values.reduce(0, +)) |")
        }
        line()
    }

    /// Every push rule's pushes, one row each; for a report written before rules were counted, the planned
    /// pushes of the kinds with several rules.
    static func pushRules(_ e: RunReport.Events, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        guard let rules = e.pushRules else {
            let rules = e.severalRules
            if !rules.isEmpty {
                line("Pushes planned by push rule: " + rules.map { kind, counts in
                    "\(Format.code(kind)) " + counts.map { "\(Format.cell($0.rule)) \($0.pushes)" }.joined(separator: ", ")
                }.joined(separator: "; ") + ".")
            }
            return
        }
        line()
        line("| event / push rule | planned | to send | not sent |")
        line("|:--|--:|--:|:--|")
        for r in rules {
            let notSent = r.notSent.values.reduce(0, +)
            let causes = r.notSent.sorted { $0.key < $1.key }.map { "\(Format.cell($0.key)) \($0.value)" }.joined(separator: ", ")
            line("| \(Format.code(r.kind)) / \(Format.cell(r.rule)) | \(r.planned) | \(r.toSend) | \(notSent)\(causes.isEmpty ? "" : " (\(causes))") |")
        }
    }
}
