import APNsCore

/// The sections of `summary.md` after its counts, events and latency, in the order ``SummaryText/markdown(_:)``
/// writes them.
extension SummaryText {
    /// The title, the configuration line, when and how long it ran, and a stop, merge or shard note.
    static func heading(_ report: RunReport, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        if report.received != nil {
            // Written by `apnsbench simulate --report`: the sender's configuration is not known, only what it sent.
            line("# apnsbench simulate: the requests a sender made")
            line()
            line("**Seen from the simulator** (configuration \(Format.code(report.configuration.profilePath))): planned is every request received, "
                 + "latency is the time in the simulator (last frame read to answer due), the timeline is arrivals and answers.")
        } else {
            line("# apnsbench run: \(Format.cell(report.configuration.profilePath))")
            line()
            line("**Configuration:** " + configurationLine(report.configuration, perEventPriority: report.latency.byPriority.count > 1,
                                                            perKind: kindsDiffer(report) ? report.pushKinds?.count : nil))
        }
        line()
        line("Started \(report.startedAt), ran \(Format.fixed(report.durationSeconds, places: 1)) s. "
            + "Written by \(report.generator.name) \(report.generator.version), report schema \(report.schemaVersion).")
        line()
        if let stop = SenderWording.stop(report) {
            line("**\(stop.label):** " + Format.cell(stop.text))
            line()
        }
        if let m = report.merged {
            line("**Merged** from \(m.shards) shards of run `\(Format.cell(report.runID ?? "?"))`: "
                + m.parts.map { p in
                    "shard \(p.index) (\(Format.cell(p.host ?? "?")), started \(p.startedAt), \(Format.fixed(p.durationSeconds, places: 1)) s)"
                }.joined(separator: "; ") + ".")
            line()
        } else if let s = report.configuration.shard {
            line("**Shard \(s)** of run `\(Format.cell(report.runID ?? "?"))`: it sent the pushes whose device token hashes to \(s.index); "
                + "merge the shards with `apnsbench merge`.")
            line()
        }
    }

    /// Completed pushes per second, and the timeline's peaks.
    static func throughput(_ report: RunReport, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
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
    }

    /// Broadcast delivery's channels and the devices reached.
    static func broadcast(_ report: RunReport, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        if let b = report.broadcast {
            line("## Broadcast channels")
            line()
            line("| devices reached | broadcasts delivered | channels | stores refused (limit) "
                + "| follower pushes not covered | channel-API calls | channels at the end |")
            line("|--:|--:|--:|--:|--:|--:|---|")
            line("| \(report.engine.devicesReached) | \(report.pushes.delivered) | \(b.channels) | \(b.storesRefused) | \(b.followersNotSubscribed) | "
                + "\(b.managementCallCount) (\(b.managementCalls.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))) | "
                + "\(b.kept ? "kept" : "\(b.deleted) deleted") |")
            line()
            line("Devices reached counts each delivered broadcast's subscribers as the recording subscribed them: "
                + "APNs does not say which devices a broadcast reached, and an uninstalled app's activity counts too.")
            line()
        }
    }

    /// The coalescing window's saving and the staleness it added.
    static func coalescing(_ report: RunReport, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        if let c = report.coalescing {
            line("## Coalescing")
            line()
            line("Window \(c.windowMillis) ms: **\(c.pushesSaved) pushes saved** (updates superseded by a newer one for the same "
                + "Live Activity token). Staleness added per update (recorded ms): p50 \(c.staleness.p50), p99 \(c.staleness.p99), "
                + "max \(c.staleness.max), over \(c.staleness.count) updates.")
            line()
        }
    }

    /// The SLO's objectives, each met or missed (or why a shard judges none).
    static func serviceLevel(_ report: RunReport, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
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
    }

    /// The engine's counters and knobs, libcurl's build and the machine.
    static func engineAndEnvironment(_ report: RunReport, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        let e = report.engine
        let env = report.environment
        line("## Engine and environment")
        line()
        let c = report.configuration
        line("- connections: \(c.transport.connections) × \(c.transport.streams) streams configured, \(e.connectionsOpened) opened")
        line("- provider token signings: \(e.providerTokenSignings)")
        line("- peak in flight: \(e.peakInFlight)")
        line("- knobs: priority \(c.payload.priority), workers \(c.transport.workers), coalesce \(c.coalescing.window.map { "\($0.millis) ms" } ?? "off"), "
            + "apns-expiration \(c.payload.expiration.map { "start + \($0.millis / 1000) s" } ?? "none"), "
            + "apns-collapse-id \(c.payload.collapseID.map { Format.code($0) } ?? "none")\(c.target == .simulator ? ", simulator \(c.simulator.mode)" : "")")
        line("- retry policy: \(retryLine(c.retry))")
        if let b = report.liveActivityBudget {
            line("- Live Activity budget (recorded time, an assumed \(b.priority10PerHour) priority-10 updates per activity per hour): \(b.throttled) "
                + "of \(b.priority10Updates) updates would be throttled on the device, for \(b.activitiesThrottled) activities")
        }
        let byCause = e.retries.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        line("- retries: \(e.retriesTotal)\(byCause.isEmpty ? "" : " (\(Format.cell(byCause)))"); tokens held after 429: \(e.tokenBackoffs); "
            + "dead tokens (410): \(e.deadTokens); provider tokens re-signed after expiry: \(e.providerTokenRefreshes)")
        line("- reconnects: \(e.reconnects) (\(e.reconnectHolds) held by backoff); connections given up stalled: \(e.stalls) "
            + "(\(c.transport.stallLimit > .zero ? "no answer byte for \(c.transport.stallLimit.millis / 1000) s" : "watchdog off")); idle PINGs: \(e.pings)")
        let perPush = e.sent > 0 ? Format.fixed(Double(e.wakeUps) / Double(e.sent), places: 2) : "-"
        let workers = max(1, c.transport.workers)
        let busy = report.durationSeconds > 0 ? Double(e.engineCPUMillis) / 1000 / report.durationSeconds / Double(workers) : 0
        line("- engine threads' CPU: \(Format.fixed(Double(e.engineCPUMillis) / 1000, places: 1)) s, \(Format.fixed(busy * 100, places: 0)) % of a core per "
            + "worker\(busy >= 0.9 ? ": the harness itself was near its limit (add --workers, or a release build)" : "")")
        line("- wake-ups: \(e.wakeUps) (\(perPush) per push sent): returns from the engine's wait, a few per push at most unless it spins")
        line("- libcurl \(Format.cell(env.libcurl)) (TLS \(Format.cell(env.ssl)), nghttp2 \(Format.cell(env.nghttp2)))")
        line("- \(Format.cell(env.os)), \(env.cpuCount) CPUs, host \(Format.code(env.hostname))")
        line()
    }

    /// The embedded simulator's model and counters.
    static func simulator(_ report: RunReport, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
        if let simulator = report.simulator, !simulator.isEmpty {
            line("## Simulator")
            line()
            if let settings = report.configuration.simulator.settings { line("- the profile's model and faults: \(Format.code(settings.json))") }
            for (key, n) in simulator.sorted(by: { $0.key < $1.key }) { line("- \(Format.cell(key)): \(n)") }
            line()
        }
    }

    /// The first bad lines, with their causes.
    static func badLines(_ report: RunReport, into md: inout String) {
        func line(_ text: String = "") { md += text + "\n" }
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
    }
}
