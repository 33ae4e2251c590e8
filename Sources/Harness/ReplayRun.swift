import APNsCore
import APNsEngine
import APNsSimulator
import Foundation
import Replay
import Reporting

/// What `apnsbench run` was asked to do.
public struct RunOptions: Sendable {
    public var profilePath: String
    /// Report folder. Default `reports/latest`.
    public var outDirectory = "reports/latest"
    public var target: Target = .simulator
    public var credentials = Credentials()
    /// Overrides of the profile's values.
    public var connections: Int?
    public var streams: Int?
    /// Engine threads; `connections` is the total across them.
    public var workers: Int?
    public var priority: Priority?
    /// Stop sending after this many seconds.
    public var durationLimit: Double?
    /// Overrides the profile's schedule.
    public var schedule: Schedule?
    /// Overrides the profile's coalescing window (ms); 0 turns coalescing off.
    public var coalesceMillis: Int64?
    /// Overrides the profile's apns-expiration (seconds after the start), apns-collapse-id and retry attempts.
    public var expirationSeconds: Int?
    public var collapseID: String?
    public var retryAttempts: Int?
    /// The embedded simulator answers 200 to everything without validating (measures the client alone).
    public var fastSimulator = false

    public init(profilePath: String) { self.profilePath = profilePath }
}

/// How a run ended.
public struct RunResult {
    public let report: RunReport
    public let reportPaths: [String]
    /// Set when the profile's bad-line policy is `stop` and the run stopped at a bad line.
    public let stoppedAt: StreamLineError?
}

/// A run that could not start or finish, with a message naming the cause.
public struct RunError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One replay: profile → (simulator) → engine → report. Everything the CLI's `run` does besides parsing.
public enum ReplayRun {
    /// The most `--workers` this machine allows (4 per core, at most 64).
    public static var workerLimit: Int { WorkerPool.workerLimit() }

    /// - Parameter log: receives the start line and, on long runs, a progress line about every 2 s
    ///   (from the engine's thread).
    public static func execute(_ options: RunOptions, log: @escaping (String) -> Void = { print($0) }) throws -> RunResult {
        // Inputs first, so bad input fails before anything starts.
        var profile = try ProfileLoader.load(path: options.profilePath)
        if let c = options.connections { profile.connections = c }
        if let s = options.streams { profile.streams = s }
        if let w = options.workers { profile.workers = w }
        if let e = options.expirationSeconds { profile.expirationSeconds = e }
        if let c = options.collapseID { profile.collapseID = c }
        if let r = options.retryAttempts { profile.retryAttempts = r }
        if let p = options.priority { profile.priority = p }
        if let s = options.schedule { profile.schedule = s }
        if let c = options.coalesceMillis { profile.coalesceMillis = c > 0 ? c : nil }
        if profile.coalesceMillis != nil, profile.pushType != .liveactivity {
            throw RunError("--coalesce applies to Live Activity updates; \(options.profilePath) sends \(profile.pushType.rawValue) pushes")
        }
        try profile.schedule.validate()
        let workerLimit = Self.workerLimit
        guard (1...workerLimit).contains(profile.workers) else {
            throw RunError("workers \(profile.workers) must be between 1 and \(workerLimit) on this machine (4 per core, at most 64)")
        }
        guard profile.connections >= profile.workers else {
            throw RunError("\(profile.workers) workers need at least \(profile.workers) connections: each worker has its own, and connections (\(profile.connections)) are the total across workers; raise --connections")
        }
        let libcurl = LibcurlInfo.loaded()
        try libcurl.requireUsable()
        guard let templateData = FileManager.default.contents(atPath: profile.templatePath) else {
            throw RunError("template \(profile.templatePath) (from \(options.profilePath)) cannot be read")
        }
        let template = try PayloadTemplate(json: String(decoding: templateData, as: UTF8.self), source: profile.templatePath)
        guard FileManager.default.isReadableFile(atPath: profile.streamPath) else {
            throw RunError("stream \(profile.streamPath) (from \(options.profilePath)) cannot be read")
        }
        let key = try signingKey(options)
        let tokens = try ProviderTokenCache(key: key, refreshInterval: profile.tokenRefreshMinutes * 60)

        // The target.
        var simulator: APNsSimulator?
        let baseURL: String
        var trusted: String?
        if let url = options.target.baseURL {
            baseURL = url
        } else {
            var config = SimulatorConfiguration()
            config.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
            config.topicsByTeam[key.teamID] = [profile.bundleID]
            if let path = profile.deadTokensPath {
                for token in try readTokenList(path) { config.deviceRegistry.kill(token: token) }
            }
            config.fast = options.fastSimulator
            let sim = try APNsSimulator(configuration: config)
            try sim.start()
            simulator = sim
            baseURL = sim.url
            trusted = sim.certificates?.caPEM
        }
        defer { simulator?.stop() }

        let startedAt = Date()
        var engineConfig = EngineConfiguration(
            baseURL: baseURL, topic: profile.topic, pushType: profile.pushType,
            expiration: profile.expirationSeconds.map { $0 == 0 ? 0 : Int(startedAt.timeIntervalSince1970) + $0 },
            connections: profile.connections, streamsPerConnection: profile.streams, trustedCertificatePEM: trusted)
        engineConfig.pushTimeoutMillis = profile.pushTimeoutMillis
        engineConfig.durationLimit = options.durationLimit
        engineConfig.collapseID = profile.collapseID
        if let n = profile.retryAttempts { engineConfig.retry.maxAttempts = n }
        if let ms = profile.retryBackoffMillis {
            engineConfig.retry.initialBackoff = Double(ms) / 1000
            engineConfig.retry.maxBackoff = max(engineConfig.retry.maxBackoff, engineConfig.retry.initialBackoff)
        }
        if let ms = profile.retryMaxElapsedMillis { engineConfig.retry.maxElapsed = Double(ms) / 1000 }
        try engineConfig.validate()
        let runStart = MonotonicTime.now()
        let progress: (EngineStats, Int, Int) -> Void = { stats, completed, inFlight in
            let seconds = Double(MonotonicTime.now() - runStart) / 1e9
            log(String(format: "  %6.1f s  sent %d  completed %d  in flight %d  (%.0f pushes/s)",
                       seconds, stats.sent, completed, inFlight, seconds > 0 ? Double(completed) / seconds : 0))
        }
        // One engine on a thread of its own, or (workers > 1) a pool of engines, each with its own thread,
        // share of the connections and provider token, fed by one producer thread.
        var engine: CurlEngine?
        var pool: WorkerPool?
        if profile.workers > 1 {
            let p = try WorkerPool(workers: profile.workers, configuration: engineConfig) {
                try ProviderTokenCache(key: key, refreshInterval: profile.tokenRefreshMinutes * 60)
            }
            p.onProgress = progress
            pool = p
        } else {
            let e = try CurlEngine(configuration: engineConfig, tokens: tokens)
            e.onProgress = progress
            engine = e
        }

        let recorder = RunRecorder()
        let workload = try Workloads.make(profile: profile, template: template, accounting: recorder, outcomes: recorder)
        log("apnsbench: replaying \(profile.streamPath) (\(profile.workload)) to \(simulator.map { "the embedded simulator at \($0.url)" } ?? baseURL), \(profile.connections) connection(s) x \(profile.streams) streams\(profile.workers > 1 ? " over \(profile.workers) workers" : ""), \(profile.schedule)")
        let timelineStart = MonotonicTime.now()
        recorder.start(atNanos: timelineStart)
        var source: PushSource = workload
        if let window = profile.coalesceMillis {
            source = Coalescer(source, windowMillis: window, outcomes: recorder, accounting: recorder)
        }
        if profile.schedule.isOpenLoop { source = PacedSource(source, pacer: Pacer(profile.schedule)) }
        let stats: EngineStats
        if let pool {
            // Each worker records into its own recorder (no locks on the hot path); merged once they joined.
            let workerRecorders = (0..<pool.workers).map { _ in RunRecorder() }
            for r in workerRecorders { r.start(atNanos: timelineStart) }
            stats = try pool.run(source: source, sink: recorder, workerSinks: workerRecorders)
            for r in workerRecorders { recorder.merge(r) }
        } else {
            stats = try engine!.runOnOwnThread(source: source, sink: recorder)
        }
        let duration = Date().timeIntervalSince(startedAt)
        // Every push the events announced (and one per bad line) must have ended somewhere: the report's
        // balance check compares this with the outcomes recorded.
        recorder.expectedPlanned = recorder.pushesFromEvents + recorder.invalidEventsTotal

        var settings = RunSettings(
            profile: options.profilePath, workload: profile.workload, stream: profile.streamPath, target: options.target.description,
            pushType: profile.pushType.rawValue, topic: profile.topic, priority: String(profile.priority.rawValue),
            expirationSeconds: profile.expirationSeconds, connections: profile.connections, streams: profile.streams,
            tokenRefreshSeconds: Int(profile.tokenRefreshMinutes * 60), pushTimeoutMillis: profile.pushTimeoutMillis,
            badLinePolicy: profile.badLines.rawValue, durationLimitSeconds: options.durationLimit,
            schedule: profile.schedule.description, coalesceMillis: profile.coalesceMillis.map { Int($0) },
            workers: profile.workers)
        settings.collapseID = profile.collapseID
        let r = engineConfig.retry
        settings.retry = r.maxAttempts == 1 ? "never" : String(format: "%d attempts, backoff %g s doubling to %g s, within %g s; 429 holds the token from %g s", r.maxAttempts, r.initialBackoff, r.maxBackoff, r.maxElapsed, r.tokenBackoff)
        settings.simulatorMode = simulator == nil ? nil : (options.fastSimulator ? "fast" : "validating")
        if profile.sloP99Millis != nil || profile.sloMinDelivered != nil {
            settings.slo = .init(p99Millis: profile.sloP99Millis, minDelivered: profile.sloMinDelivered)
        }
        var report = recorder.makeReport(
            settings: settings,
            environment: .current(libcurl: libcurl.version, ssl: libcurl.ssl, nghttp2: libcurl.nghttp2),
            engine: EngineSummary(stats, connections: profile.connections, streams: profile.streams),
            simulator: simulator?.counterSnapshot.flattened,
            startedAt: startedAt, durationSeconds: duration)
        if report.latency.byPriority.count > 1 {
            // The workload chose per event (order changes: 10 when orders are late); the profile's is the default.
            report.configuration.priority = "per-event (default \(profile.priority.rawValue))"
        }
        let paths = try ReportWriter.write(report, to: options.outDirectory)
        if let failure = workload.readFailure {
            throw RunError("reading \(profile.streamPath) failed: \(failure) (partial report written to \(options.outDirectory))")
        }
        return RunResult(report: report, reportPaths: paths, stoppedAt: workload.stopError)
    }

    /// One token a line; blank lines and `#` comments skipped; a line that is not a token is an error
    /// naming the file and the line.
    static func readTokenList(_ path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunError("dead-token list \(path) cannot be read")
        }
        var tokens: [String] = []
        for (i, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard DeviceToken.isValid(line) else {
                throw RunError("\(path):\(i + 1): '\(DeviceToken.redacted(line))' is not a device token (even-length hex, 64-200 characters)")
            }
            tokens.append(line)
        }
        return tokens
    }

    /// The key from --key-path/--key-id/--team-id (or APNS_* variables); against the simulator a fresh
    /// key is made when none is given.
    static func signingKey(_ options: RunOptions) throws -> SigningKey {
        let c = options.credentials
        if let path = c.keyPath {
            guard let keyID = c.keyID, let teamID = c.teamID else {
                throw RunError("--key-path needs --key-id and --team-id (or APNS_KEY_ID and APNS_TEAM_ID)")
            }
            return try SigningKey(p8Path: path, keyID: keyID, teamID: teamID)
        }
        guard options.target == .simulator else {
            throw RunError("target \(options.target) needs a provider key: --key-path AuthKey_XXXXXXXXXX.p8 --key-id XXXXXXXXXX --team-id XXXXXXXXXX (or APNS_KEY_PATH, APNS_KEY_ID, APNS_TEAM_ID)")
        }
        return SigningKey.generate()
    }
}

extension RunRecorder: CoalescingAccounting {
    public func coalescingStaleness(millis: Int64) { recordStaleness(millis: millis) }
}

extension RunRecorder: EventAccounting {
    public func eventApplied(kind: String, pushes: Int) {
        recordEvent(kind: kind, result: pushes > 0 ? .producedPushes(pushes) : .stateOnly)
    }

    public func badLine(_ error: StreamLineError, kind: String?) {
        recordBadLine(lineNumber: error.line, cause: error.cause.key, detail: error.description, kind: kind ?? RunRecorder.unknownKind)
    }
}

extension EngineSummary {
    /// The report's view of the engine's counters.
    init(_ stats: EngineStats, connections: Int, streams: Int) {
        self.init(connections: connections, streams: streams, connectionsOpened: stats.connectionsOpened,
                  providerTokenSignings: stats.providerTokenSignings, peakInFlight: stats.peakInFlight)
        var r = Resilience()
        r.retries = stats.retries
        r.retriesTotal = stats.retriesTotal
        r.tokenBackoffs = stats.tokenBackoffs
        r.deadTokens = stats.deadTokens
        r.providerTokenRefreshes = stats.providerTokenRefreshes
        r.reconnects = stats.reconnects
        r.reconnectHolds = stats.reconnectHolds
        r.pings = stats.pings
        resilience = r
    }
}
