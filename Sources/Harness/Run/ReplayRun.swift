import APNsCore
import DeviceDelivery
import APNsEngine
import APNsSimulator
import DeviceContract
import Foundation
import Histogram
import Replay
import Reporting

/// What `apnsbench run` was asked to do: a profile, the command line's overrides, where to write.
public struct RunRequest: Sendable {
    public var profilePath: String
    /// Values given on the command line, laid over the profile's.
    public var overrides = RunConfigOverrides()
    /// Report folder. Default `reports/latest`.
    public var outDirectory = "reports/latest"
    /// The provider key; never part of the configuration (it is secret, and not what runs compare).
    public var credentials = Credentials()
    /// A CA certificate (PEM file) to trust for a URL, sandbox or production target instead of the
    /// system's (`--ca-cert`); nil: the system's. Not part of the configuration: it changes whom the run
    /// trusts, not what it sends.
    public var caCertificatePath: String?
    /// Where live progress goes; nil: nowhere.
    public var progress: RunProgress?
    /// A stop another thread may request (signals: ``SignalStop``); nil: the run ends on its own.
    public var stop: RunStop?
    /// The run's id, the same in every shard of one run (`--run-id`); nil: a fresh one.
    public var runID: String?
    /// A barrier: nothing is sent before this wall-clock time (`--start-at`); nil: at once.
    public var startAt: Date?
    /// Serve live OpenMetrics at `HOST:PORT/metrics` while the run lasts (`--metrics-listen`); nil: none.
    public var metricsListen: String?
    /// After the report is written, go on serving its totals this long, so a last scrape sees them.
    public var metricsLingerSeconds: Double = 0

    public init(profilePath: String) { self.profilePath = profilePath }
}

/// How a run ended.
public struct RunResult {
    public let report: RunReport
    public let reportPaths: [String]
    /// Set when the profile's bad-line policy is `stop` and the run stopped at a bad line.
    public let stoppedAt: StreamLineError?
    /// Whether a requested stop (a signal) ended the run early.
    public let interrupted: Bool
}

/// A run that could not start or finish, with a message naming the cause.
public struct RunError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One replay: configuration → target → workers → report. Everything the CLI's `run` does besides parsing.
///
/// There is one run path: a pool of `transport.workers` engines (one by default) fed by one producer
/// thread that reads the stream. The workload driver says what each event planned, the pool records every
/// push's outcome, and the report is built from the recorders, the driver's event tally and the engines'
/// counters once the workers joined.
public enum ReplayRun {
    /// The configuration a request describes: the profile with the overrides laid over it, checked once.
    public static func configuration(_ request: RunRequest) throws -> RunConfig {
        let profile = try ProfileLoader.read(path: request.profilePath)
        let config = try profile.validated(overlaying: request.overrides)
        try profile.requireFiles()
        // An APNs model file's own `simulator:` section first, so that a mistake in it names that file's line;
        // then the profile's section with the model under it, by the simulator's own rules.
        if let model = config.simulator.model, APNsLatencyModel.named(model) == nil {
            let folder = (request.profilePath as NSString).deletingLastPathComponent
            let fromFlag = request.overrides.apnsModel != nil
            try SimulatorConfigFile.check(profile: model.hasPrefix("/") || fromFlag ? model : (folder as NSString).appendingPathComponent(model))
        }
        try SimulatorConfigFile.check(run: config)
        return config
    }

    /// Every file a run of `config` reads, the provider key and CA certificate of `request` included.
    public static func inputFiles(_ config: RunConfig, _ request: RunRequest) -> [OutputPath.Input] {
        config.inputFiles + [request.credentials.keyPath.map { OutputPath.Input("the provider key", $0) },
                             request.caCertificatePath.map { OutputPath.Input("the CA certificate", $0) }].compactMap { $0 }
    }

    /// Throws ``OutputPath/Refusal`` when `folder` (where the run, or a sweep of it, writes) is or holds a file
    /// the run reads.
    public static func refuseOverwritingInputs(_ folder: String, _ config: RunConfig, _ request: RunRequest) throws {
        try OutputPath.refuseOverwriting(folder, inputs: inputFiles(config, request))
    }

    /// - Parameter log: receives the start line (progress goes to `request.progress`).
    public static func execute(_ request: RunRequest, log: @escaping (String) -> Void = { print($0) }) throws -> RunResult {
        let config = try configuration(request)
        try refuseOverwritingInputs(request.outDirectory, config, request)
        let runID = request.runID ?? RunIdentity.fresh()
        var metrics: (live: LiveMetrics, server: MetricsServer)?
        if let listen = request.metricsListen {
            let live = LiveMetrics(runID: runID, shard: config.shard?.index ?? 0)
            metrics = (live, try MetricsServer(listen: listen, metrics: live))
            log("apnsbench: metrics at http://\(metrics!.server.address)/metrics (run_id \(runID)\(config.shard.map { ", shard \($0)" } ?? ""))")
        }
        defer { metrics?.server.stop() }
        OpenDescriptorCount.warmUp()
        let descriptorsAtStart = OpenDescriptorCount.now()
        // Everything the run opens lives in `replay` and is gone when it returns; the report is built after,
        // so it can say whether any of it stayed open.
        let replayed = try replay(config, request, runID: runID, metrics: metrics?.live, log: log)
        let openDescriptors = descriptorsAtStart.flatMap { start in
            OpenDescriptorCount.settled(toward: start).map { RunReport.OpenDescriptors(atStart: start, atEnd: $0) }
        }
        let report = replayed.makeReport(openDescriptors: openDescriptors)
        let paths = try ReportWriter.write(report, to: request.outDirectory)
        if let metrics {
            metrics.live.finish(report)
            if request.metricsLingerSeconds > 0 {
                log("apnsbench: serving the final metrics for \(String(format: "%g", request.metricsLingerSeconds)) s (--metrics-linger)")
                let stop = request.stop
                let until = Date().addingTimeInterval(request.metricsLingerSeconds)
                while Date() < until, !(stop?.isRequested ?? false) { usleep(100_000) }
            }
        }
        if replayed.unreachable {
            throw RunError("\(report.stopReason ?? "target unreachable") (report written to \(request.outDirectory))")
        }
        if let failure = replayed.readFailure {
            throw RunError("reading \(failure.stream) failed: \(failure.error) (partial report written to \(request.outDirectory))")
        }
        return RunResult(report: report, reportPaths: paths, stoppedAt: replayed.stoppedAt, interrupted: replayed.interrupted)
    }

    /// What one replay leaves once its target, engines and stream are closed: the recorder and everything
    /// else its report is built from (values only: nothing that holds a descriptor), and how it ended.
    private struct Replayed {
        let recorder: RunRecorder
        let configuration: RunConfig
        let events: EventTally
        let environment: EnvironmentInfo
        let engine: EngineCounters
        let staleness: Histogram<UInt64>?
        let simulator: [String: Int]?
        let startedAt: Date
        let durationSeconds: Double
        let facts: RunReport.RunFacts
        var unreachable: Bool
        var readFailure: (stream: String, error: Error)?
        var stoppedAt: StreamLineError?
        var interrupted: Bool
        /// The device side of delivery, when the simulator modelled devices.
        var device: RunReport.DeviceDelivery?
        var priorityOverride: RunReport.PriorityOverrideCount?
        /// The run's push kinds, by ``OutgoingPush/kind``.
        var pushKinds: [PushKind] = []
        var sends: RunReport.Sends?

        /// The run's report, whole.
        func makeReport(openDescriptors: RunReport.OpenDescriptors?) -> RunReport {
            var facts = facts
            facts.openDescriptors = openDescriptors
            facts.device = device
            // One Live Activity budget: with a device model, its throttled count is the budget (judged on the pushes APNs
            // accepted); the pipeline's count of the pushes sent, by another rule, is not reported beside it.
            if device != nil { facts.liveActivityBudget = nil }
            facts.priorityOverride = priorityOverride
            facts.pushKinds = RunReport.PushKind.used(pushKinds, events)
            facts.sends = sends
            return recorder.makeReport(configuration: configuration, events: events, environment: environment, engine: engine,
                                       staleness: staleness, simulator: simulator, startedAt: startedAt,
                                       durationSeconds: durationSeconds, facts: facts)
        }
    }

    private static func replay(_ config: RunConfig, _ request: RunRequest, runID: String, metrics: LiveMetrics?,
                               log: @escaping (String) -> Void) throws -> Replayed {
        // Inputs first, so bad input fails before anything starts.
        let inputs = try RunInputs(config, credentials: request.credentials, caCertificatePath: request.caCertificatePath)
        let target = try RunTarget(config, inputs: inputs)
        defer { target.stop() }
        let stop = request.stop ?? RunStop()
        if let startAt = request.startAt { StartBarrier.wait(until: startAt, stop: stop, shard: config.shard, log: log) }

        // Broadcast delivery: the stores' channels exist before anything is sent, and go when the run ends.
        let broadcast = try config.deliveryMode == .broadcast ? BroadcastSetup(
            config, recipe: inputs.recipes[0], managementURL: config.target.channelManagementURL ?? target.baseURL,
            trustedCertificatePEM: target.trustedCertificatePEM,
            tokens: try inputs.makeTokens(config, clock: target.simulator?.configuration.clock ?? .system), log: log) : nil
        var channelsCleaned = false
        defer { if !channelsCleaned, config.keepChannels != true { broadcast?.deleteChannels(log: log) } }

        let startedAt = Date()
        let engine = EngineConfiguration(run: config, baseURL: target.baseURL, trustedCertificatePEM: target.trustedCertificatePEM,
                                         startedAtEpochSeconds: Int(startedAt.timeIntervalSince1970),
                                         broadcastChannels: broadcast?.channels.idsByIndex ?? [], progressInterval: 0.5,
                                         kinds: inputs.kinds)
        let pool = try WorkerPool(workers: config.transport.workers, configuration: engine) {
            try inputs.makeTokens(config, clock: target.simulator?.configuration.clock ?? .system)
        }
        let driver = try Workloads.replay(config, recipes: inputs.recipes, channels: broadcast?.channels)
        let pipeline = SendPipeline(driver, config, checks: inputs.contractChecks, kindTypes: inputs.kindTypes)
        let sends = SendTallySource(pipeline, config, kinds: inputs.kinds, pool: pool)
        log(startLine(config, target))

        // Each worker records into its own recorder (no locks on the hot path); added up once they joined.
        let recorders = (0...pool.workers).map { _ in RunRecorder(intervalSeconds: config.timelineIntervalSeconds) }
        let recorder = recorders[0], workerRecorders = Array(recorders[1...])
        if metrics != nil { for r in workerRecorders { r.detailedProgress = true } }
        let start = MonotonicTime.now()
        for r in recorders { r.start(atNanos: start) }
        let feeds = deviceFeeds(config, inputs: inputs, target: target, workerRecorders: workerRecorders, start: start)
        request.progress?.begin(config, at: start) { driver.streamProgress }
        defer { request.progress?.end() }
        pool.stop = stop
        report(pool, to: request.progress, metrics)
        let producerSink: OutcomeSink = metrics.map { PublishingSink(recorder, metrics: $0) } ?? recorder
        let counters = try pool.run(source: sends, sink: producerSink, workerSinks: workerRecorders)
        for r in workerRecorders { recorder += r }
        let duration = Date().timeIntervalSince(startedAt)
        if let broadcast, config.keepChannels != true { broadcast.deleteChannels(log: log) }
        channelsCleaned = true

        let facts = runFacts(runID: runID, config, inputs: inputs, driver: driver, stop: stop, broadcast: broadcast, pipeline: pipeline)
        return Replayed(recorder: recorder, configuration: target.reported(config), events: driver.events,
                        environment: .current(libcurl: inputs.libcurl.version, ssl: inputs.libcurl.ssl, nghttp2: inputs.libcurl.nghttp2),
                        engine: counters, staleness: pipeline.coalescer?.staleness, simulator: target.simulatorCounters,
                        startedAt: startedAt, durationSeconds: duration, facts: facts, unreachable: stop.isRequested && stop.cause == .targetUnreachable,
                        readFailure: driver.failedRead, stoppedAt: driver.stopError, interrupted: stop.isRequested,
                        device: feeds.map { DeviceDeliveryTally(pushes: DeviceDeliveryFeed.merged($0.feeds), parameters: $0.parameters).section },
                        priorityOverride: pipeline.priorityOverride.map { .init(reached: $0.reached, changed: $0.changed) },
                        pushKinds: inputs.kinds,
                        sends: sends.tally.section)
    }

    /// `apnsbench: replaying STREAM (WORKLOAD) to TARGET, C connection(s) x S streams[ over W workers], MODE`.
    private static func startLine(_ config: RunConfig, _ target: RunTarget) -> String {
        let overWorkers = config.transport.workers > 1 ? " over \(config.transport.workers) workers" : ""
        return "apnsbench: replaying \(config.workload.streamLabel) (\(config.workload.label)) to \(target.description), "
            + "\(config.transport.connections) connection(s) x \(config.transport.streams) streams\(overWorkers), \(config.schedule.mode)"
    }

    /// One device feed per engine thread's recorder, when the embedded simulator models devices (device
    /// delivery only: a broadcast reaches channels, not tokens).
    private static func deviceFeeds(_ config: RunConfig, inputs: RunInputs, target: RunTarget, workerRecorders: [RunRecorder],
                                    start: UInt64) -> (feeds: [DeviceDeliveryFeed], parameters: DeviceDeliveryParameters)? {
        guard let parameters = target.simulator?.configuration.device, config.deliveryMode != .broadcast else { return nil }
        let kinds = inputs.kinds.map { k in
            DeviceDeliveryFeed.Kind(pushType: k.pushType, collapseID: k.headers.text(APNsHeaders.collapseID),
                                      expirationSeconds: k.headers.number(APNsHeaders.expiration))
        }
        let feeds = workerRecorders.map { r in
            let feed = DeviceDeliveryFeed(kinds: kinds, startNanos: start)
            r.deviceFeed = feed
            return feed
        }
        return (feeds, parameters)
    }

    /// The pool's progress snapshots, to the progress line and the live metrics (when either is there).
    private static func report(_ pool: WorkerPool, to progress: RunProgress?, _ metrics: LiveMetrics?) {
        guard progress != nil || metrics != nil else { return }
        pool.onProgress = { snapshot in
            progress?.update(snapshot, at: MonotonicTime.now())
            metrics?.update(snapshot)
        }
    }

    /// What the run knows besides its outcomes: its id, the recording, why it stopped, the broadcast channels,
    /// the Live Activity budget and the device contract's findings.
    private static func runFacts(runID: String, _ config: RunConfig, inputs: RunInputs, driver: ReplaySource, stop: RunStop,
                                 broadcast: BroadcastSetup?, pipeline: SendPipeline) -> RunReport.RunFacts {
        RunReport.RunFacts(
            runID: runID, streamSHA256: inputs.streamSHA256, recordingPasses: driver.recordingPasses, stopReason: stop.reason,
            broadcast: broadcast.map { b in
                RunReport.Broadcast(channels: b.channels.byStore.count, storesRefused: b.channels.refused.count, deleted: b.deleted,
                                    kept: config.keepChannels == true, managementCalls: b.client.calls,
                                    followersNotSubscribed: driver.followersNotSubscribed)
            },
            liveActivityBudget: pipeline.budget.map { b in
                .init(priority10PerHour: b.budget.perHour, windowSeconds: Int(LiveActivityBudget.windowMillis / 1000),
                      priority10Updates: b.budget.updates, throttled: b.budget.throttled, activitiesThrottled: b.budget.throttledTokens.count)
            },
            contract: pipeline.contract?.findings)
    }
}

/// How many file descriptors the process has open (`/proc/self/fd`, less the one that lists it); nil where
/// there is no /proc.
enum OpenDescriptorCount {
    /// libdispatch opens its timer descriptor the first time a timer is used (NIO's shutdown uses one),
    /// and keeps it for the life of the process: opened here first, so that it is not counted as the run's.
    static func warmUp() {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { done.signal() }
        done.wait()
    }

    static func now() -> Int? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return names.count - 1
    }

    /// The count once descriptors that other threads are closing have closed: counted again every 20 ms, for at
    /// most a second, while it is above `start`. A connection to the metrics server that a scrape has open at
    /// the moment of counting is not the run's, and a descriptor the run left open is still there a second later.
    static func settled(toward start: Int) -> Int? {
        var count = now()
        var tries = 0
        while let c = count, c > start, tries < 50 {
            usleep(20_000)
            count = now()
            tries += 1
        }
        return count
    }
}
