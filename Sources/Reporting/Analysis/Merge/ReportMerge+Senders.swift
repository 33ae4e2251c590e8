import APNsCore
import Foundation

/// `merge` of senders' reports (`apnsbench simulate --report`): a fleet of senders, each against a simulator of
/// its own, made into one report, as if one simulator had received every request.
///
/// Exact: the push counts class by class, the histograms bucket by bucket, the engine's and the simulator's
/// counters, the timeline's arrivals and answers by wall clock, the device section, the sends, the events, and
/// the `received` section: the requests by push type, topic, priority and answer, the provider tokens, the
/// connections opened and closed with every sender's requests per connection (in the order of the inputs),
/// and the Live Activity budget's tokens and overruns (each simulator counted its own senders' device
/// tokens, so they add up when the senders pushed to different tokens). The most open streams on one
/// connection and the busiest token's pushes are the largest of any sender's, exactly.
///
/// Refused, every problem named: a sender's report with a run's, simulators configured apart (any key of
/// the configuration but the push type most requested and the path of the simulator's file), reports of
/// different schemas, a report without encoded histograms, or one report given twice.
extension ReportMerge {
    static func isSender(_ report: RunReport) -> Bool { report.received != nil }

    static func checkSenders(_ inputs: [Input]) throws {
        var problems: [String] = []
        let reference = inputs[0]
        for i in inputs.dropFirst() {
            let keys = differingKeys(senderNeutral(reference.report.configuration), senderNeutral(i.report.configuration))
            if !keys.isEmpty {
                problems.append("\(i.source): its simulator was configured apart from \(reference.source)'s: \(keys.joined(separator: ", "))")
            }
            if i.report.schemaVersion != reference.report.schemaVersion {
                problems.append("\(i.source) is of report schema \(i.report.schemaVersion), \(reference.source) of \(reference.report.schemaVersion)")
            }
        }
        for i in inputs where i.report.latency.histograms == nil {
            problems.append("\(i.source) has no encoded histograms (written by an older apnsbench): its latency cannot be merged exactly")
        }
        for (n, i) in inputs.enumerated() {
            if let earlier = inputs[..<n].first(where: { $0.report == i.report }) {
                problems.append("\(i.source) is the same sender's report as \(earlier.source): it would be counted twice")
            }
        }
        if !problems.isEmpty { throw MergeRefusal(problems: problems) }
    }

    /// What may differ between two senders' reports of one fleet: the push type each sent most, the path
    /// the simulator's configuration was read from.
    private static func senderNeutral(_ c: RunConfig) -> RunConfig {
        var c = c
        c.workload.pushType = RunDefaults.pushType
        c.profilePath = "-"
        return c
    }

    static func mergeSenders(_ inputs: [Input]) throws -> RunReport {
        try checkSenders(inputs)
        let reports = inputs.map(\.report)
        let first = reports[0]
        let (start, end, offsets) = span(reports)
        let received = RunReport.Received.merged(reports.compactMap(\.received))
        var configuration = first.configuration
        let byType = Dictionary(received.requests.map { ($0.pushType, $0.count) }, uniquingKeysWith: +)
        if let top = byType.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }), let type = PushType(rawValue: top.key) {
            configuration.workload.pushType = type
        }
        // Latency by push type is of one push type only: delivered pushes of several are not told apart.
        let events = events(reports)
        let deliveredTypes = Set(received.requests.filter { $0.answer == "200" }.map(\.pushType))
        let reasons = zip(inputs, reports).compactMap { input, r in r.stopReason.map { "\(input.source): \($0)" } }
        let merged = RunReport(
            generator: first.generator, startedAt: start.formatted(Date.ISO8601FormatStyle(timeZone: .gmt)),
            durationSeconds: end.timeIntervalSince(start), configuration: configuration, environment: first.environment,
            events: events, pushes: pushes(reports, expected: events.expectedPushes),
            latency: try latency(reports, pushType: deliveredTypes.count == 1 ? deliveredTypes.first : nil),
            throughput: throughput(reports, offsets: offsets),
            timeline: try timeline(reports, offsets: offsets, interval: configuration.timelineIntervalSeconds),
            engine: reports.reduce(EngineCounters()) { $0 + $1.engine }, simulator: sumCounts(reports.compactMap(\.simulator)),
            coalescing: coalescing(reports), stopReason: reasons.isEmpty ? nil : reasons.joined(separator: "; "),
            openDescriptors: nil, liveActivityBudget: nil, runID: nil, broadcast: nil,
            merged: RunReport.Merged(shards: reports.count, parts: inputs.enumerated().map { n, input in
                .init(index: n, startedAt: input.report.startedAt, durationSeconds: input.report.durationSeconds, source: input.source,
                      host: input.report.environment.hostname)
            }),
            device: try RunReport.DeviceDelivery.merged(reports.compactMap(\.device)), priorityOverride: nil, received: received,
            pushKinds: nil, sends: RunReport.Sends.merged(reports.compactMap(\.sends)))
        return merged
    }

    /// Every sender's events (the requests it sent, by push type) added, the pushes each says it planned too.
    static func events(_ reports: [RunReport]) -> RunReport.Events {
        var total = reports[0].events
        for r in reports.dropFirst() {
            let e = r.events
            total.read += e.read
            total.byKind.merge(e.byKind, uniquingKeysWith: +)
            total.producedPushes += e.producedPushes
            total.stateOnly += e.stateOnly
            total.invalid.merge(e.invalid, uniquingKeysWith: +)
            total.expectedPushes = total.expectedPushes.flatMap { sum in e.expectedPushes.map { sum + $0 } }
        }
        return total
    }
}

extension RunReport.Received {
    /// Senders' received sections added: requests class by class (most first), counts summed, requests per
    /// connection one sender's after another's, the largest of each sender's maxima.
    static func merged(_ parts: [RunReport.Received]) -> RunReport.Received {
        var classes: [RequestKey: Int] = [:]
        for r in parts.flatMap(\.requests) { classes[RequestKey(r), default: 0] += r.count }
        let rows = classes.map { RequestClass(pushType: $0.key.pushType, topic: $0.key.topic, priority: $0.key.priority, answer: $0.key.answer,
                                              count: $0.value) }
            .sorted { ($1.count, $0.pushType, $0.topic, $0.priority, $0.answer) < ($0.count, $1.pushType, $1.topic, $1.priority, $1.answer) }
        func sum(_ pick: (RunReport.Received) -> Int) -> Int { parts.reduce(0) { $0 + pick($1) } }
        let tokens = ProviderTokens(verified: sum(\.providerTokens.verified), tooManyUpdates: sum(\.providerTokens.tooManyUpdates),
                                    expired: sum(\.providerTokens.expired), invalidOrMissing: sum(\.providerTokens.invalidOrMissing))
        let streams = parts.compactMap(\.connections.mostOpenStreams)
        let connections = Connections(opened: sum(\.connections.opened), closed: sum(\.connections.closed),
                                      requestsPerConnection: parts.flatMap(\.connections.requestsPerConnection), mostOpenStreams: streams.max())
        let budgets = parts.compactMap(\.liveActivityBudget)
        let budget = budgets.first.map { b in
            BudgetPerToken(perHour: b.perHour, tokens: budgets.reduce(0) { $0 + $1.tokens }, mostPerToken: budgets.map(\.mostPerToken).max()!,
                           tokensOverBudget: budgets.reduce(0) { $0 + $1.tokensOverBudget }, overruns: budgets.reduce(0) { $0 + $1.overruns })
        }
        return RunReport.Received(requests: rows, providerTokens: tokens, connections: connections, liveActivityBudget: budget)
    }

    private struct RequestKey: Hashable {
        var pushType: String, topic: String, priority: String, answer: String
        init(_ r: RequestClass) { (pushType, topic, priority, answer) = (r.pushType, r.topic, r.priority, r.answer) }
    }
}
