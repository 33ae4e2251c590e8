import Foundation

/// Values given on the command line, each overriding the profile's. Nil leaves the profile's value.
public struct RunConfigOverrides: Equatable, Sendable {
    public var target: Target?
    public var connections: Int?
    public var streams: Int?
    public var workers: Int?
    public var priority: Priority?
    public var priorityOverride: PriorityOverride?
    public var schedule: Schedule?
    public var duration: Duration?
    public var loopRecording: Bool?
    /// Coalescing window; zero turns coalescing off.
    public var coalesce: Duration?
    public var expiration: Duration?
    public var collapseID: String?
    public var retryAttempts: Int?
    public var fastSimulator: Bool?
    public var sloP99: Duration?
    public var sloMinDelivered: Double?
    /// Laid over the profile's classes one by one.
    public var sloMaxErrorShare: [String: Double]?
    public var sloMaxWouldNotDecode: Double?
    public var sloP99TimeToDevice: Duration?
    public var sloMaxThrottledShare: Double?
    public var reportInterval: Duration?
    public var failFast: Duration?
    public var stallTimeout: Duration?
    public var liveActivityBudget: Int?
    public var apnsModel: String?
    public var allowProductionLoad: Bool?
    public var shard: RunConfig.Shard?
    public var delivery: RunConfig.Delivery?
    public var keepChannels: Bool?

    public init() {}

    /// The keys these overrides set: an error about one of them names the flag, not the profile key.
    public var keys: Set<ConfigKey> {
        var scratch = RunConfig(name: "", profilePath: "", workload: .init(name: "", stream: "", recipe: "", bundleID: ""))
        return Set(RunSettings.all.filter { $0.overlay?(&scratch, self) == true }.map(\.key))
    }
}

extension RunConfig {
    /// This configuration with the command line's values laid over it (not yet validated), each as its
    /// setting in ``RunSettings`` lays it.
    public func overlaying(_ o: RunConfigOverrides) -> RunConfig {
        var c = self
        for setting in RunSettings.all { _ = setting.overlay?(&c, o) }
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

/// A value from the command line that is out of range, by its setting's key. The command line names the flag it was
/// given by (`RunOptions`' `RunSettingFlags.message`: `--connections must be between 1 and 64, found 65`); the
/// description, for a caller without the command line, names the key as ``RunConfigError`` does.
public struct RunConfigFlagError: Error, CustomStringConvertible, Equatable, Sendable {
    public let error: RunConfigError
    public init(_ error: RunConfigError) { self.error = error }
    public var description: String { error.description }
}

/// A value from the profile that is out of range: `profiles/x.yaml: 'connections' must be …`.
public struct RunConfigProfileError: Error, CustomStringConvertible, Sendable {
    public let profile: String
    public let error: RunConfigError
    public var description: String { "\(profile): \(error)" }
}
