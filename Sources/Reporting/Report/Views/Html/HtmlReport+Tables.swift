import APNsCore
import Foundation

/// The page's tables: outcomes, bad lines, coalescing, the Live Activity budget, configuration, engine,
/// simulator and environment.
extension HtmlReport {
    func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section id=\"\(id)\">\n<h2>\(HtmlEscape.escape(title))</h2>\n\(body)</section>\n"
    }

    func outcomes() -> String {
        let p = report.pushes
        func share(_ n: Int) -> String { p.planned > 0 ? Format.fixed(Double(n) / Double(p.planned) * 100, places: 2) + " %" : "-" }
        func row(_ label: String, _ n: Int, sub: Bool = false, total: Bool = false) -> String {
            "<tr\(sub ? " class=\"sub\"" : total ? " class=\"total\"" : "")><td>\(label)</td><td class=\"n\">\(n)</td><td class=\"n\">\(share(n))</td></tr>\n"
        }
        var t = "<table><thead><tr><th>outcome</th><th class=\"n\">pushes</th><th class=\"n\">of planned</th></tr></thead><tbody>\n"
        t += row("delivered", p.delivered)
        if let w = p.wouldNotDecode { t += row("would not decode on device (<a href=\"#device-contract\">device contract</a>)", w.total, sub: true) }
        t += row("rejected by APNs", p.rejectedTotal)
        let reasons = p.rejected.sorted { $0.value.count != $1.value.count ? $0.value.count > $1.value.count : $0.key < $1.key }
        for (reason, r) in reasons { t += row("<code>\(HtmlEscape.text(reason))</code> (\(r.status))", r.count, sub: true) }
        t += row("failed in transport", p.failedTotal)
        for (key, n) in Format.byCount(p.failed) { t += row("<code>\(HtmlEscape.text(key))</code>", n, sub: true) }
        t += row("timed out", p.timedOut)
        t += row("not sent", p.notSentDue)
        for (cause, n) in Format.byCount(p.notSentDueByCause) { t += row("<code>\(HtmlEscape.text(cause))</code>", n, sub: true) }
        if p.afterEnd > 0 { t += row("due after the run's end (not judged)", p.afterEnd) }
        t += row("planned", p.planned, total: true)
        t += "</tbody></table>\n"
        t += "<p>Balanced: <strong>\(p.balanced ? "yes" : "NO")</strong> — \(SummaryText.balanceTerms(p)).</p>\n"
        let e = report.events
        if e.read > 0 {
            t += "<p>Events: \(e.read) read — \(e.producedPushes) produced pushes, \(e.stateOnly) state only, "
                + (e.noPushCondition.map { "\($0) no push (condition), " } ?? "") + "\(e.invalidTotal) invalid"
            if !e.invalid.isEmpty {
                t += " (" + Format.byCount(e.invalid).map { "<code>\(HtmlEscape.text($0.key))</code> \($0.count)" }.joined(separator: ", ") + ")"
            }
            t += ". Balanced: <strong>\(e.balanced ? "yes" : "NO")</strong>. By kind: "
                + Format.byCount(e.byKind).map { "<code>\(HtmlEscape.text($0.key))</code> \($0.count)" }.joined(separator: ", ") + ".</p>\n"
            let rules = e.severalRules
            if !rules.isEmpty {
                t += "<p>Pushes planned by push rule: " + rules.map { kind, counts in
                    "<code>\(HtmlEscape.text(kind))</code> " + counts.map { "\(HtmlEscape.text($0.rule)) \($0.pushes)" }.joined(separator: ", ")
                }.joined(separator: "; ") + ".</p>\n"
            }
        }
        if report.latency.undeliveredSent > 0 {
            t += "<p class=\"note\">\(report.latency.undeliveredSent) sent pushes were rejected, failed or timed out; "
                + "the latency charts are of delivered pushes only.</p>\n"
        }
        return section("outcomes", "Outcomes: every planned push in exactly one class", t)
    }

    func badLines() -> String {
        let samples = report.events.badLineSamples
        guard !samples.isEmpty else { return "" }
        var t = "<p>The first \(samples.count) of \(Swift.max(report.events.invalidTotal, samples.count)) invalid events (tokens redacted):</p>\n"
        t += "<table><thead><tr><th class=\"n\">line</th><th>cause</th><th>detail</th></tr></thead><tbody>\n"
        for s in samples {
            t += "<tr><td class=\"n\">\(s.line)</td><td><code>\(HtmlEscape.text(s.cause))</code></td><td>\(HtmlEscape.text(s.detail))</td></tr>\n"
        }
        t += "</tbody></table>\n"
        return section("bad-lines", "Bad lines", t)
    }

    func coalescing() -> String {
        guard let c = report.coalescing else { return "" }
        let s = c.staleness
        var t = "<p>Window \(c.windowMillis) ms: <strong>\(c.pushesSaved) pushes saved</strong> (Live Activity updates superseded by a newer one "
            + "for the same token, counted as not sent <code>coalesced</code>).</p>\n"
        if s.count > 0 {
            t += "<p>Staleness added per update (recorded ms, from the update's recorded time until a push carrying it or newer state was released), "
                + "over \(s.count) updates:</p>\n"
            t += "<table><thead><tr>" + ["p50", "p90", "p99", "p99.9", "max", "mean"].map { "<th class=\"n\">\($0)</th>" }.joined() + "</tr></thead><tbody><tr>"
            t += [s.p50, s.p90, s.p99, s.p999, s.max].map { "<td class=\"n\">\($0)</td>" }.joined() + "<td class=\"n\">\(Format.fixed(s.mean, places: 1))</td>"
            t += "</tr></tbody></table>\n"
        } else {
            t += "<p class=\"empty\">no updates went through the coalescer in this run</p>\n"
        }
        return section("coalescing", "Coalescing", t)
    }

    /// Broadcast delivery: the channels, the devices the broadcasts reached, what the channels cost.
    func broadcast() -> String {
        guard let b = report.broadcast else { return "" }
        var t = "<p><strong>\(report.engine.devicesReached) devices reached by \(report.pushes.delivered) broadcasts</strong> on \(b.channels) channel(s), "
            + "one per store the recording subscribed activities to. Devices reached counts each delivered broadcast's subscribers as the "
            + "recording subscribed them: APNs does not say which devices a broadcast reached.</p>\n"
        t += keyValueTable([
            ("follower pushes not covered (followers not subscribed to the store's channel)", String(b.followersNotSubscribed)),
            ("stores refused a channel (the app's channel limit)", String(b.storesRefused)),
            ("channel-API calls", b.managementCalls.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")),
            ("channels at the end", b.kept ? "kept (keep_channels)" : "\(b.deleted) deleted"),
        ])
        return section("broadcast", "Broadcast channels", t)
    }

    /// The Live Activity priority-10 budget: shown for Live Activity runs against a simulator that counted it.
    func liveActivity() -> String {
        guard report.configuration.sendsLiveActivities else { return "" }
        var t = ""
        if let b = report.liveActivityBudget {
            t += "<p><strong>\(b.throttled) of \(b.priority10Updates) priority-10 updates would be throttled on the device</strong>, for "
                + "\(b.activitiesThrottled) activities: judged per activity over a rolling hour of the recording's own clock (the same at any "
                + "replay speed), with an assumed budget of \(b.priority10PerHour) an hour (Apple does not publish it).</p>\n"
        }
        if let overruns = report.simulator?["liveactivity_budget_overruns"] {
            let p10 = report.latency.byPriority["10"]?.responseTime.count ?? 0
            t += "<p>The simulator counted \(overruns) pushes over the budget on its own wall clock (APNs answered 200), "
                + "among \(p10) priority-10 pushes delivered: that figure moves with the replay's pace.</p>\n"
        }
        if let malformed = report.simulator?["liveactivity_malformed"] { t += "<p>\(malformed) Live Activity payloads were malformed but accepted.</p>\n" }
        return t.isEmpty ? "" : section("live-activity", "Live Activity budget", t)
    }

    func configuration() -> String {
        var t = "<p>The run's configuration, verbatim from <code>report.json</code>: the profile with the command line's flags laid over it.</p>\n"
        t += keyValueTable(Self.flatten(report.configuration))
        return section("configuration", "Configuration", t)
    }

    func engine() -> String {
        if report.received != nil {
            // A sender's report: apnsbench's engine did not send it.
            let items = SummaryText.senderSideLines(report).map { "<li>\(HtmlEscape.text($0))</li>" }.joined(separator: "\n")
            return section("engine", "The sender's side (as the simulator saw it)", "<ul>\n\(items)\n</ul>\n")
        }
        let e = report.engine
        var t = ""
        if e.sent > 0 {
            t += "<p>\(Format.fixed(Double(e.wakeUps) / Double(e.sent), places: 2)) wake-ups per push sent; peak \(e.peakInFlight) in flight; "
                + "\(e.connectionsOpened) connections opened for \(report.configuration.transport.connections) configured.</p>\n"
        }
        t += keyValueTable(Self.flatten(e))
        return section("engine", "Engine counters", t)
    }

    func simulator() -> String {
        guard let counters = report.simulator, !counters.isEmpty else { return "" }
        return section("simulator", "Simulator counters", keyValueTable(counters.sorted { $0.key < $1.key }.map { ($0.key, String($0.value)) }))
    }

    func environment() -> String {
        let env = report.environment
        let rows: [(String, String)] = [
            ("libcurl", env.libcurl), ("TLS", env.ssl), ("nghttp2", env.nghttp2), ("operating system", env.os),
            ("CPUs", String(env.cpuCount)), ("host", env.hostname), ("started", report.startedAt),
            ("duration", Format.fixed(report.durationSeconds, places: 2) + " s"),
            ("written by", "\(report.generator.name) \(report.generator.version), report schema \(report.schemaVersion)"),
        ]
        return section("environment", "Environment", keyValueTable(rows))
    }

    func keyValueTable(_ rows: [(String, String)]) -> String {
        var t = "<table><tbody>\n"
        for (key, value) in rows { t += "<tr><th><code>\(HtmlEscape.text(key))</code></th><td>\(HtmlEscape.text(value))</td></tr>\n" }
        return t + "</tbody></table>\n"
    }

    /// A value as JSON, flattened to `a.b.c` paths and their values (keys sorted; `none` for null or empty):
    /// every field shows, including ones added after this renderer was written.
    static func flatten<T: Encodable>(_ value: T) -> [(String, String)] {
        ConfigValue.leaves(of: value).map { ($0.path, $0.value ?? "none") }
    }
}
