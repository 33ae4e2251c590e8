import Foundation

/// The page's charts: the percentile spectrum and the timeline (throughput by class, p50/p99, in flight
/// and connections with their events).
extension HtmlReport {
    /// Percentiles the spectrum is drawn at: 161 steps evenly spaced on the log 1/(1−p) axis, 90 % … 99.999 %.
    static let spectrumPercentiles: [Double] = (0...160).map { SvgChart.percentile(at: 1 + Double($0) * 4 / 160) }

    /// A latency histogram's percentile spectrum in ms: from the encoded histogram when it decodes, else from
    /// the summary's ladder (p90, p99, p99.9: all a report without histograms has); empty when nothing was recorded.
    static func spectrum(encoded: String?, summary: LatencySummary) -> [ChartPoint] {
        if let encoded, let values = EncodedPercentiles.values(encoded, at: spectrumPercentiles) {
            return zip(spectrumPercentiles, values).map { ChartPoint(x: $0, y: Double($1) / 1000) }
        }
        guard summary.count > 0 else { return [] }
        return [(90.0, summary.p90), (99.0, summary.p99), (99.9, summary.p999)].map { ChartPoint(x: $0.0, y: Double($0.1) / 1000) }
    }

    static func priorityStyle(_ key: String) -> String { ["10", "5", "1"].contains(key) ? "p" + key : "other" }

    static func ms(_ v: Double) -> String { SvgChart.number(v) + " ms" }

    func spectrum() -> String {
        let l = report.latency
        let hist = l.histograms
        let sender = report.received != nil
        var body = "<p class=\"note\">Latency of delivered pushes at each percentile, on HdrHistogram's log 1/(1−p) axis. "
            + (sender ? "A sender's report has one latency: " + SenderWording.timeInSimulatorLabel + "." : "Response time counts "
            + "from the intended send (corrected for coordinated omission), service time from the actual send.")
            + "\(hist == nil ? " This report holds no encoded histograms: drawn from its percentile ladder (p90, p99, p99.9) only." : "")</p>\n"
        let overall = SvgChart(
            title: "Percentile spectrum, all delivered pushes", xLabel: "percentile", yLabel: "latency (ms)",
            emptyText: "no deliveries in this run", xScale: .percentile, formatY: SvgChart.number,
            lines: [
                .init(name: sender ? "time in the simulator" : "response time (from intended send)", style: "response",
                      points: Self.spectrum(encoded: hist?.overall.responseTime, summary: l.responseTime)),
            ] + (sender ? [] : [
                .init(name: "service time (from actual send)", style: "service",
                      points: Self.spectrum(encoded: hist?.overall.serviceTime, summary: l.serviceTime), dashed: true),
            ]))
        body += overall.render()
        let priorities = l.byPriority.keys.sorted { (Int($0) ?? 0, $0) > (Int($1) ?? 0, $1) }
        if priorities.count > 1 {
            var lines: [SvgChart.Series] = []
            for key in priorities {
                let summary = l.byPriority[key]!
                let pair = hist?.byPriority[key]
                lines.append(.init(name: "priority \(key) response", style: Self.priorityStyle(key),
                                   points: Self.spectrum(encoded: pair?.responseTime, summary: summary.responseTime)))
                lines.append(.init(name: "priority \(key) service", style: Self.priorityStyle(key),
                                   points: Self.spectrum(encoded: pair?.serviceTime, summary: summary.serviceTime), dashed: true))
            }
            body += SvgChart(title: "Percentile spectrum by priority", xLabel: "percentile", yLabel: "latency (ms)",
                             emptyText: "no deliveries in this run", xScale: .percentile, lines: lines).render()
        } else if let only = priorities.first {
            body += "<p class=\"note\">Every delivered push had priority \(HtmlEscape.text(only)): the spectrum by priority is the one above.</p>\n"
        }
        return section("spectrum", "Latency percentile spectrum", body)
    }

    // MARK: - Timeline

    /// Seconds per timeline entry (the run's `report_interval`, 1 s unless it set one).
    var interval: Double { report.configuration.timelineInterval.secondsValue }

    /// Where an entry starts, in seconds since the run's start (`second` is the interval's start).
    func seconds(_ e: RunReport.TimelineEntry) -> Double { Double(e.second) }

    var timeAxis: String { interval == 1 ? "seconds since start" : "seconds since start (\(Int(interval)) s intervals)" }

    /// "Drawn from 1000 of 3600 intervals" when a series was downsampled, else "".
    func downsampleNote(_ total: Int) -> String {
        guard total > Self.maxPointsPerSeries else { return "" }
        return "<p class=\"note\">\(total) intervals; each series is drawn from at most \(Self.maxPointsPerSeries) of them, "
            + "chosen by Largest-Triangle-Three-Buckets so peaks and dips stay.</p>\n"
    }

    func throughputOverTime() -> String {
        let tl = report.timeline
        let per = 1 / interval
        let detailed = tl.contains { $0.rejected != nil || $0.failed != nil || $0.timedOut != nil }
        var layers: [(String, String, (RunReport.TimelineEntry) -> Int)] = [("delivered", "delivered", { $0.delivered })]
        if detailed {
            layers += [("rejected", "rejected", { $0.rejected ?? 0 }), ("failed", "failed", { $0.failed ?? 0 }),
                       ("timed out", "timedout", { $0.timedOut ?? 0 })]
        } else {
            layers.append(("errors (rejected, failed or timed out)", "errors", { $0.errors }))
        }
        var chart = SvgChart(title: "Sends and completions per second, completions stacked by class", xLabel: timeAxis, yLabel: "pushes/s",
                             emptyText: "no pushes were sent in this run")
        if tl.contains(where: { $0.sent > 0 || $0.completed > 0 }) {
            let totals = tl.map { e in ChartPoint(x: seconds(e), y: Double(layers.reduce(0) { $0 + $1.2(e) }) * per) }
            let keep = Lttb.indices(totals, to: Self.maxPointsPerSeries)
            chart.stackX = keep.map { totals[$0].x }
            chart.layers = layers.map { name, style, value in .init(name: name, style: style, values: keep.map { Double(value(tl[$0])) * per }) }
            let sent = tl.map { ChartPoint(x: seconds($0), y: Double($0.sent) * per) }
            chart.lines = [.init(name: "sent", style: "sent", points: Lttb.downsample(sent, to: Self.maxPointsPerSeries))]
        }
        let peakSent = tl.map(\.sent).max() ?? 0
        let peakErrors = tl.map(\.errors).max() ?? 0
        var body = chart.render() + downsampleNote(tl.count)
        if !tl.isEmpty {
            body += "<p class=\"note\">\(tl.count) intervals; peak \(SvgChart.number(Double(peakSent) * per)) sent/s, "
                + "peak \(SvgChart.number(Double(peakErrors) * per)) errors/s.</p>\n"
        }
        return section("throughput", "Throughput over time", body)
    }

    func latencyOverTime() -> String {
        var p50: [ChartPoint] = []
        var p99: [ChartPoint] = []
        for e in report.timeline {
            guard let encoded = e.responseTime, let v = EncodedPercentiles.values(encoded, at: [50, 99]) else { continue }
            let x = seconds(e)
            p50.append(ChartPoint(x: x, y: Double(v[0]) / 1000))
            p99.append(ChartPoint(x: x, y: Double(v[1]) / 1000))
        }
        let delivered = report.pushes.delivered > 0
        let empty = delivered ? "no per-interval latency histograms in this report (written before they existed)" : "no deliveries in this run"
        let chart = SvgChart(
            title: "Response time of each interval's deliveries (from the intended send)", xLabel: timeAxis, yLabel: "latency (ms)",
            emptyText: empty,
            lines: [.init(name: "p50", style: "p50", points: Lttb.downsample(p50, to: Self.maxPointsPerSeries)),
                    .init(name: "p99", style: "p99", points: Lttb.downsample(p99, to: Self.maxPointsPerSeries))])
        return section("latency-over-time", "p50 and p99 over time", chart.render() + downsampleNote(p50.count))
    }

    /// Marks for the intervals where `value` is above 0; when there are more than 200, neighbouring intervals
    /// are summed into one mark each so the chart stays readable and small.
    func markers(_ kind: String, _ name: String, _ value: (RunReport.TimelineEntry) -> Int?) -> [SvgChart.Marker] {
        var hits: [(x: Double, n: Int)] = report.timeline.compactMap { e in
            guard let n = value(e), n > 0 else { return nil }
            return (seconds(e), n)
        }
        let limit = 200
        if hits.count > limit, let first = hits.first, let last = hits.last, last.x > first.x {
            let width = (last.x - first.x) / Double(limit)
            var grouped: [(x: Double, n: Int)] = []
            var bucket = -1
            for h in hits {
                let b = Int((h.x - first.x) / width)
                if b == bucket, !grouped.isEmpty { grouped[grouped.count - 1].n += h.n } else { grouped.append(h); bucket = b }
            }
            hits = grouped
        }
        return hits.map { SvgChart.Marker(x: $0.x, label: "\(name) ×\($0.n) at \(SvgChart.seconds($0.x))", kind: kind) }
    }

    func connectionsOverTime() -> String {
        let tl = report.timeline
        let kinds: [(String, String, (RunReport.TimelineEntry) -> Int?)] = [
            ("goaway", "GOAWAY", { $0.goAways }), ("reconnect", "reconnect", { $0.reconnects }), ("resign", "provider token signed", { $0.tokenSignings }),
            ("lost", "connection lost", { $0.connectionsLost }), ("resend", "resend", { $0.resends?.values.reduce(0, +) }),
        ]
        var marks: [SvgChart.Marker] = []
        var legend: [(kind: String, name: String)] = []
        for (kind, name, value) in kinds {
            let m = markers(kind, name, value)
            if !m.isEmpty { legend.append((kind, name)) }
            marks += m
        }
        let inFlight = tl.compactMap { e in e.inFlight.map { ChartPoint(x: seconds(e), y: Double($0)) } }
        var body = SvgChart(
            title: "Pushes in flight at the end of each interval", xLabel: timeAxis, yLabel: "pushes in flight",
            emptyText: "no pushes in flight were recorded in this run", wholeY: true,
            lines: [.init(name: "in flight", style: "inflight", points: Lttb.downsample(inFlight, to: Self.maxPointsPerSeries))],
            markers: marks, markerLegend: legend).render()
        let open = tl.compactMap { e in e.connectionsOpen.map { ChartPoint(x: seconds(e), y: Double($0)) } }
        if open.isEmpty {
            body += "<p class=\"note\">Connections open per interval are not in this report. The engine opened \(report.engine.connectionsOpened) "
                + "connections in all (\(report.configuration.transport.connections) configured) and reconnected \(report.engine.reconnects) times"
                + "; provider tokens signed: \(report.engine.providerTokenSignings).</p>\n"
        } else {
            body += SvgChart(
                title: "HTTP/2 connections open", xLabel: timeAxis, yLabel: "connections",
                emptyText: "no connections were recorded in this run", wholeY: true,
                lines: [.init(name: "connections open", style: "connections", points: Lttb.downsample(open, to: Self.maxPointsPerSeries))],
                markers: marks, markerLegend: legend).render()
        }
        if legend.isEmpty && tl.contains(where: { $0.goAways != nil || $0.reconnects != nil || $0.tokenSignings != nil }) {
            body += "<p class=\"note\">No GOAWAY, reconnect or provider-token signing in any interval.</p>\n"
        }
        body += resendsOverTime()
        return section("connections", "In flight and connections over time", body + downsampleNote(inFlight.count))
    }

    /// Resends per second by the kind of the attempt before (no answer: a transport error; or an APNs answer
    /// such as 503), stacked, with the outages named under the chart; nothing when the run resent nothing.
    func resendsOverTime() -> String {
        let tl = report.timeline
        guard tl.contains(where: { !($0.resends ?? [:]).isEmpty }) else { return "" }
        let per = 1 / interval
        var chart = SvgChart(title: "Resends per second, by what the attempt before got", xLabel: timeAxis, yLabel: "resends/s",
                             emptyText: "nothing was resent in this run")
        let totals = tl.map { e in ChartPoint(x: seconds(e), y: Double(e.resends?.values.reduce(0, +) ?? 0) * per) }
        let keep = Lttb.indices(totals, to: Self.maxPointsPerSeries)
        chart.stackX = keep.map { totals[$0].x }
        chart.layers = [
            .init(name: "no answer (transport error)", style: "transport", values: keep.map { Double(tl[$0].transportResends) * per }),
            .init(name: "answered (429, 5xx)", style: "answered",
                  values: keep.map { Double((tl[$0].resends?.values.reduce(0, +) ?? 0) - tl[$0].transportResends) * per }),
        ]
        var causes: [String: Int] = [:]
        for e in tl { causes.merge(e.resends ?? [:]) { $0 + $1 } }
        var body = chart.render()
        body += "<p class=\"note\">Resends by cause: " + Format.byCount(causes).map { "<code>\(HtmlEscape.text($0.key))</code> \($0.count)" }
            .joined(separator: ", ") + ".</p>\n"
        for o in TimelineOutage.find(in: tl, interval: interval) {
            body += "<p class=\"note outage\"><strong>Target unreachable from \(SvgChart.seconds(o.from)) to \(SvgChart.seconds(o.to))</strong>: "
                + "nothing answered, \(o.transportResends) resends after a transport error"
                + (o.connectionsLost > 0 ? ", \(o.connectionsLost) connections lost" : "")
                + "; the pushes it delayed count their wait in response time (from the intended send).</p>\n"
        }
        return body
    }
}
