import APNsCore
import Foundation

extension RunRecorder {
    /// Builds the run's report from what was recorded. Call after the run (see the type's note on
    /// reading histograms).
    /// - Parameters:
    ///   - settings: the run's settings, copied verbatim.
    ///   - environment: library versions and machine (``EnvironmentInfo/current(libcurl:ssl:nghttp2:)``).
    ///   - engine: the engine's shape and counters.
    ///   - simulator: the simulator's counters when the target was the embedded simulator; default nil.
    ///   - startedAt: wall-clock start of the run; written as ISO-8601 UTC.
    ///   - durationSeconds: wall-clock length of the run, in seconds (a non-finite or negative value is written as 0).
    ///   - generatorVersion: the tool's version; default ``RunReport/Generator/defaultVersion``.
    public func makeReport(
        settings: RunSettings,
        environment: EnvironmentInfo,
        engine: EngineSummary,
        simulator: [String: Int]? = nil,
        startedAt: Date,
        durationSeconds: Double,
        generatorVersion: String = RunReport.Generator.defaultVersion
    ) -> RunReport {
        var byPriority: [String: RunReport.PriorityLatency] = [:]
        for priority in Priority.allCases {
            let histograms = latency(priority: priority)
            if histograms.count > 0 { byPriority[String(priority.rawValue)] = histograms.summary }
        }
        let overall = latency.summary
        return RunReport(
            generator: RunReport.Generator(version: generatorVersion),
            startedAt: startedAt.formatted(Date.ISO8601FormatStyle(timeZone: .gmt)),
            durationSeconds: durationSeconds.isFinite ? Swift.max(0, durationSeconds) : 0,
            configuration: settings,
            environment: environment,
            events: RunReport.Events(
                read: eventsRead,
                byKind: eventsByKind,
                producedPushes: producedPushesEvents,
                stateOnly: stateOnlyEvents,
                invalid: invalidEvents,
                badLineSamples: badLineSamples
            ),
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
                byPushType: overall.serviceTime.count > 0 ? [settings.pushType: overall] : [:],
                undeliveredSent: undeliveredSent
            ),
            throughput: RunReport.Throughput(pushesPerSecond: pushesPerSecond, sent: sent, completed: completed),
            timeline: timelineEntries,
            engine: engine,
            simulator: simulator,
            coalescing: settings.coalesceMillis.map {
                RunReport.Coalescing(windowMillis: $0, pushesSaved: notSent[NotSentCause.coalesced.rawValue] ?? 0,
                                     staleness: LatencySummary(histogram: staleness, unit: "ms"))
            }
        )
    }

    /// Completed pushes per second over the window from the first send to the last completion; 0 when
    /// that window is empty.
    public var pushesPerSecond: Double {
        guard firstSentNanos != 0, lastCompletedNanos > firstSentNanos else { return 0 }
        return Double(completed) / (Double(lastCompletedNanos - firstSentNanos) / 1e9)
    }
}
