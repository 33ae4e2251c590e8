import APNsCore
import ArgumentParser
import Foundation


/// The run settings `run` and `sweep` share: where pushes go, with which key, and every knob of how they
/// are sent and judged. Names, help and value names come from ``RunSettings``, so both commands spell and
/// explain each one the same way; a value's text is read by its kind's reader (``SettingText``), as the
/// profile's is, and ranges are the configuration's rules, checked once after the profile.
public struct RunSettingOptions: ParsableArguments {
    public init() {}

    @Option(name: .setting(.target), help: .setting(.target, listed: true))
    var target: Target = .simulator

    @Option(name: .long, help: ArgumentHelp(
        "Trust exactly this CA certificate (PEM) for the target instead of the system's: a standalone `apnsbench simulate` (it prints its CA's path) "
            + "or a company proxy. Verification stays on. Only with --target sandbox, production or a URL. Default: APNS_CA_CERT if set.",
        valueName: "PATH"))
    var caCert: String?

    @OptionGroup(title: "Provider key")
    public var credentials: CredentialOptions

    @Option(name: .setting(.connections), help: .setting(.connections))
    var connections: Int?

    @Option(name: .setting(.streams), help: .setting(.streams))
    var streams: Int?

    @Option(name: .setting(.workers), help: .setting(.workers))
    var workers: Int?

    @Option(name: .setting(.priority), help: .setting(.priority))
    var priority: String?

    @Option(name: .setting(.priorityOverride), help: .setting(.priorityOverride))
    var priorityOverride: String?

    @Option(name: .setting(.coalesce), help: .setting(.coalesce))
    var coalesce: String?

    @Option(name: .setting(.expiration), help: .setting(.expiration))
    var expiration: Int?

    @Option(name: .setting(.collapseID), help: .setting(.collapseID))
    var collapseId: String?

    @Option(name: .setting(.retryAttempts), help: .setting(.retryAttempts))
    var retryAttempts: Int?

    @Flag(name: .setting(.fastSimulator), help: .setting(.fastSimulator))
    var fastSimulator = false

    @Option(name: .setting(.sloP99), help: .setting(.sloP99))
    var sloP99Ms: Int?

    @Option(name: .setting(.sloMinDelivered), help: .setting(.sloMinDelivered))
    var sloMinDelivered: Double?

    @Option(name: .setting(.sloMaxErrorShare), help: .setting(.sloMaxErrorShare))
    var sloMaxErrorShare: [String] = []

    @Option(name: .setting(.sloMaxWouldNotDecode), help: .setting(.sloMaxWouldNotDecode))
    var sloMaxWouldNotDecode: Double?

    @Option(name: .setting(.sloP99TimeToDevice), help: .setting(.sloP99TimeToDevice))
    var sloP99TimeToDeviceMs: Int?

    @Option(name: .setting(.sloMaxThrottledShare), help: .setting(.sloMaxThrottledShare))
    var sloMaxThrottledShare: Double?

    @Option(name: .setting(.reportInterval), help: .setting(.reportInterval))
    var reportInterval: String?

    @Option(name: .setting(.failFast), help: .setting(.failFast))
    var failFast: String?

    @Option(name: .setting(.stallTimeout), help: .setting(.stallTimeout))
    var stallTimeout: String?

    @Option(name: .setting(.liveActivityBudget), help: .setting(.liveActivityBudget))
    var liveActivityBudget: Int?

    @Option(name: .setting(.apnsModel), help: .setting(.apnsModel))
    var apnsModel: APNsLatencyModelName?

    @Flag(name: .setting(.allowProductionLoad), help: .setting(.allowProductionLoad))
    var allowProductionLoad = false

    @Option(name: .setting(.delivery), help: .setting(.delivery, listed: true))
    var delivery: RunConfig.Delivery?

    @Flag(name: .setting(.keepChannels), help: .setting(.keepChannels))
    var keepChannels = false

    /// --ca-cert, or APNS_CA_CERT.
    public var caCertificatePath: String? { caCert ?? ProcessInfo.processInfo.environment["APNS_CA_CERT"].flatMap { $0.isEmpty ? nil : $0 } }

    /// Checks only what the command line alone decides (values parse); every range is the configuration's
    /// own rule, checked once after the profile is read.
    public func validate() throws {
        _ = try overrides()
        if let ca = caCertificatePath, target == .simulator {
            throw ValidationError("--ca-cert \(ca)\(caCert == nil ? " (from APNS_CA_CERT)" : "") goes with --target sandbox, production or a URL; "
                + "the embedded simulator's CA is trusted already")
        }
    }

    /// `--slo-max-error-share rejected=0.01 ...` as classes and shares (the classes are the configuration's to check).
    func errorShares() throws -> [String: Double]? {
        guard !sloMaxErrorShare.isEmpty else { return nil }
        var shares: [String: Double] = [:]
        for item in sloMaxErrorShare {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let share = Double(parts[1]) else {
                throw ValidationError("--slo-max-error-share '\(item)' must be CLASS=SHARE, like rejected=0.01")
            }
            shares[parts[0]] = share
        }
        return shares
    }

    /// `text` as `read` reads it, nil when the flag is not given; a value it refuses is a usage error naming the flag.
    func flag<T>(_ text: String?, _ read: (String) throws -> T) throws -> T? {
        guard let text else { return nil }
        do { return try read(text) } catch let e as RunConfigError { throw ValidationError(e.flagDescription) }
    }

    /// The values given, to lay over the profile.
    public func overrides() throws -> RunConfigOverrides {
        var o = RunConfigOverrides()
        o.target = target
        o.connections = connections
        o.streams = streams
        o.workers = workers
        o.priority = try flag(priority) { try SettingText.priority(.priority, $0) }
        o.priorityOverride = try flag(priorityOverride) { try SettingText.priorityOverride(.priorityOverride, $0) }
        o.coalesceMillis = try flag(coalesce) { try SettingText.window(.coalesce, $0) }
        o.expirationSeconds = expiration
        o.collapseID = collapseId
        o.retryAttempts = retryAttempts
        o.fastSimulator = fastSimulator ? true : nil
        o.sloP99Millis = sloP99Ms
        o.sloMinDelivered = sloMinDelivered
        o.sloMaxErrorShare = try errorShares()
        o.sloMaxWouldNotDecode = sloMaxWouldNotDecode
        o.sloP99TimeToDeviceMillis = sloP99TimeToDeviceMs
        o.sloMaxThrottledShare = sloMaxThrottledShare
        o.reportIntervalSeconds = try flag(reportInterval) { Int(try SettingText.duration(.reportInterval, $0, wholeSeconds: true) / 1000) }
        o.failFastSeconds = try flag(failFast) { Double(try SettingText.duration(.failFast, $0)) / 1000 }
        o.stallTimeoutSeconds = try flag(stallTimeout) { Int(try SettingText.duration(.stallTimeout, $0, zeroTurnsOff: true, wholeSeconds: true) / 1000) }
        o.liveActivityBudget = liveActivityBudget
        o.apnsModel = apnsModel?.value
        o.allowProductionLoad = allowProductionLoad ? true : nil
        o.delivery = delivery
        o.keepChannels = keepChannels ? true : nil
        return o
    }
}
