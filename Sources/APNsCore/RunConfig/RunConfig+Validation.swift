import Foundation

/// One knob of ``RunConfig``, named as a profile spells it; an error carries it, and the reader the value came from
/// names it as the user wrote it (the profile's key, or the command line's flag).
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
    case pushTimeout = "push_timeout"
    case tokenRefresh = "token_refresh"
    case priority
    case priorityOverride = "priority_override"
    case expiration = "expiration"
    case collapseID = "collapse_id"
    case retryAttempts = "retry_attempts"
    case retryBackoff = "retry_backoff"
    case retryMaxElapsed = "retry_max_elapsed"
    case coalesce
    case schedule, speed, rate, ramp
    case duration
    case loopRecording = "loop_recording"
    case sloP99 = "slo_p99"
    case sloMinDelivered = "slo_min_delivered"
    case sloMaxErrorShare = "slo_max_error_share"
    case sloMaxWouldNotDecode = "slo_max_would_not_decode"
    case sloP99TimeToDevice = "slo_p99_time_to_device"
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

    /// As a profile reader sees it: `'connections' must be between 1 and 64, found 65`. The command line names its
    /// flag instead (`RunOptions`' `RunSettingFlags`).
    public var description: String { "'\(key.profileKey)' \(problem)" }
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
        try RunConfig.check(.pushTimeout, pushTimeout)
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
        if let e = expiration {
            try RunConfig.checkWholeSeconds(.expiration, e, off: " (0: deliver now or never)")
            try RunConfig.check(.expiration, e)
        }
        if let id = collapseID { try Self.validate(collapseID: id) }
    }
}

extension RunConfig.Retry {
    public func validate() throws {
        try RunConfig.check(.retryAttempts, attempts)
        guard backoff >= .zero else { throw RunConfigError(.retryBackoff, "must not be negative, found \(backoff.millis) ms") }
        guard maxElapsed >= .zero else { throw RunConfigError(.retryMaxElapsed, "must not be negative, found \(maxElapsed.millis) ms") }
        guard multiplier >= 1, maxBackoff >= .zero, tokenBackoff >= .zero else {
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
        try Self.check(.tokenRefresh, auth.tokenRefresh)
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
        if let d = schedule.duration, d <= .zero {
            throw RunConfigError(.duration, "must be a positive number of seconds, found \(Self.trim(d.secondsValue))")
        }
        if schedule.loopRecording == true {
            guard schedule.duration != nil else {
                throw RunConfigError(.loopRecording, "needs a duration (--duration): a looped recording never runs out")
            }
            guard deliveryMode != .broadcast else {
                throw RunConfigError(.loopRecording, "does not apply to broadcast delivery: its channels are made for one pass")
            }
        }
        if let window = coalescing.window {
            guard window > .zero else { throw RunConfigError(.coalesce, "must be a positive duration, found \(window.millis) ms") }
            for part in workload.parts where part.pushType != .liveactivity {
                throw RunConfigError(.coalesce, "applies to Live Activity updates; \(name) sends \(part.pushType.rawValue) pushes"
                    + (workload.mix == nil ? "" : " (its part \(part.name))"))
            }
        }
    }

    /// The SLO's objectives, and the ActivityKit model they and the contract check need.
    private func validateObjectives() throws {
        if let p99 = slo.p99 { try Self.check(.sloP99, p99) }
        if let p99 = slo.p99TimeToDevice { try Self.check(.sloP99TimeToDevice, p99) }
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
        if let interval = reportInterval {
            try Self.checkWholeSeconds(.reportInterval, interval, off: "")
            try Self.check(.reportInterval, Int(clamping: interval.millis / 1000))
        }
        if let f = transport.failFast?.secondsValue, let r = RunSettings[.failFast].range, !r.contains(f) {
            throw RunConfigError(.failFast, "must be between \(Self.trim(r.lower)) and \(Self.trim(r.upper)) seconds, found \(Self.trim(f))")
        }
        if let b = liveActivityBudget { try Self.check(.liveActivityBudget, b, why: " priority-10 updates an hour (0 counts nothing)") }
        if let stall = transport.stallTimeout, stall != .zero {
            try Self.checkWholeSeconds(.stallTimeout, stall, off: " (0 turns it off)")
            let s = Int(clamping: stall.millis / 1000)
            try Self.check(.stallTimeout, s, why: " seconds (0 turns the watchdog off)")
            guard stall < transport.pushTimeout else {
                throw RunConfigError(.stallTimeout, "must be shorter than the push timeout (\(transport.pushTimeout.millis) ms), found \(s) s: "
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

extension RunConfig {
    /// A duration kept in whole seconds (the report's interval, the stall watchdog) must be one; the flag's and the
    /// profile key's reader refuse others with the same words.
    static func checkWholeSeconds(_ key: ConfigKey, _ d: Duration, off: String) throws {
        guard d.millis % 1000 == 0 else {
            throw RunConfigError(key, "must be whole seconds, like 10s or 1m\(off), found '\(DurationText.text(d))'")
        }
    }

    /// A duration within the range of `key`'s row, whose ends are durations (``SettingRange/durations``).
    static func check(_ key: ConfigKey, _ d: Duration) throws {
        guard let r = RunSettings[key].range else { preconditionFailure("\(key) has no range in RunSettings") }
        guard r.contains(d.secondsValue) else { throw RunConfigError(key, "must be \(r.bounds), found \(DurationText.text(d))") }
    }
}
