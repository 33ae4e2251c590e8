import Foundation

/// One knob of ``RunConfig``, named as a profile spells it and as the command line spells it, so an
/// error can name whichever the value came from.
public enum ConfigKey: String, CaseIterable, Sendable {
    case name, description, workload, stream, recipe
    case pushType = "push_type"
    case bundleID = "bundle_id"
    case activityModelType = "activity_model_type"
    case dateDecoding = "date_decoding"
    case activityModelFlags = "activity_model_flags"
    case deadTokens = "dead_tokens"
    case badLines = "bad_lines"
    case target
    case connections, streams, workers
    case pushTimeout = "push_timeout_ms"
    case tokenRefresh = "token_refresh_minutes"
    case priority
    case priorityOverride = "priority_override"
    case expiration = "expiration_seconds"
    case collapseID = "collapse_id"
    case retryAttempts = "retry_attempts"
    case retryBackoff = "retry_backoff"
    case retryMaxElapsed = "retry_max_elapsed"
    case coalesce
    case schedule, speed, rate, ramp
    case duration
    case loopRecording = "loop_recording"
    case sloP99 = "slo_p99_ms"
    case sloMinDelivered = "slo_min_delivered"
    case sloMaxErrorShare = "slo_max_error_share"
    case sloMaxWouldNotDecode = "slo_max_would_not_decode"
    case sloP99TimeToDevice = "slo_p99_time_to_device_ms"
    case sloMaxThrottledShare = "slo_max_throttled_share"
    case capacityPeak = "capacity_peak_per_second"
    case capacityMinHeadroom = "capacity_min_headroom"
    case activityModel = "activity_model"
    case reportInterval = "report_interval"
    case failFast = "fail_fast"
    case stallTimeout = "stall_timeout"
    case liveActivityBudget = "live_activity_budget"
    case allowProductionLoad = "allow_production_load"
    case fastSimulator = "fast_simulator"
    case simulator
    case apnsModel = "apns_model"
    case shard
    case delivery
    case keepChannels = "keep_channels"
    case mix

    /// The profile's key, or for a setting only the command line sets, its name.
    public var profileKey: String { rawValue }

    /// The `apnsbench run` flag that sets it, if one does (``RunSettings``).
    public var flag: String? { RunSettings.all.first { $0.key == self }?.flag }
}

/// A configuration value out of range or in conflict with another, naming the key.
public struct RunConfigError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The key whose value is wrong.
    public let key: ConfigKey
    /// What is wrong, to follow the key's name: `must be between 1 and 64, found 65`.
    public let problem: String

    public init(_ key: ConfigKey, _ problem: String) {
        self.key = key
        self.problem = problem
    }

    /// As a profile reader sees it: `'connections' must be between 1 and 64, found 65`.
    public var description: String { "'\(key.profileKey)' \(problem)" }

    /// As a command-line user sees it: `--connections must be between 1 and 64, found 65`.
    public var flagDescription: String { "\(key.flag ?? key.profileKey) \(problem)" }
}

extension RunConfig.Transport {
    /// The most workers allowed on a machine with `cores` cores: 4 a core, at most 64.
    public static func workerLimit(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        min(64, max(1, cores) * 4)
    }

    /// Connections, streams, workers and the push timeout in range, with a connection for every worker.
    public func validate(cores: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        try RunConfig.check(.connections, connections)
        try RunConfig.check(.streams, streams, why: " (APNs allows up to about 1000)")
        try RunConfig.check(.workers, workers, upTo: Self.workerLimit(cores: cores), why: " on this machine (4 per core, at most 64)")
        guard connections >= workers else {
            throw RunConfigError(.workers, "\(workers) needs \(workers) connections or more: each worker has its own, and connections (\(connections)) "
                + "are the total across workers")
        }
        try RunConfig.check(.pushTimeout, pushTimeoutMillis)
    }
}

extension RunConfig.Payload {
    /// The one rule for `apns-collapse-id` (APNs answers BadCollapseId otherwise; a line break would end
    /// the header). The engine checks it again for callers that build its settings by hand.
    public static func validate(collapseID: String) throws {
        let bytes = collapseID.utf8.count
        guard (1...64).contains(bytes) else {
            throw RunConfigError(.collapseID, "must be 1 to 64 bytes (APNs answers BadCollapseId otherwise), found \(bytes)")
        }
        guard !collapseID.contains(where: \.isNewline) else { throw RunConfigError(.collapseID, "must be on one line") }
    }

    public func validate() throws {
        if let e = expirationSeconds { try RunConfig.check(.expiration, e, why: " seconds (30 days)") }
        if let id = collapseID { try Self.validate(collapseID: id) }
    }
}

extension RunConfig.Retry {
    public func validate() throws {
        try RunConfig.check(.retryAttempts, attempts)
        guard backoffMillis >= 0 else { throw RunConfigError(.retryBackoff, "must not be negative, found \(backoffMillis) ms") }
        guard maxElapsedMillis >= 0 else { throw RunConfigError(.retryMaxElapsed, "must not be negative, found \(maxElapsedMillis) ms") }
        guard multiplier >= 1, maxBackoffMillis >= 0, tokenBackoffMillis >= 0 else {
            throw RunConfigError(.retryBackoff, "needs a multiplier of at least 1 and backoffs of at least 0")
        }
    }
}

extension RunConfig {
    /// Checks every value, with an error naming the key. It runs twice on a run's way in: `ProfileLoader` on
    /// the profile alone (so an error names the profile's line), and `validate(setBy:)` on the final value,
    /// after the flags were laid over it (naming the flag when a flag set the value).
    public func validate(cores: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        try validateTransportAndPayload(cores: cores)
        try validateSchedule()
        try validateObjectives()
        try validateLimits()
        try validateTarget()
    }

    /// The connections, the provider token's refresh, the payload, the retry policy and a mix's parts.
    private func validateTransportAndPayload(cores: Int) throws {
        try transport.validate(cores: cores)
        let minutes = auth.tokenRefreshMinutes
        if let r = RunSettings[.tokenRefresh].range, !r.contains(minutes) {
            throw RunConfigError(.tokenRefresh, "must be \(r.text), found \(Self.trim(minutes))")
        }
        try payload.validate()
        try retry.validate()
        if let parts = workload.mix {
            try Self.check(.mix, parts.count, why: " workloads")
            for part in parts where part.mix != nil { throw RunConfigError(.mix, "parts are single workloads; \(part.name) is itself a mix") }
        }
    }

    /// The schedule, the duration and looping, and the coalescing window.
    private func validateSchedule() throws {
        do { try schedule.mode.validate() } catch {
            let key: ConfigKey
            switch schedule.mode {
            case .closedLoop: key = .schedule
            case .recorded: key = .speed
            case .fixedRate: key = .rate
            case .ramp: key = .ramp
            }
            throw RunConfigError(key, "\(error)")
        }
        if let d = schedule.durationSeconds, !(d > 0 && d.isFinite) {
            throw RunConfigError(.duration, "must be a positive number of seconds, found \(Self.trim(d))")
        }
        if schedule.loopRecording == true {
            guard schedule.durationSeconds != nil else {
                throw RunConfigError(.loopRecording, "needs a duration (--duration): a looped recording never runs out")
            }
            guard deliveryMode != .broadcast else {
                throw RunConfigError(.loopRecording, "does not apply to broadcast delivery: its channels are made for one pass")
            }
        }
        if let window = coalescing.windowMillis {
            guard window > 0 else { throw RunConfigError(.coalesce, "must be a positive duration, found \(window) ms") }
            for part in workload.parts where part.pushType != .liveactivity {
                throw RunConfigError(.coalesce, "applies to Live Activity updates; \(name) sends \(part.pushType.rawValue) pushes"
                    + (workload.mix == nil ? "" : " (its part \(part.name))"))
            }
        }
    }

    /// The SLO's objectives, and the ActivityKit model they and the contract check need.
    private func validateObjectives() throws {
        if let p99 = slo.p99Millis { try Self.check(.sloP99, p99) }
        if let p99 = slo.p99TimeToDeviceMillis { try Self.check(.sloP99TimeToDevice, p99) }
        if let share = slo.minDelivered { try Self.checkShare(.sloMinDelivered, share) }
        for (name, share) in (slo.maxErrorShare ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard SLO.ErrorClass(rawValue: name) != nil else {
                throw RunConfigError(.sloMaxErrorShare, "has an unknown class '\(name)' "
                    + "(classes: \(SLO.ErrorClass.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            try Self.checkShare(.sloMaxErrorShare, share, naming: name)
        }
        for part in workload.parts where part.activityModel != nil && part.pushType != .liveactivity {
            throw RunConfigError(.activityModel, "applies to Live Activity pushes (the device decodes their content-state); \(name) "
                + "sends \(part.pushType.rawValue) pushes"
                + (workload.mix == nil ? "" : " (its part \(part.name))"))
        }
        if let share = slo.maxThrottledShare { try Self.checkShare(.sloMaxThrottledShare, share) }
        for (key, v) in [(ConfigKey.capacityPeak, slo.capacityPeakPerSecond), (.capacityMinHeadroom, slo.capacityMinHeadroom)] {
            guard let v, let r = RunSettings[key].range, !r.contains(v) else { continue }
            throw RunConfigError(key, "must be between \(Self.trim(r.lower)) and \(Self.trim(r.upper)), found \(Self.trim(v))")
        }
        if let share = slo.maxWouldNotDecode {
            try Self.checkShare(.sloMaxWouldNotDecode, share)
            guard workload.parts.contains(where: { $0.activityModel != nil }) else {
                throw RunConfigError(.sloMaxWouldNotDecode, "needs activity_model: the app's ActivityKit model the pushes are checked against")
            }
        }
    }

    /// The report interval, fail-fast, the Live Activity budget and the stall watchdog.
    private func validateLimits() throws {
        if let interval = reportIntervalSeconds { try Self.check(.reportInterval, interval) }
        if let f = transport.failFastSeconds, let r = RunSettings[.failFast].range, !r.contains(f) {
            throw RunConfigError(.failFast, "must be between \(Self.trim(r.lower)) and \(Self.trim(r.upper)) seconds, found \(Self.trim(f))")
        }
        if let b = liveActivityBudget { try Self.check(.liveActivityBudget, b, why: " priority-10 updates an hour (0 counts nothing)") }
        if let s = transport.stallTimeoutSeconds, s != 0 {
            try Self.check(.stallTimeout, s, why: " seconds (0 turns the watchdog off)")
            guard s * 1000 < transport.pushTimeoutMillis else {
                throw RunConfigError(.stallTimeout, "must be shorter than the push timeout (\(transport.pushTimeoutMillis) ms), found \(s) s: "
                    + "a push would time out before its connection counts as stalled")
            }
        }
    }

    /// What the target allows: production's safe rate, broadcast delivery, shards and the simulator's keys.
    private func validateTarget() throws {
        if target == .production, allowProductionLoad != true {
            // Real devices get these pushes: only a bounded, slow schedule without the explicit opt-in.
            let limit = Self.trim(Self.productionSafeRate)
            switch schedule.mode {
            case .fixedRate(let r) where r <= Self.productionSafeRate: break
            case .ramp(let a, let b, _) where Swift.max(a, b) <= Self.productionSafeRate: break
            default:
                throw RunConfigError(.allowProductionLoad, "is needed to send to production APNs faster than \(limit) pushes/s "
                    + "(the schedule is \(schedule.mode)); real devices receive these pushes: use --target sandbox, or --rate \(limit) or less, "
                    + "or say --allow-production-load")
            }
        }
        if deliveryMode == .broadcast {
            // Whether the recipe has a group to broadcast to is the recipe's to say (`Workloads.recipes(for:)`).
            guard workload.mix == nil else {
                throw RunConfigError(.delivery, "broadcast replays one recording whose recipe names a broadcast group; \(name) is a mix")
            }
            guard workload.pushType == .liveactivity else {
                throw RunConfigError(.delivery, "broadcast carries Live Activity updates only (apns-push-type liveactivity); \(name) "
                    + "sends \(workload.pushType.rawValue) pushes")
            }
        }
        if deliveryMode == .broadcast, (shard?.count ?? 1) > 1 {
            throw RunConfigError(.delivery, "broadcast is not sharded yet: every shard would create its own channels for the same stores")
        }
        if keepChannels == true, deliveryMode != .broadcast {
            throw RunConfigError(.keepChannels, "applies to broadcast delivery only (delivery: broadcast)")
        }
        if let s = shard {
            try Self.check(.shard, s.count, in: 1...Shard.countLimit, why: " shards")
            guard (0..<s.count).contains(s.index) else {
                throw RunConfigError(.shard, "index must be between 0 and \(s.count - 1) for \(s.count) shards, found \(s.index)")
            }
        }
        if simulator.fast, target != .simulator {
            throw RunConfigError(.fastSimulator, "applies to the embedded simulator only; the target is \(target)")
        }
        if let m = simulator.model {
            guard APNsLatencyModel.named(m) != nil || simulator.modelFileSettings != nil else {
                throw RunConfigError(.apnsModel, "must be one of \(APNsLatencyModel.names.joined(separator: ", ")) or a model file (apnsbench model fit), "
                    + "found '\(m)'")
            }
            guard target == .simulator else {
                throw RunConfigError(.apnsModel, "applies to the embedded simulator only; the target is \(target)")
            }
        }
        if simulator.settings != nil, target != .simulator {
            throw RunConfigError(.simulator, "(the APNs model and faults) applies to the embedded simulator only; the target is \(target): "
                + "remove the section, or run without --target")
        }
    }

    static func check(_ key: ConfigKey, _ value: Int, in range: ClosedRange<Int>, why: String = "") throws {
        guard range.contains(value) else {
            throw RunConfigError(key, "must be between \(range.lowerBound) and \(range.upperBound)\(why), found \(value)")
        }
    }

    /// `value` within the range of `key`'s row in ``RunSettings`` (at most `limit` when given): the one
    /// place a range is written is the table.
    static func check(_ key: ConfigKey, _ value: Int, upTo limit: Int? = nil, why: String = "") throws {
        guard let r = RunSettings[key].range else { preconditionFailure("\(key) has no range in RunSettings") }
        let lower = Int(r.lower), upper = min(Int(r.upper), limit ?? Int.max)
        guard (lower...upper).contains(value) else {
            throw RunConfigError(key, "must be between \(lower) and \(upper)\(why), found \(value)")
        }
    }

    /// A share within the range of `key`'s row (0 to 1); `naming` a class of several.
    static func checkShare(_ key: ConfigKey, _ share: Double, naming name: String? = nil) throws {
        guard let r = RunSettings[key].range else { preconditionFailure("\(key) has no range in RunSettings") }
        guard r.contains(share) else {
            throw RunConfigError(key, (name.map { "\($0) " } ?? "") + "must be a share between \(trim(r.lower)) and \(trim(r.upper)), found \(share)")
        }
    }

    static func trim(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
}
