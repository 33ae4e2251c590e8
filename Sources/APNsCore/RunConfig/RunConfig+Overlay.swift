import Foundation

/// Values given on the command line, each overriding the profile's. Nil leaves the profile's value.
public struct RunConfigOverrides: Equatable, Sendable {
    public var target: Target?
    public var connections: Int?
    public var streams: Int?
    public var workers: Int?
    public var priority: Priority?
    public var schedule: Schedule?
    public var durationSeconds: Double?
    public var loopRecording: Bool?
    /// Coalescing window in ms; 0 turns coalescing off.
    public var coalesceMillis: Int64?
    public var expirationSeconds: Int?
    public var collapseID: String?
    public var retryAttempts: Int?
    public var fastSimulator: Bool?
    public var sloP99Millis: Int?
    public var sloMinDelivered: Double?
    /// Laid over the profile's classes one by one.
    public var sloMaxErrorShare: [String: Double]?
    public var sloMaxWouldNotDecode: Double?
    public var reportIntervalSeconds: Int?
    public var failFastSeconds: Double?
    public var stallTimeoutSeconds: Int?
    public var liveActivityBudget: Int?
    public var apnsModel: String?
    public var allowProductionLoad: Bool?
    public var shard: RunConfig.Shard?
    public var delivery: RunConfig.Delivery?
    public var keepChannels: Bool?

    public init() {}

    /// The keys these overrides set: an error about one of them names the flag, not the profile key.
    public var keys: Set<ConfigKey> {
        var k: Set<ConfigKey> = []
        if connections != nil { k.insert(.connections) }
        if streams != nil { k.insert(.streams) }
        if workers != nil { k.insert(.workers) }
        if priority != nil { k.insert(.priority) }
        switch schedule {
        case .recorded?: k.insert(.speed)
        case .fixedRate?: k.insert(.rate)
        case .ramp?: k.insert(.ramp)
        case .closedLoop?: k.insert(.schedule)
        case nil: break
        }
        if durationSeconds != nil { k.insert(.duration) }
        if loopRecording != nil { k.insert(.loopRecording) }
        if coalesceMillis != nil { k.insert(.coalesce) }
        if expirationSeconds != nil { k.insert(.expiration) }
        if collapseID != nil { k.insert(.collapseID) }
        if retryAttempts != nil { k.insert(.retryAttempts) }
        if fastSimulator == true { k.insert(.fastSimulator) }
        if sloP99Millis != nil { k.insert(.sloP99) }
        if sloMinDelivered != nil { k.insert(.sloMinDelivered) }
        if sloMaxErrorShare != nil { k.insert(.sloMaxErrorShare) }
        if sloMaxWouldNotDecode != nil { k.insert(.sloMaxWouldNotDecode) }
        if reportIntervalSeconds != nil { k.insert(.reportInterval) }
        if failFastSeconds != nil { k.insert(.failFast) }
        if stallTimeoutSeconds != nil { k.insert(.stallTimeout) }
        if liveActivityBudget != nil { k.insert(.liveActivityBudget) }
        if apnsModel != nil { k.insert(.apnsModel) }
        if shard != nil { k.insert(.shard) }
        if delivery != nil { k.insert(.delivery) }
        if keepChannels != nil { k.insert(.keepChannels) }
        if allowProductionLoad != nil || target == .production { k.insert(.allowProductionLoad) }
        return k
    }
}

extension RunConfig {
    /// This configuration with the command line's values laid over it (not yet validated).
    public func overlaying(_ o: RunConfigOverrides) -> RunConfig {
        var c = self
        if let v = o.target { c.target = v }
        if let v = o.connections { c.transport.connections = v }
        if let v = o.streams { c.transport.streams = v }
        if let v = o.workers { c.transport.workers = v }
        if let v = o.priority { c.payload.priority = v }
        if let v = o.schedule { c.schedule.mode = v }
        if let v = o.durationSeconds { c.schedule.durationSeconds = v }
        if let v = o.loopRecording { c.schedule.loopRecording = v ? true : nil }
        if let v = o.coalesceMillis { c.coalescing.windowMillis = v > 0 ? v : nil }
        if let v = o.expirationSeconds { c.payload.expirationSeconds = v }
        if let v = o.collapseID { c.payload.collapseID = v }
        if let v = o.retryAttempts { c.retry.attempts = v }
        if let v = o.fastSimulator { c.simulator.fast = v }
        if let v = o.sloP99Millis { c.slo.p99Millis = v }
        if let v = o.sloMinDelivered { c.slo.minDelivered = v }
        if let v = o.sloMaxErrorShare { c.slo.maxErrorShare = (c.slo.maxErrorShare ?? [:]).merging(v) { _, flag in flag } }
        if let v = o.sloMaxWouldNotDecode { c.slo.maxWouldNotDecode = v }
        if let v = o.reportIntervalSeconds { c.reportIntervalSeconds = v }
        if let v = o.failFastSeconds { c.transport.failFastSeconds = v }
        if let v = o.stallTimeoutSeconds { c.transport.stallTimeoutSeconds = v }
        if let v = o.liveActivityBudget { c.liveActivityBudget = v }
        if let v = o.apnsModel { c.simulator.model = v }
        if let v = o.allowProductionLoad { c.allowProductionLoad = v }
        if let v = o.shard { c.shard = v }
        if let v = o.delivery { c.delivery = v }
        if let v = o.keepChannels { c.keepChannels = v }
        return c
    }

    /// Validates, naming the flag for a value the overrides gave and the profile key (with the profile's
    /// path) otherwise.
    public func validate(setBy overrides: RunConfigOverrides,
                         cores: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        do { try validate(cores: cores) } catch let e as RunConfigError {
            if overrides.keys.contains(e.key) { throw RunConfigFlagError(e) }
            throw RunConfigProfileError(profile: profilePath, error: e)
        }
    }
}

/// A value from the command line that is out of range: `--connections must be between 1 and 64, found 65`.
public struct RunConfigFlagError: Error, CustomStringConvertible, Sendable {
    public let error: RunConfigError
    public init(_ error: RunConfigError) { self.error = error }
    public var description: String { error.flagDescription }
}

/// A value from the profile that is out of range: `profiles/x.yaml: 'connections' must be …`.
public struct RunConfigProfileError: Error, CustomStringConvertible, Sendable {
    public let profile: String
    public let error: RunConfigError
    public var description: String { "\(profile): \(error)" }
}
