import APNsCore
import Foundation
import Histogram

extension RunReport {
    /// What a run's report says that neither the recorder, the workload's events nor the engine counted:
    /// the facts only the harness knows (or, for a sender's report, the simulator). Every field is optional
    /// and absent from the report when nil.
    public struct RunFacts: Sendable {
        /// The run's id (the same in every shard of one run).
        public var runID: String?
        /// SHA-256 of the replayed stream file (`events.streamSHA256`).
        public var streamSHA256: String?
        /// Passes over the recording, when the run looped it (`events.recordingPasses`).
        public var recordingPasses: Int?
        /// Why the run stopped before its stream ended (`stopReason`).
        public var stopReason: String?
        /// Broadcast delivery's channels and what they cost.
        public var broadcast: Broadcast?
        /// The Live Activity budget's count.
        public var liveActivityBudget: LiveActivityBudgetCount?
        /// Open file descriptors before the run and after its teardown.
        public var openDescriptors: OpenDescriptors?
        /// The device contract's findings over every push checked, when a model was named: with the
        /// recorder's delivered pushes that would not decode, they make `pushes.wouldNotDecode`.
        public var contract: ContractFindings?
        /// The device side of delivery, when the run modelled devices.
        public var device: DeviceDelivery?
        /// What the priority override reached, when one was set.
        public var priorityOverride: PriorityOverrideCount?
        /// The push kinds pushes were handed out for.
        public var pushKinds: [PushKind]?
        /// The sender's pushes by class and the headers it set.
        public var sends: Sends?
        /// A sender's requests as the simulator received them (`apnsbench simulate --report` only).
        public var received: Received?
        /// The delivered pushes that would not decode, when another than the recorder checked them (a sender's
        /// report: the simulator's own checks); nil: the recorder's own count, with ``contract``.
        public var wouldNotDecode: WouldNotDecodeTally?
        /// Whether the latency is kept by push type, under the configuration's one push type; false when the
        /// delivered pushes were of several push types, which are not told apart (a sender's report).
        public var latencyByPushType: Bool

        public init(runID: String? = nil, streamSHA256: String? = nil, recordingPasses: Int? = nil, stopReason: String? = nil,
                    broadcast: Broadcast? = nil, liveActivityBudget: LiveActivityBudgetCount? = nil,
                    openDescriptors: OpenDescriptors? = nil, contract: ContractFindings? = nil, device: DeviceDelivery? = nil,
                    priorityOverride: PriorityOverrideCount? = nil, pushKinds: [PushKind]? = nil, sends: Sends? = nil,
                    received: Received? = nil, wouldNotDecode: WouldNotDecodeTally? = nil, latencyByPushType: Bool = true) {
            self.wouldNotDecode = wouldNotDecode
            self.latencyByPushType = latencyByPushType
            self.device = device
            self.priorityOverride = priorityOverride
            self.pushKinds = pushKinds
            self.sends = sends
            self.received = received
            self.runID = runID
            self.streamSHA256 = streamSHA256
            self.recordingPasses = recordingPasses
            self.stopReason = stopReason
            self.broadcast = broadcast
            self.liveActivityBudget = liveActivityBudget
            self.openDescriptors = openDescriptors
            self.contract = contract
        }
    }
}

extension RunRecorder {
    /// Builds the run's report, whole, from what was recorded and everything else the report says; the
    /// recorder is not changed. Call after the run (see the type's note on reading histograms). The pushes
    /// balance against the events: every push an event planned, and one per bad line, must have an
    /// outcome (`pushes.expectedPlanned` is `events`' expected pushes, for an unsharded run).
    /// - Parameters:
    ///   - configuration: the run's configuration, embedded verbatim.
    ///   - events: what became of every event read.
    ///   - environment: library versions and machine (``EnvironmentInfo/current(libcurl:ssl:nghttp2:)``).
    ///   - engine: the engine's counters.
    ///   - staleness: what coalescing added per update (recorded ms), when coalescing was on.
    ///   - simulator: the simulator's counters when the target was the embedded simulator; default nil.
    ///   - startedAt: wall-clock start of the run; written as ISO-8601 UTC.
    ///   - durationSeconds: wall-clock length of the run, in seconds (a non-finite or negative value is written as 0).
    ///   - facts: what only the harness knows (run id, stream digest, stop reason, broadcast, budget, …).
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
        facts: RunReport.RunFacts = .init(),
        generatorVersion: String = RunReport.Generator.defaultVersion
    ) -> RunReport {
        // One shard plans only its part of what the workload expects; the merge checks the whole.
        let expectedPlanned = (configuration.shard?.count ?? 1) > 1 ? nil : events.expectedPushes
        var eventsSection = RunReport.Events(events)
        eventsSection.streamSHA256 = facts.streamSHA256
        eventsSection.recordingPasses = facts.recordingPasses
        return RunReport(
            generator: RunReport.Generator(version: generatorVersion),
            startedAt: startedAt.formatted(Date.ISO8601FormatStyle(timeZone: .gmt)),
            durationSeconds: durationSeconds.isFinite ? Swift.max(0, durationSeconds) : 0,
            configuration: configuration,
            environment: environment,
            events: eventsSection,
            pushes: pushesSection(expectedPlanned: expectedPlanned, contract: facts.contract, wouldNotDecode: facts.wouldNotDecode),
            // By push type only when there is one (a mix of push types is not told apart per push).
            latency: latencySection(pushType: facts.latencyByPushType ? configuration.workload.commonPushType?.rawValue : nil),
            throughput: RunReport.Throughput(pushesPerSecond: pushesPerSecond, sent: sent, completed: completed),
            timeline: timelineEntries,
            engine: engine,
            simulator: simulator,
            coalescing: configuration.coalescing.windowMillis.map { window in
                RunReport.Coalescing(windowMillis: Int(window), pushesSaved: notSent[NotSentCause.coalesced.rawValue] ?? 0,
                                     staleness: staleness.map { LatencySummary(histogram: $0, unit: "ms") }
                                         ?? LatencySummary(unit: "ms", count: 0, min: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, mean: 0))
            },
            stopReason: facts.stopReason,
            openDescriptors: facts.openDescriptors,
            liveActivityBudget: facts.liveActivityBudget,
            runID: facts.runID,
            broadcast: facts.broadcast,
            merged: nil,
            device: facts.device,
            priorityOverride: facts.priorityOverride,
            received: facts.received,
            pushKinds: facts.pushKinds,
            sends: facts.sends
        )
    }

    /// Every planned push by terminal class, balanced against `expectedPlanned` (nil: not checked here).
    func pushesSection(expectedPlanned: Int?, contract: ContractFindings?, wouldNotDecode checked: WouldNotDecodeTally? = nil) -> RunReport.Pushes {
        var pushes = RunReport.Pushes(
            planned: planned,
            expectedPlanned: expectedPlanned,
            delivered: delivered,
            rejected: rejected,
            failed: failed,
            timedOut: timedOut,
            notSent: notSent,
            balanced: balances(expectedPlanned: expectedPlanned)
        )
        pushes.wouldNotDecode = contract.map { RunReport.WouldNotDecode(findings: $0, delivered: checked ?? wouldNotDecode) }
        return pushes
    }

    /// Latency overall, by priority, by outcome and, when the run has one push type, by push type; summaries
    /// and the encoded histograms they come from.
    func latencySection(pushType: String?) -> RunReport.Latency {
        var byPriority: [String: RunReport.PriorityLatency] = [:]
        var encodedByPriority: [String: RunReport.EncodedPair] = [:]
        for priority in Priority.allCases {
            let histograms = latency(priority: priority)
            guard histograms.count > 0 else { continue }
            byPriority[String(priority.rawValue)] = histograms.summary
            encodedByPriority[String(priority.rawValue)] = histograms.encoded
        }
        var byOutcome: [String: RunReport.PriorityLatency] = [:]
        var encodedByOutcome: [String: RunReport.EncodedPair] = [:]
        for (name, histograms) in latencyByOutcome where histograms.count > 0 {
            byOutcome[name] = histograms.summary
            encodedByOutcome[name] = histograms.encoded
        }
        let overall = latency.summary, encodedOverall = latency.encoded
        let typed = overall.serviceTime.count > 0 ? pushType : nil
        return RunReport.Latency(
            serviceTime: overall.serviceTime,
            responseTime: overall.responseTime,
            byPriority: byPriority,
            byPushType: typed.map { [$0: overall] } ?? [:],
            undeliveredSent: undeliveredSent,
            byOutcome: byOutcome,
            histograms: RunReport.EncodedLatency(
                overall: encodedOverall,
                byPriority: encodedByPriority,
                byPushType: typed.map { [$0: encodedOverall] } ?? [:],
                byOutcome: encodedByOutcome
            )
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
