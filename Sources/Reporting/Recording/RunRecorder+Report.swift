import APNsCore
import Foundation
import Histogram

extension RunRecorder {
    /// Builds the run's report from what was recorded. Call after the run (see the type's note on
    /// reading histograms). The pushes balance against the events: every push an event planned, and
    /// one per bad line, must have an outcome (``expectedPlanned`` is set from `events`).
    /// - Parameters:
    ///   - configuration: the run's configuration, embedded verbatim.
    ///   - events: what became of every event read.
    ///   - environment: library versions and machine (``EnvironmentInfo/current(libcurl:ssl:nghttp2:)``).
    ///   - engine: the engine's counters.
    ///   - staleness: what coalescing added per update (recorded ms), when coalescing was on.
    ///   - simulator: the simulator's counters when the target was the embedded simulator; default nil.
    ///   - startedAt: wall-clock start of the run; written as ISO-8601 UTC.
    ///   - durationSeconds: wall-clock length of the run, in seconds (a non-finite or negative value is written as 0).
    ///   - generatorVersion: the tool's version; default ``RunReport/Generator/defaultVersion``.
    public func makeReport(
        configuration: RunConfig,
        events: EventTally,
        environment: EnvironmentInfo,
        engine: EngineCounters,
        staleness: Histogram<UInt64>? = nil,
        simulator: [String: Int]? = nil,
        startedAt: Date,
        durationSeconds: Double,
        generatorVersion: String = RunReport.Generator.defaultVersion
    ) -> RunReport {
        // One shard plans only its part of what the workload expects; the merge checks the whole.
        expectedPlanned = (configuration.shard?.count ?? 1) > 1 ? nil : events.expectedPushes
        var byPriority: [String: RunReport.PriorityLatency] = [:]
        for priority in Priority.allCases {
            let histograms = latency(priority: priority)
            if histograms.count > 0 { byPriority[String(priority.rawValue)] = histograms.summary }
        }
        let overall = latency.summary
        // By push type only when there is one (a mix of push types is not told apart per push).
        let pushType = configuration.workload.commonPushType?.rawValue
        var byOutcome: [String: RunReport.PriorityLatency] = [:]
        var encodedByOutcome: [String: RunReport.EncodedPair] = [:]
        for (name, histograms) in latencyByOutcome where histograms.count > 0 {
            byOutcome[name] = histograms.summary
            encodedByOutcome[name] = histograms.encoded
        }
        var encodedByPriority: [String: RunReport.EncodedPair] = [:]
        for priority in Priority.allCases {
            let histograms = latency(priority: priority)
            if histograms.count > 0 { encodedByPriority[String(priority.rawValue)] = histograms.encoded }
        }
        let encodedOverall = latency.encoded
        return RunReport(
            generator: RunReport.Generator(version: generatorVersion),
            startedAt: startedAt.formatted(Date.ISO8601FormatStyle(timeZone: .gmt)),
            durationSeconds: durationSeconds.isFinite ? Swift.max(0, durationSeconds) : 0,
            configuration: configuration,
            environment: environment,
            events: RunReport.Events(events),
            pushes: RunReport.Pushes(
                planned: planned,
                expectedPlanned: expectedPlanned,
                delivered: delivered,
                rejected: rejected,
                failed: failed,
                timedOut: timedOut,
                notSent: notSent,
                balanced: pushesBalance
            ),
            latency: RunReport.Latency(
                serviceTime: overall.serviceTime,
                responseTime: overall.responseTime,
                byPriority: byPriority,
                byPushType: overall.serviceTime.count > 0 ? pushType.map { [$0: overall] } ?? [:] : [:],
                undeliveredSent: undeliveredSent,
                byOutcome: byOutcome,
                histograms: RunReport.EncodedLatency(
                    overall: encodedOverall,
                    byPriority: encodedByPriority,
                    byPushType: overall.serviceTime.count > 0 ? pushType.map { [$0: encodedOverall] } ?? [:] : [:],
                    byOutcome: encodedByOutcome
                )
            ),
            throughput: RunReport.Throughput(pushesPerSecond: pushesPerSecond, sent: sent, completed: completed),
            timeline: timelineEntries,
            engine: engine,
            simulator: simulator,
            coalescing: configuration.coalescing.windowMillis.map { window in
                RunReport.Coalescing(windowMillis: Int(window), pushesSaved: notSent[NotSentCause.coalesced.rawValue] ?? 0,
                                     staleness: staleness.map { LatencySummary(histogram: $0, unit: "ms") }
                                         ?? LatencySummary(unit: "ms", count: 0, min: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, mean: 0))
            }
        )
    }

    /// The histograms of sent and answered pushes by outcome class, under the report's keys.
    var latencyByOutcome: [(String, LatencyHistograms)] {
        [("delivered", latency), ("rejected", latencyRejected), ("failed", latencyFailed), ("timedOut", latencyTimedOut)]
    }

    /// Completed pushes per second over the window from the first send to the last completion; 0 when
    /// that window is empty.
    public var pushesPerSecond: Double {
        guard firstSentNanos != 0, lastCompletedNanos > firstSentNanos else { return 0 }
        return Double(completed) / (Double(lastCompletedNanos - firstSentNanos) / 1e9)
    }
}
