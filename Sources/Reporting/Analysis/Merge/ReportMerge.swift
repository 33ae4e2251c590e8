import APNsCore
import Foundation
import Histogram

/// Why a set of shard reports cannot be merged: every problem found, each naming the shard or file.
public struct MergeRefusal: Error, CustomStringConvertible, Equatable {
    public let problems: [String]
    public var description: String {
        "cannot merge: " + (problems.count == 1 ? problems[0] : "\n  - " + problems.joined(separator: "\n  - "))
    }
}

/// `apnsbench merge`: the shards of one run (``RunConfig/Shard``) made into one report, as if one process
/// had run it.
///
/// Exact where the shards recorded exactly: push counts are summed class by class, histograms added bucket
/// by bucket (each report carries its HdrHistograms encoded), the engine's counters summed, the timeline's
/// intervals added by wall clock (each shard's intervals shifted by its start's offset from the earliest).
/// The events are every shard's own reading of the whole stream: they must be equal, and are kept once.
/// Derived, not exact: the throughput (completed pushes over the longest sending window), a peak in flight
/// (the shards' peaks summed: an upper bound) and coalescing staleness percentiles (the shards' largest: an
/// upper bound; the report keeps no staleness histogram).
///
/// Senders' reports (`apnsbench simulate --report`) are merged as a fleet of senders (``mergeSenders(_:)``).
///
/// Refused, with every problem named: a report that is not a shard, shards of different runs or counts, a
/// shard given twice or missing, configurations that differ in more than the shard, different recordings,
/// or a report without encoded histograms.
public enum ReportMerge {
    /// One shard report and where it was read from.
    public struct Input {
        public var source: String
        public var report: RunReport
        public init(source: String, report: RunReport) {
            self.source = source
            self.report = report
        }
    }

    public static func merge(_ inputs: [Input]) throws -> RunReport {
        try checkKinds(inputs)
        if let first = inputs.first, isSender(first.report) { return try mergeSenders(inputs) }
        try check(inputs)
        let shards = inputs.sorted { $0.report.configuration.shard!.index < $1.report.configuration.shard!.index }
        let reports = shards.map(\.report)
        let first = reports[0]
        let (start, end, offsets) = span(reports)

        var configuration = first.configuration
        configuration.shard = nil
        let reasons = zip(shards, reports).compactMap { shard, r in r.stopReason.map { "shard \(r.configuration.shard!.index): \($0)" } }
        let overrides = reports.compactMap(\.priorityOverride)
        let merged = RunReport(
            generator: first.generator,
            startedAt: start.formatted(Date.ISO8601FormatStyle(timeZone: .gmt)),
            durationSeconds: end.timeIntervalSince(start),
            configuration: configuration,
            environment: first.environment,
            events: first.events,
            pushes: pushes(reports),
            latency: try latency(reports, pushType: configuration.workload.commonPushType?.rawValue),
            throughput: throughput(reports, offsets: offsets),
            timeline: try timeline(reports, offsets: offsets, interval: configuration.timelineIntervalSeconds),
            engine: reports.reduce(EngineCounters()) { $0 + $1.engine },
            simulator: sumCounts(reports.compactMap(\.simulator)),
            coalescing: coalescing(reports),
            stopReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "),
            // A merged report's descriptors would be several processes' own: none.
            openDescriptors: nil,
            liveActivityBudget: budget(reports),
            runID: first.runID,
            broadcast: nil,
            merged: RunReport.Merged(shards: reports.count, parts: shards.map { s in
                .init(index: s.report.configuration.shard!.index, startedAt: s.report.startedAt, durationSeconds: s.report.durationSeconds,
                      source: s.source, host: s.report.environment.hostname)
            }),
            device: try RunReport.DeviceDelivery.merged(reports.compactMap(\.device)),
            priorityOverride: overrides.isEmpty ? nil : .init(reached: overrides.reduce(0) { $0 + $1.reached },
                                                              changed: overrides.reduce(0) { $0 + $1.changed }),
            received: nil,
            // The shards' push kinds are numbered each by its own process: not merged.
            pushKinds: nil,
            sends: RunReport.Sends.merged(reports.compactMap(\.sends))
        )
        return merged
    }

    // MARK: Checks

    /// Senders' reports merge with senders' reports only, run shards with run shards.
    static func checkKinds(_ inputs: [Input]) throws {
        guard !inputs.isEmpty else { throw MergeRefusal(problems: ["no reports given"]) }
        let senders = inputs.filter { isSender($0.report) }
        guard !senders.isEmpty, senders.count < inputs.count else { return }
        let runs = inputs.filter { !isSender($0.report) }
        throw MergeRefusal(problems: ["a sender's report (apnsbench simulate --report) merges only with senders' reports, a run's only with "
            + "its shards: senders' \(senders.map(\.source).joined(separator: ", ")); runs' \(runs.map(\.source).joined(separator: ", "))"])
    }

    static func check(_ inputs: [Input]) throws {
        var problems: [String] = []
        guard !inputs.isEmpty else { throw MergeRefusal(problems: ["no reports given"]) }
        let notShards = inputs.filter { $0.report.configuration.shard == nil }
        for i in notShards { problems.append("\(i.source) is not a shard's report (it was run without --shard or --shards)") }
        if !notShards.isEmpty { throw MergeRefusal(problems: problems) }

        let counts = Set(inputs.map { $0.report.configuration.shard!.count })
        if counts.count > 1 {
            problems.append("the reports are of different shard counts: " + describe(inputs) { "of \($0.configuration.shard!.count)" })
        }
        let runIDs = Set(inputs.map { $0.report.runID ?? "(none)" })
        if runIDs.count > 1 {
            problems.append("the reports are of different runs: " + describe(inputs) { "run \($0.runID ?? "(none)")" })
        }
        var byIndex: [Int: [String]] = [:]
        for i in inputs { byIndex[i.report.configuration.shard!.index, default: []].append(i.source) }
        for (index, sources) in byIndex.sorted(by: { $0.key < $1.key }) where sources.count > 1 {
            problems.append("shard \(index) is given \(sources.count) times: \(sources.joined(separator: ", "))")
        }
        if counts.count == 1, let n = counts.first {
            let missing = (0..<n).filter { byIndex[$0] == nil }
            if !missing.isEmpty {
                let one = missing.count == 1
                problems.append("incomplete: the run has \(n) shards and \(one ? "shard" : "shards") \(missing.map(String.init).joined(separator: ", ")) "
                    + "\(one ? "is" : "are") missing (have \(byIndex.keys.sorted().map(String.init).joined(separator: ", ")))")
            }
        }
        let reference = inputs.min { $0.report.configuration.shard!.index < $1.report.configuration.shard!.index }!
        for i in inputs where i.source != reference.source {
            let keys = differingKeys(reference.report.configuration, i.report.configuration)
            if !keys.isEmpty {
                problems.append("\(i.source): its configuration differs from \(reference.source)'s in more than the shard: \(keys.joined(separator: ", "))")
            }
            if i.report.events.streamSHA256 != reference.report.events.streamSHA256 {
                problems.append("\(i.source) replayed another recording (stream SHA-256 \(short(i.report.events.streamSHA256)) "
                    + "against \(short(reference.report.events.streamSHA256)))")
            } else if i.report.events != reference.report.events {
                problems.append("\(i.source) read the stream differently from \(reference.source) (events read \(i.report.events.read) "
                    + "against \(reference.report.events.read)): every shard must read all of it")
            }
            if i.report.schemaVersion != reference.report.schemaVersion {
                problems.append("\(i.source) is of report schema \(i.report.schemaVersion), \(reference.source) of \(reference.report.schemaVersion)")
            }
        }
        for i in inputs where i.report.latency.histograms == nil {
            problems.append("\(i.source) has no encoded histograms (written by an older apnsbench): its latency cannot be merged exactly")
        }
        if !problems.isEmpty { throw MergeRefusal(problems: problems) }
    }

    private static func describe(_ inputs: [Input], _ what: (RunReport) -> String) -> String {
        inputs.map { "\($0.source) (\(what($0.report)))" }.joined(separator: ", ")
    }

    private static func short(_ sha: String?) -> String { sha.map { String($0.prefix(12)) } ?? "unknown" }

    /// The configuration's key paths (`transport.connections`) whose values differ, the shard aside: the
    /// same flattening compare uses (``ConfigValue/leaves(of:emptyContainers:)``).
    static func differingKeys(_ a: RunConfig, _ b: RunConfig) -> [String] {
        var a = a, b = b
        a.shard = nil
        b.shard = nil
        guard a != b else { return [] }
        func leaves(_ c: RunConfig) -> [String: String] {
            Dictionary(ConfigValue.leaves(of: c).map { ($0.path, $0.value ?? "null") }, uniquingKeysWith: { x, _ in x })
        }
        let la = leaves(a), lb = leaves(b)
        let keys = Set(la.keys).union(lb.keys).sorted().filter { la[$0] != lb[$0] }
        return keys.isEmpty ? ["(a value that does not survive JSON)"] : keys
    }

    static func parseDate(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    /// The merged report's start (the earliest part's) and end (the latest part's), and each part's start after it, in seconds.
    static func span(_ reports: [RunReport]) -> (start: Date, end: Date, offsets: [Double]) {
        let starts = reports.map { parseDate($0.startedAt) ?? Date(timeIntervalSince1970: 0) }
        let start = starts.min()!
        let end = zip(starts, reports).map { $0.addingTimeInterval($1.durationSeconds) }.max()!
        return (start, end, starts.map { $0.timeIntervalSince(start) })
    }

    // MARK: Sums

    /// `expected`: the pushes the whole run plans (every shard's reading of the stream says it).
    static func pushes(_ reports: [RunReport], expected: Int? = nil) -> RunReport.Pushes {
        var rejected: [String: RunReport.Rejection] = [:]
        var failed: [String: Int] = [:], notSent: [String: Int] = [:]
        var planned = 0, delivered = 0, timedOut = 0
        for r in reports {
            let p = r.pushes
            planned += p.planned
            delivered += p.delivered
            timedOut += p.timedOut
            for (reason, x) in p.rejected { rejected[reason, default: .init(status: x.status, count: 0)].count += x.count }
            failed.merge(p.failed, uniquingKeysWith: +)
            notSent.merge(p.notSent, uniquingKeysWith: +)
        }
        let expected = expected ?? reports[0].events.expectedPushes
        var p = RunReport.Pushes(planned: planned, expectedPlanned: expected, delivered: delivered, rejected: rejected,
                                 failed: failed, timedOut: timedOut, notSent: notSent, balanced: false)
        // Every shard checks against the same model (equal configurations), so their counts add up.
        p.wouldNotDecode = reports.compactMap(\.pushes.wouldNotDecode).reduce(nil) { sum, shard in sum.map { $0 + shard } ?? shard }
        p.balanced = planned == p.classesTotal
            && (expected == nil || expected == planned) && (p.wouldNotDecode?.total ?? 0) <= delivered
        return p
    }

    static func latency(_ reports: [RunReport], pushType: String?) throws -> RunReport.Latency {
        func add(_ pairs: [RunReport.EncodedPair]) throws -> LatencyHistograms? {
            var sum: LatencyHistograms?
            for pair in pairs {
                let (service, response) = try pair.decoded()
                let h = LatencyHistograms(service: service, response: response)
                if sum == nil { sum = LatencyHistograms() }
                sum!.add(h)
            }
            return sum
        }
        func keyed(_ pick: (RunReport.EncodedLatency) -> [String: RunReport.EncodedPair]) throws -> [String: LatencyHistograms] {
            var pairs: [String: [RunReport.EncodedPair]] = [:]
            for r in reports { for (k, v) in pick(r.latency.histograms!) { pairs[k, default: []].append(v) } }
            var out: [String: LatencyHistograms] = [:]
            for (k, v) in pairs { if let h = try add(v), h.count > 0 { out[k] = h } }
            return out
        }
        let overall = try add(reports.map { $0.latency.histograms!.overall }) ?? LatencyHistograms()
        let byPriority = try keyed(\.byPriority), byOutcome = try keyed(\.byOutcome)
        return RunReport.Latency(
            serviceTime: overall.summary.serviceTime,
            responseTime: overall.summary.responseTime,
            byPriority: byPriority.mapValues(\.summary),
            byPushType: overall.count > 0 ? pushType.map { [$0: overall.summary] } ?? [:] : [:],
            undeliveredSent: reports.reduce(0) { $0 + $1.latency.undeliveredSent },
            byOutcome: byOutcome.mapValues(\.summary),
            histograms: RunReport.EncodedLatency(
                overall: overall.encoded,
                byPriority: byPriority.mapValues(\.encoded),
                byPushType: overall.count > 0 ? pushType.map { [$0: overall.encoded] } ?? [:] : [:],
                byOutcome: byOutcome.mapValues(\.encoded)))
    }

    /// Completed pushes over the span from the earliest shard start to the latest end of a sending window
    /// (each shard's window is its completed pushes over its rate).
    static func throughput(_ reports: [RunReport], offsets: [Double]) -> RunReport.Throughput {
        let sent = reports.reduce(0) { $0 + $1.throughput.sent }
        let completed = reports.reduce(0) { $0 + $1.throughput.completed }
        var span = 0.0
        for (r, offset) in zip(reports, offsets) where r.throughput.pushesPerSecond > 0 {
            span = max(span, offset + Double(r.throughput.completed) / r.throughput.pushesPerSecond)
        }
        return RunReport.Throughput(pushesPerSecond: span > 0 ? Double(completed) / span : 0, sent: sent, completed: completed)
    }

    /// Each shard's intervals moved by its start's offset (whole intervals) and added interval by interval.
    static func timeline(_ reports: [RunReport], offsets: [Double], interval: Int) throws -> [RunReport.TimelineEntry] {
        var entries: [Int: RunReport.TimelineEntry] = [:]
        var histograms: [Int: Histogram<UInt64>] = [:]
        func add(_ a: Int?, _ b: Int?) -> Int? { a == nil && b == nil ? nil : (a ?? 0) + (b ?? 0) }
        for (r, offset) in zip(reports, offsets) {
            let shift = Int((offset / Double(interval)).rounded()) * interval
            for e in r.timeline {
                let second = e.second + shift
                var m = entries[second] ?? RunReport.TimelineEntry(second: second, sent: 0, completed: 0, delivered: 0, errors: 0)
                m.sent += e.sent
                m.completed += e.completed
                m.delivered += e.delivered
                m.errors += e.errors
                m.rejected = add(m.rejected, e.rejected)
                m.failed = add(m.failed, e.failed)
                m.timedOut = add(m.timedOut, e.timedOut)
                m.inFlight = add(m.inFlight, e.inFlight)
                m.connectionsOpen = add(m.connectionsOpen, e.connectionsOpen)
                m.goAways = add(m.goAways, e.goAways)
                m.reconnects = add(m.reconnects, e.reconnects)
                m.tokenSignings = add(m.tokenSignings, e.tokenSignings)
                m.connectionsLost = add(m.connectionsLost, e.connectionsLost)
                if let r = e.resends { m.resends = (m.resends ?? [:]).merging(r, uniquingKeysWith: +) }
                entries[second] = m
                if let encoded = e.responseTime {
                    let h = try EncodedHistogram.decode(encoded)
                    if histograms[second] == nil { histograms[second] = LatencyHistograms.makeHistogram() }
                    histograms[second]!.add(h)
                }
            }
        }
        return entries.keys.sorted().map { second in
            var e = entries[second]!
            e.responseTime = histograms[second].map(EncodedHistogram.encode)
            return e
        }
    }

    static func sumCounts(_ dictionaries: [[String: Int]]) -> [String: Int]? {
        guard !dictionaries.isEmpty else { return nil }
        return dictionaries.reduce(into: [:]) { $0.merge($1, uniquingKeysWith: +) }
    }

    /// Pushes saved add up; staleness keeps counts, extremes and the mean exactly and the largest shard
    /// percentiles (an upper bound).
    static func coalescing(_ reports: [RunReport]) -> RunReport.Coalescing? {
        let parts = reports.compactMap(\.coalescing)
        guard let first = parts.first else { return nil }
        let withValues = parts.map(\.staleness).filter { $0.count > 0 }
        let count = withValues.reduce(0) { $0 + $1.count }
        var staleness = LatencySummary(unit: first.staleness.unit, count: 0, min: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, mean: 0)
        if count > 0 {
            staleness = LatencySummary(
                unit: first.staleness.unit, count: count,
                min: withValues.map(\.min).min()!, p50: withValues.map(\.p50).max()!, p90: withValues.map(\.p90).max()!,
                p99: withValues.map(\.p99).max()!, p999: withValues.map(\.p999).max()!, max: withValues.map(\.max).max()!,
                mean: withValues.reduce(0.0) { $0 + $1.mean * Double($1.count) } / Double(count))
        }
        return RunReport.Coalescing(windowMillis: first.windowMillis, pushesSaved: parts.reduce(0) { $0 + $1.pushesSaved }, staleness: staleness)
    }

    /// Tokens are split between shards, so each activity's throttling is counted in exactly one.
    static func budget(_ reports: [RunReport]) -> RunReport.LiveActivityBudgetCount? {
        let parts = reports.compactMap(\.liveActivityBudget)
        guard let first = parts.first else { return nil }
        return .init(priority10PerHour: first.priority10PerHour, windowSeconds: first.windowSeconds,
                     priority10Updates: parts.reduce(0) { $0 + $1.priority10Updates },
                     throttled: parts.reduce(0) { $0 + $1.throttled },
                     activitiesThrottled: parts.reduce(0) { $0 + $1.activitiesThrottled })
    }
}
