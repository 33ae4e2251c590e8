import APNsCore
import DeviceDelivery

extension RunReport {
    /// The invariants every report this tool writes holds, checked field against field; empty when all hold.
    /// A report breaks one only when it was edited or damaged after it was written, or when its run
    /// miscounted, so `report`, `compare` and `merge` refuse such a report (``RunReport/load(from:)``).
    ///
    /// - Pushes: `planned = delivered + rejected + failed + timedOut + notSent`; `planned = expectedPlanned`
    ///   when the workload knew it; `balanced` says so; `wouldNotDecode.total ≤ delivered`.
    /// - Events: `read = producedPushes + stateOnly + noPushCondition + invalid`; `byKind` adds up to `read`;
    ///   `expectedPushes = pushes.expectedPlanned` when both are known; `pushesByRule` adds up to
    ///   `expectedPushes` less one per invalid event.
    /// - Latency: the delivered pushes' histograms (summaries and encoded) hold one value per sent and
    ///   answered delivered push: at most `delivered`, the same count overall, by priority (summed), by push
    ///   type and under `byOutcome.delivered`; `byOutcome.rejected`, `failed`, `timedOut` at most their class,
    ///   and together at most `undeliveredSent`; each encoded histogram's count equals its summary's.
    /// - Throughput and timeline: `completed ≤ sent`; the timeline's `sent`, `completed` and `delivered` add
    ///   up to `throughput.sent`, `throughput.completed` and the delivered histogram's count, its `rejected`,
    ///   `failed` and `timedOut` to the `byOutcome` counts, each interval's `errors` to its three parts, and
    ///   the last interval's `inFlight` is `sent − completed`.
    /// - Engine: attempts (`engine.sent`) = first sends (`planned − notSent`) + `retriesTotal`; `retries` adds
    ///   up to `retriesTotal` and holds only causes the retry policy resends (``RetryableCause``); with the
    ///   embedded simulator's counters, a reason the engine resent (a 503 above all) was resent or ended at
    ///   most as often as the simulator answered it (an answer on a connection that broke first never
    ///   reached the engine, so the engine may count fewer, never more).
    /// - Device: every delivered push has one device outcome: `device.pushes = delivered = Σ device.outcomes`;
    ///   the causes of `replaced` and `dropped` add up to them; the time-to-device histograms hold one value
    ///   per displayed push (`on_time + late`), by priority and by push type.
    ///
    /// - Parameter schemaVersion: the version the file declared. A schema 1 report carries no attempt count
    ///   (its `engine.sent` is converted from `throughput.sent`), so that invariant is not checked for it.
    public func violations(schemaVersion: Int = RunReport.currentSchemaVersion) -> [ReportViolation] {
        var found: [ReportViolation] = []
        func check(_ holds: Bool, _ field: String, expected: @autoclosure () -> String, found value: @autoclosure () -> String) {
            if !holds { found.append(ReportViolation(field: field, expected: expected(), found: value())) }
        }
        pushViolations(check)
        eventViolations(check)
        latencyViolations(check)
        timelineViolations(check)
        engineViolations(check, attempts: schemaVersion >= 2)
        deviceViolations(check)
        return found
    }

    typealias Check = (_ holds: Bool, _ field: String, _ expected: @autoclosure () -> String, _ found: @autoclosure () -> String) -> Void

    private func pushViolations(_ check: Check) {
        let p = pushes
        let classes = p.classesTotal
        check(classes == p.planned, "pushes.planned", "\(classes) (delivered + rejected + failed + timedOut + notSent)", "\(p.planned)")
        if let expected = p.expectedPlanned {
            check(expected == p.planned, "pushes.expectedPlanned", "\(p.planned) (planned)", "\(expected)")
        }
        if let w = p.wouldNotDecode {
            check(w.total <= p.delivered, "pushes.wouldNotDecode.total", "at most \(p.delivered) (delivered)", "\(w.total)")
        }
        // Only a run with an end of its own (a duration, which also ends a ramp) has pushes due after it.
        if configuration.schedule.durationSeconds == nil {
            check(p.afterEnd == 0, "pushes.notSent.after_end", "0 (the run has no duration, so no push is due after its end)", "\(p.afterEnd)")
        }
        let balances = classes == p.planned && (p.expectedPlanned ?? p.planned) == p.planned && (p.wouldNotDecode?.total ?? 0) <= p.delivered
        check(p.balanced == balances, "pushes.balanced",
              balances ? "true (the classes add up to planned)" : "false (the classes do not add up to planned)", "\(p.balanced)")
    }

    private func deviceViolations(_ check: Check) {
        guard let d = device else { return }
        check(d.pushes == pushes.delivered, "device.pushes", "\(pushes.delivered) (pushes.delivered)", "\(d.pushes)")
        let outcomes = d.outcomes.values.reduce(0, +)
        check(outcomes == d.pushes, "device.outcomes (sum)", "\(d.pushes) (device.pushes)", "\(outcomes)")
        for (name, causes) in [("replaced", d.replaced), ("dropped", d.dropped)] {
            let sum = causes.values.reduce(0, +), total = d.outcomes[name] ?? 0
            check(sum == total, "device.\(name) (sum)", "\(total) (device.outcomes.\(name))", "\(sum)")
        }
        let shown = (d.outcomes[DeviceDeliveryOutcomeClass.onTime.rawValue] ?? 0) + (d.outcomes[DeviceDeliveryOutcomeClass.late.rawValue] ?? 0)
        for (name, byKey) in [("byPriority", d.timeToDevice.byPriority), ("byPushType", d.timeToDevice.byPushType)] {
            let n = byKey.values.reduce(0) { $0 + $1.count }
            check(n == shown, "device.timeToDevice.\(name) (count)", "\(shown) (on_time + late)", "\(n)")
        }
    }

    private func eventViolations(_ check: Check) {
        let e = events
        let classes = e.producedPushes + e.stateOnly + (e.noPushCondition ?? 0) + e.invalidTotal
        check(classes == e.read, "events.read", "\(classes) (producedPushes + stateOnly + noPushCondition + invalid)", "\(e.read)")
        let byKind = e.byKind.values.reduce(0, +)
        check(byKind == e.read, "events.byKind (sum)", "\(e.read) (read)", "\(byKind)")
        if let expected = e.expectedPushes, let planned = pushes.expectedPlanned {
            check(expected == planned, "events.expectedPushes", "\(planned) (pushes.expectedPlanned)", "\(expected)")
        }
        if let byRule = e.pushesByRule, let expected = e.expectedPushes {
            let sum = byRule.values.reduce(0) { $0 + $1.values.reduce(0, +) }
            check(sum == expected - e.invalidTotal, "events.pushesByRule (sum)", "\(expected - e.invalidTotal) "
                + "(expectedPushes less one per invalid event)", "\(sum)")
        }
    }

    private func latencyViolations(_ check: Check) {
        let l = latency
        let delivered = l.serviceTime.count
        check(delivered <= pushes.delivered, "latency.serviceTime.count", "at most \(pushes.delivered) (pushes.delivered)", "\(delivered)")
        check(l.responseTime.count == delivered, "latency.responseTime.count", "\(delivered) (latency.serviceTime.count)", "\(l.responseTime.count)")
        if !l.byPriority.isEmpty {
            let sum = l.byPriority.values.reduce(0) { $0 + $1.serviceTime.count }
            check(sum == delivered, "latency.byPriority (sum of counts)", "\(delivered) (latency.serviceTime.count)", "\(sum)")
        }
        for (key, pair) in l.byPriority.sorted(by: { $0.key < $1.key }) {
            checkPair(check, pair, "latency.byPriority.\(key)")
        }
        for (key, pair) in (l.byPushType ?? [:]).sorted(by: { $0.key < $1.key }) {
            check(pair.serviceTime.count == delivered, "latency.byPushType.\(key).serviceTime.count",
                  "\(delivered) (latency.serviceTime.count)", "\(pair.serviceTime.count)")
            checkPair(check, pair, "latency.byPushType.\(key)")
        }
        let outcomes = l.byOutcome ?? [:]
        if let d = outcomes["delivered"] {
            check(d.serviceTime.count == delivered, "latency.byOutcome.delivered.serviceTime.count",
                  "\(delivered) (latency.serviceTime.count)", "\(d.serviceTime.count)")
        }
        let classes = [("rejected", pushes.rejectedTotal), ("failed", pushes.failedTotal), ("timedOut", pushes.timedOut)]
        for (name, total) in classes {
            guard let pair = outcomes[name] else { continue }
            check(pair.serviceTime.count <= total, "latency.byOutcome.\(name).serviceTime.count",
                  "at most \(total) (pushes.\(name))", "\(pair.serviceTime.count)")
        }
        for (name, pair) in outcomes.sorted(by: { $0.key < $1.key }) {
            checkPair(check, pair, "latency.byOutcome.\(name)")
        }
        let answeredUndelivered = classes.reduce(0) { $0 + (outcomes[$1.0]?.serviceTime.count ?? 0) }
        check(answeredUndelivered <= l.undeliveredSent, "latency.undeliveredSent",
              "at least \(answeredUndelivered) (latency.byOutcome rejected + failed + timedOut)", "\(l.undeliveredSent)")
        if let h = l.histograms { encodedViolations(check, h) }
    }

    /// Service and response time of one set of pushes are recorded together: the same count.
    private func checkPair(_ check: Check, _ pair: PriorityLatency, _ field: String) {
        check(pair.responseTime.count == pair.serviceTime.count, "\(field).responseTime.count",
              "\(pair.serviceTime.count) (\(field).serviceTime.count)", "\(pair.responseTime.count)")
    }

    /// Each encoded histogram holds as many values as the summary of the same name says.
    private func encodedViolations(_ check: Check, _ h: EncodedLatency) {
        func compare(_ encoded: EncodedPair, _ summary: PriorityLatency?, _ field: String) {
            let counts = [("serviceTime", encoded.serviceTime, summary?.serviceTime.count ?? 0),
                          ("responseTime", encoded.responseTime, summary?.responseTime.count ?? 0)]
            for (name, text, expected) in counts {
                let path = "latency.histograms.\(field).\(name)"
                guard let histogram = try? EncodedHistogram.decode(text) else {
                    check(false, path, "an HdrHistogram (\(EncodedLatency.encodingName))", "text that does not decode")
                    continue
                }
                check(Int(histogram.totalCount) == expected, "\(path) (count)", "\(expected) (the summary's count)", "\(histogram.totalCount)")
            }
        }
        compare(h.overall, PriorityLatency(serviceTime: latency.serviceTime, responseTime: latency.responseTime), "overall")
        for (key, pair) in h.byPriority.sorted(by: { $0.key < $1.key }) { compare(pair, latency.byPriority[key], "byPriority.\(key)") }
        for (key, pair) in h.byPushType.sorted(by: { $0.key < $1.key }) { compare(pair, latency.byPushType?[key], "byPushType.\(key)") }
        for (key, pair) in h.byOutcome.sorted(by: { $0.key < $1.key }) { compare(pair, latency.byOutcome?[key], "byOutcome.\(key)") }
    }

    private func timelineViolations(_ check: Check) {
        let t = throughput
        check(t.completed <= t.sent, "throughput.completed", "at most \(t.sent) (throughput.sent)", "\(t.completed)")
        guard !timeline.isEmpty else { return }
        func sum(_ value: (TimelineEntry) -> Int) -> Int { timeline.reduce(0) { $0 + value($1) } }
        check(sum(\.sent) == t.sent, "timeline[].sent (sum)", "\(t.sent) (throughput.sent)", "\(sum(\.sent))")
        check(sum(\.completed) == t.completed, "timeline[].completed (sum)", "\(t.completed) (throughput.completed)", "\(sum(\.completed))")
        let delivered = latency.serviceTime.count
        check(sum(\.delivered) == delivered, "timeline[].delivered (sum)", "\(delivered) (latency.serviceTime.count)", "\(sum(\.delivered))")
        let outcomes = latency.byOutcome ?? [:]
        let parts: [(String, KeyPath<TimelineEntry, Int?>)] = [("rejected", \.rejected), ("failed", \.failed), ("timedOut", \.timedOut)]
        if timeline.allSatisfy({ $0.rejected != nil && $0.failed != nil && $0.timedOut != nil }) {
            for (name, path) in parts where latency.byOutcome != nil {
                let total = sum { $0[keyPath: path] ?? 0 }
                let answered = outcomes[name]?.serviceTime.count ?? 0
                check(total == answered, "timeline[].\(name) (sum)", "\(answered) (latency.byOutcome.\(name) count)", "\(total)")
            }
            for entry in timeline {
                let split = (entry.rejected ?? 0) + (entry.failed ?? 0) + (entry.timedOut ?? 0)
                check(entry.errors == split, "timeline[second \(entry.second)].errors", "\(split) (rejected + failed + timedOut)", "\(entry.errors)")
            }
        }
        // Every resend the engine counted is on the timeline, by interval (reports that carry resends there).
        if timeline.allSatisfy({ $0.connectionsLost != nil }) {
            let resends = sum { $0.resends?.values.reduce(0, +) ?? 0 }
            check(resends == engine.retriesTotal, "timeline[].resends (sum)", "\(engine.retriesTotal) (engine.retriesTotal)", "\(resends)")
        }
        if let last = timeline.last, let inFlight = last.inFlight {
            check(inFlight == t.sent - t.completed, "timeline[last].inFlight", "\(t.sent - t.completed) "
                + "(throughput.sent − throughput.completed)", "\(inFlight)")
        }
    }

    private func engineViolations(_ check: Check, attempts: Bool) {
        let e = engine
        if attempts {
            let firstSends = pushes.planned - pushes.notSentTotal
            check(e.sent == firstSends + e.retriesTotal, "engine.sent",
                  "\(firstSends + e.retriesTotal) (first sends \(firstSends) = planned − notSent, + retriesTotal \(e.retriesTotal))", "\(e.sent)")
        }
        let retries = e.retries.values.reduce(0, +)
        check(retries == e.retriesTotal, "engine.retries (sum)", "\(e.retriesTotal) (engine.retriesTotal)", "\(retries)")
        for key in e.retries.keys.sorted() where !RetryableCause.isRetryable(key: key) {
            check(false, "engine.retries.\(key)", "no resend (the retry policy treats \(key) as final)", "\(e.retries[key] ?? 0)")
        }
        guard let simulator else { return }
        // Each reason the engine resent: its resends and final answers, against the answers the simulator counted.
        for reason in e.retries.keys.sorted() where !RetryableCause.isTransportKey(reason) {
            let seen = (e.retries[reason] ?? 0) + (pushes.rejected[reason]?.count ?? 0)
            let answered = (simulator["rejected_\(reason)"] ?? 0) + (simulator["broadcasts_rejected_\(reason)"] ?? 0)
            check(seen <= answered, "engine.retries.\(reason) + pushes.rejected.\(reason)",
                  "at most \(answered) (the simulator's rejected_\(reason))", "\(seen)")
        }
    }
}
