import APNsCore

extension SummaryText {
    /// The column label of the coordinated-omission-corrected latency.
    public static let responseTimeLabel = "response time (from intended send, corrected for coordinated omission)"
    /// The column label of the latency from the actual send.
    public static let serviceTimeLabel = "service time (from actual send)"

    /// The Markdown `summary.md`, fit for a pull-request comment: configuration, push counts and
    /// whether they balance, events, the latency ladder of both views, throughput, engine and
    /// environment, and bad-line samples if any. Contains no device tokens (reports never hold them).
    public static func markdown(_ report: RunReport) -> String {
        var md = ""
        heading(report, into: &md)
        pushes(report.pushes, into: &md)
        pushKinds(report, into: &md)
        received(report, into: &md)
        deviceContract(report, into: &md)
        device(report, into: &md)
        events(report.events, into: &md)
        if report.received == nil { latency(report.latency, into: &md) } else { timeInSimulator(report.latency, into: &md) }
        throughput(report, into: &md)
        broadcast(report, into: &md)
        coalescing(report, into: &md)
        serviceLevel(report, into: &md)
        // A sender's report has no engine of apnsbench's: the sender's side instead.
        if report.received == nil { engineAndEnvironment(report, into: &md) } else { senderSide(report, into: &md) }
        simulator(report, into: &md)
        badLines(report, into: &md)
        return md
    }

    /// `profile … · workload … · stream … · target … · …` on one line.
    /// - Parameter perEventPriority: the workload chose a priority per event (more than one was used), so
    ///   the configured one is only the default.
    /// - Parameter perKind: the run used push kinds the line's one push type, topic and expiration would misstate
    ///   (``kindsDiffer(_:)``): it points at the push kinds' table instead.
    static func configurationLine(_ c: RunConfig, perEventPriority: Bool = false, perKind: Int? = nil) -> String {
        let priority = String(c.payload.priority.rawValue)
        var parts = ["profile \(Format.code(c.profilePath))"]
        if let mix = c.workload.mix {
            // A mix: each part's recording, push type and topic.
            parts.append("mix of " + mix.map { p in
                "\(Format.code(p.name)) (stream \(Format.code(p.stream)), \(Format.code(p.pushType.rawValue)) to \(Format.code(p.topic)))"
            }.joined(separator: ", "))
            parts.append("target \(Format.code(c.target.description))")
        } else {
            parts += [
                "workload \(Format.code(c.workload.name))",
                "stream \(Format.code(c.workload.stream))",
                "target \(Format.code(c.target.description))",
            ]
            if perKind == nil { parts += ["push type \(Format.code(c.workload.pushType.rawValue))", "topic \(Format.code(c.topic))"] }
        }
        parts.append("priority \(perEventPriority ? "per event (default \(priority))" : priority)")
        if let perKind {
            parts.append("push type, topic and expiration per push kind (\(perKind), below)")
        } else {
            parts.append(c.payload.expiration.map { "expiration \($0.millis / 1000) s" } ?? "no expiration")
        }
        parts.append("\(c.transport.connections) connections × \(c.transport.streams) streams")
        parts.append(c.transport.workers == 1 ? "1 worker" : "\(c.transport.workers) workers")
        parts.append("schedule \(c.schedule.mode)")
        parts.append("token refresh \(Int(c.auth.tokenRefresh.secondsValue)) s")
        parts.append("push timeout \(c.transport.pushTimeout.millis) ms")
        parts.append("bad lines: \(c.workload.badLines.rawValue)")
        parts.append(c.schedule.duration.map { "duration limit \(Format.fixed($0.secondsValue, places: 1)) s" } ?? "no duration limit")
        return parts.joined(separator: " · ")
    }

    /// `10 attempts, backoff 1 s doubling to 60 s, within 300 s; 429 holds the token from 1 s`, or `never`.
    static func retryLine(_ r: RunConfig.Retry) -> String {
        guard r.attempts > 1 else { return "never" }
        func s(_ d: Duration) -> String { Format.fixed(d.secondsValue, places: d.millis % 1000 == 0 ? 0 : 1) }
        return "\(r.attempts) attempts, backoff \(s(r.backoff)) s ×\(Format.fixed(r.multiplier, places: r.multiplier == r.multiplier.rounded() ? 0 : 1)) "
            + "to \(s(max(r.maxBackoff, r.backoff))) s, within \(s(r.maxElapsed)) s; 429 holds the token from \(s(r.tokenBackoff)) s"
    }

    static func pushes(_ p: RunReport.Pushes, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        line("## Pushes")
        line()
        line("| outcome | pushes |")
        line("|:--|--:|")
        line("| planned | \(p.planned) |")
        line("| delivered | \(p.delivered) |")
        if let w = p.wouldNotDecode { line("| delivered: would not decode on device | \(w.total) |") }
        line("| rejected | \(p.rejectedTotal) |")
        let reasons = p.rejected.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
        for (reason, r) in reasons { line("| rejected: \(Format.cell(reason)) (\(r.status)) | \(r.count) |") }
        line("| failed | \(p.failedTotal) |")
        for (key, n) in Format.byCount(p.failed) { line("| failed: \(Format.cell(key)) | \(n) |") }
        line("| timed out | \(p.timedOut) |")
        line("| not sent | \(p.notSentDue) |")
        for (cause, n) in Format.byCount(p.notSentDueByCause) { line("| not sent: \(Format.cell(cause)) | \(n) |") }
        if p.afterEnd > 0 { line("| due after the run's end (not judged) | \(p.afterEnd) |") }
        line()
        line("Balanced: **\(p.balanced ? "yes" : "NO")** — \(balanceTerms(p)).")
        line()
    }

    /// `delivered 6 + rejected 1 + failed 0 + timed out 0 + not sent 1 + after the end 2 = 10, planned 10`:
    /// the push classes added up against `planned` (and the workload's expectation), as both views print it.
    static func balanceTerms(_ p: RunReport.Pushes) -> String {
        var text = "delivered \(p.delivered) + rejected \(p.rejectedTotal) + failed \(p.failedTotal) + timed out \(p.timedOut) "
            + "+ not sent \(p.notSentDue)" + (p.afterEnd > 0 ? " + after the end \(p.afterEnd)" : "")
            + " = \(p.classesTotal), planned \(p.planned)"
        if let expected = p.expectedPlanned { text += ", workload expected \(expected)" }
        return text
    }

    static func events(_ e: RunReport.Events, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        guard e.read > 0 else { return }
        line("## Events")
        line()
        line("\(e.read) read: \(e.producedPushes) produced pushes, \(e.stateOnly) state only, "
            + (e.noPushCondition.map { "\($0) no push (condition), " } ?? "") + "\(e.invalidTotal) invalid"
            + (e.invalid.isEmpty ? "" : " (" + Format.byCount(e.invalid).map { "\(Format.cell($0.key)) \($0.count)" }.joined(separator: ", ") + ")")
            + ". Balanced: **\(e.balanced ? "yes" : "NO")**.")
        line("By kind: " + Format.byCount(e.byKind).map { "\(Format.code($0.key)) \($0.count)" }.joined(separator: ", ") + ".")
        pushRules(e, into: &md)
        line()
    }

    static func latency(_ l: RunReport.Latency, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        line("## Latency (delivered pushes only, µs)")
        line()
        line("| | \(responseTimeLabel) | \(serviceTimeLabel) |")
        line("|:--|--:|--:|")
        let r = l.responseTime
        let s = l.serviceTime
        line("| count | \(r.count) | \(s.count) |")
        line("| min | \(r.min) | \(s.min) |")
        line("| p50 | \(r.p50) | \(s.p50) |")
        line("| p90 | \(r.p90) | \(s.p90) |")
        line("| p99 | \(r.p99) | \(s.p99) |")
        line("| p99.9 | \(r.p999) | \(s.p999) |")
        line("| max | \(r.max) | \(s.max) |")
        line("| mean | \(Format.fixed(r.mean, places: 1)) | \(Format.fixed(s.mean, places: 1)) |")
        line()
        if l.undeliveredSent > 0 {
            line("\(l.undeliveredSent) sent pushes were rejected, failed or timed out; they are not in these histograms.")
            line()
        }
        guard !l.byPriority.isEmpty else { return }
        line("By priority (µs):")
        line()
        line("| priority | count | response p50 | response p99 | response max | service p50 | service p99 | service max |")
        line("|--:|--:|--:|--:|--:|--:|--:|--:|")
        let priorities = l.byPriority.sorted { (Int($0.key) ?? 0, $0.key) > (Int($1.key) ?? 0, $1.key) }
        for (priority, pl) in priorities {
            let r = pl.responseTime
            let s = pl.serviceTime
            line("| \(Format.cell(priority)) | \(r.count) | \(r.p50) | \(r.p99) | \(r.max) | \(s.p50) | \(s.p99) | \(s.max) |")
        }
        line()
    }
}
