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
        func line(_ text: String = "") { md += text + "\n" }

        line("# apnsbench run: \(Format.cell(report.configuration.profilePath))")
        line()
        line("**Configuration:** " + configurationLine(report.configuration, perEventPriority: report.latency.byPriority.count > 1))
        line()
        line("Started \(report.startedAt), ran \(Format.fixed(report.durationSeconds, places: 1)) s. "
            + "Written by \(report.generator.name) \(report.generator.version), report schema \(report.schemaVersion).")
        line()
        if let why = report.stopReason {
            line("**Stopped early:** " + Format.cell(why))
            line()
        }
        if let m = report.merged {
            line("**Merged** from \(m.shards) shards of run `\(Format.cell(report.runID ?? "?"))`: "
                + m.parts.map { "shard \($0.index) (\(Format.cell($0.host ?? "?")), started \($0.startedAt), \(Format.fixed($0.durationSeconds, places: 1)) s)" }.joined(separator: "; ") + ".")
            line()
        } else if let s = report.configuration.shard {
            line("**Shard \(s)** of run `\(Format.cell(report.runID ?? "?"))`: it sent the pushes whose device token hashes to \(s.index); merge the shards with `apnsbench merge`.")
            line()
        }

        pushes(report.pushes, into: &md)
        deviceContract(report, into: &md)
        events(report.events, into: &md)
        latency(report.latency, into: &md)

        let t = report.throughput
        line("## Throughput")
        line()
        line("**\(Format.fixed(t.pushesPerSecond, places: 1)) pushes/s** (completed pushes over the time from the first send "
            + "to the last completion); \(t.sent) sent, \(t.completed) completed.")
        if !report.timeline.isEmpty {
            let peakSent = report.timeline.map(\.sent).max() ?? 0
            let peakErrors = report.timeline.map(\.errors).max() ?? 0
            line("Timeline: \(report.timeline.count) s; peak \(peakSent) sent/s, peak \(peakErrors) errors/s.")
        }
        line()

        if let b = report.broadcast {
            line("## Broadcast channels")
            line()
            line("| devices reached | broadcasts delivered | channels | stores refused (limit) | follower pushes not covered | channel-API calls | channels at the end |")
            line("|--:|--:|--:|--:|--:|--:|---|")
            line("| \(report.engine.devicesReached) | \(report.pushes.delivered) | \(b.channels) | \(b.storesRefused) | \(b.followersNotSubscribed) | "
                + "\(b.managementCallCount) (\(b.managementCalls.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))) | "
                + "\(b.kept ? "kept" : "\(b.deleted) deleted") |")
            line()
            line("Devices reached counts each delivered broadcast's subscribers as the recording subscribed them: "
                + "APNs does not say which devices a broadcast reached, and an uninstalled app's activity counts too.")
            line()
        }

        if let c = report.coalescing {
            line("## Coalescing")
            line()
            line("Window \(c.windowMillis) ms: **\(c.pushesSaved) pushes saved** (updates superseded by a newer one for the same "
                + "Live Activity token). Staleness added per update (recorded ms): p50 \(c.staleness.p50), p99 \(c.staleness.p99), "
                + "max \(c.staleness.max), over \(c.staleness.count) updates.")
            line()
        }

        let checks = SLOCheck.checks(report)
        if let note = SLOCheck.shardNote(report) {
            line("## Service-level objective")
            line()
            line("The \(note).")
            line()
        }
        if !checks.isEmpty {
            line("## Service-level objective")
            line()
            line("| objective | target | this run | |")
            line("|---|---|---|---|")
            for c in checks { line("| \(c.what) | \(c.target) | \(c.actual) | \(c.met ? "met" : "**missed**") |") }
            line()
        }

        let e = report.engine
        let env = report.environment
        line("## Engine and environment")
        line()
        let c = report.configuration
        line("- connections: \(c.transport.connections) × \(c.transport.streams) streams configured, \(e.connectionsOpened) opened")
        line("- provider token signings: \(e.providerTokenSignings)")
        line("- peak in flight: \(e.peakInFlight)")
        line("- knobs: priority \(c.payload.priority), workers \(c.transport.workers), coalesce \(c.coalescing.windowMillis.map { "\($0) ms" } ?? "off"), apns-expiration \(c.payload.expirationSeconds.map { "start + \($0) s" } ?? "none"), apns-collapse-id \(c.payload.collapseID.map { Format.code($0) } ?? "none")\(c.target == .simulator ? ", simulator \(c.simulator.mode)" : "")")
        line("- retry policy: \(retryLine(c.retry))")
        if let b = report.liveActivityBudget {
            line("- Live Activity budget (recorded time, an assumed \(b.priority10PerHour) priority-10 updates per activity per hour): \(b.throttled) of \(b.priority10Updates) updates would be throttled on the device, for \(b.activitiesThrottled) activities")
        }
        let byCause = e.retries.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        line("- retries: \(e.retriesTotal)\(byCause.isEmpty ? "" : " (\(Format.cell(byCause)))"); tokens held after 429: \(e.tokenBackoffs); dead tokens (410): \(e.deadTokens); provider tokens re-signed after expiry: \(e.providerTokenRefreshes)")
        line("- reconnects: \(e.reconnects) (\(e.reconnectHolds) held by backoff); connections given up stalled: \(e.stalls) (\(c.transport.stallLimit > 0 ? "no answer byte for \(c.transport.stallLimit) s" : "watchdog off")); idle PINGs: \(e.pings)")
        let perPush = e.sent > 0 ? Format.fixed(Double(e.wakeUps) / Double(e.sent), places: 2) : "-"
        let workers = max(1, c.transport.workers)
        let busy = report.durationSeconds > 0 ? Double(e.engineCPUMillis) / 1000 / report.durationSeconds / Double(workers) : 0
        line("- engine threads' CPU: \(Format.fixed(Double(e.engineCPUMillis) / 1000, places: 1)) s, \(Format.fixed(busy * 100, places: 0)) % of a core per worker\(busy >= 0.9 ? ": the harness itself was near its limit (add --workers, or a release build)" : "")")
        line("- wake-ups: \(e.wakeUps) (\(perPush) per push sent): returns from the engine's wait, a few per push at most unless it spins")
        line("- libcurl \(Format.cell(env.libcurl)) (TLS \(Format.cell(env.ssl)), nghttp2 \(Format.cell(env.nghttp2)))")
        line("- \(Format.cell(env.os)), \(env.cpuCount) CPUs, host \(Format.code(env.hostname))")
        line()

        if let simulator = report.simulator, !simulator.isEmpty {
            line("## Simulator")
            line()
            if let settings = c.simulator.settings { line("- the profile's model and faults: \(Format.code(settings.json))") }
            for (key, n) in simulator.sorted(by: { $0.key < $1.key }) { line("- \(Format.cell(key)): \(n)") }
            line()
        }

        let samples = report.events.badLineSamples
        if !samples.isEmpty {
            let total = report.events.invalidTotal
            line("## Bad lines (first \(samples.count) of \(Swift.max(total, samples.count)) invalid events)")
            line()
            line("| line | cause | detail |")
            line("|--:|:--|:--|")
            for s in samples { line("| \(s.line) | \(Format.cell(s.cause)) | \(Format.cell(s.detail)) |") }
            line()
        }
        return md
    }

    /// `profile … · workload … · stream … · target … · …` on one line.
    /// - Parameter perEventPriority: the workload chose a priority per event (more than one was used), so
    ///   the configured one is only the default.
    static func configurationLine(_ c: RunConfig, perEventPriority: Bool = false) -> String {
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
                "push type \(Format.code(c.workload.pushType.rawValue))",
                "topic \(Format.code(c.topic))",
            ]
        }
        parts.append("priority \(perEventPriority ? "per event (default \(priority))" : priority)")
        parts.append(c.payload.expirationSeconds.map { "expiration \($0) s" } ?? "no expiration")
        parts.append("\(c.transport.connections) connections × \(c.transport.streams) streams")
        parts.append(c.transport.workers == 1 ? "1 worker" : "\(c.transport.workers) workers")
        parts.append("schedule \(c.schedule.mode)")
        parts.append("token refresh \(Int(c.auth.tokenRefreshMinutes * 60)) s")
        parts.append("push timeout \(c.transport.pushTimeoutMillis) ms")
        parts.append("bad lines: \(c.workload.badLines.rawValue)")
        parts.append(c.schedule.durationSeconds.map { "duration limit \(Format.fixed($0, places: 1)) s" } ?? "no duration limit")
        return parts.joined(separator: " · ")
    }

    /// `10 attempts, backoff 1 s doubling to 60 s, within 300 s; 429 holds the token from 1 s`, or `never`.
    static func retryLine(_ r: RunConfig.Retry) -> String {
        guard r.attempts > 1 else { return "never" }
        func s(_ ms: Int64) -> String { Format.fixed(Double(ms) / 1000, places: ms % 1000 == 0 ? 0 : 1) }
        return "\(r.attempts) attempts, backoff \(s(r.backoffMillis)) s ×\(Format.fixed(r.multiplier, places: r.multiplier == r.multiplier.rounded() ? 0 : 1)) to \(s(max(r.maxBackoffMillis, r.backoffMillis))) s, within \(s(r.maxElapsedMillis)) s; 429 holds the token from \(s(r.tokenBackoffMillis)) s"
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
        let rules = e.severalRules
        if !rules.isEmpty {
            line("Pushes planned by push rule: " + rules.map { kind, counts in
                "\(Format.code(kind)) " + counts.map { "\(Format.cell($0.rule)) \($0.pushes)" }.joined(separator: ", ")
            }.joined(separator: "; ") + ".")
        }
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
