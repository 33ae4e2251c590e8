import APNsCore
import ArgumentParser
import Foundation


/// The run settings `run` and `sweep` share: where pushes go, with which key, and every knob of how they
/// are sent and judged. Names come from ``RunSettingFlags``, help from ``RunSettingHelp`` and value names from
/// ``RunSettings``, so both commands spell and explain each one the same way; a value's text is read by its kind's reader (``SettingText``), as the
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
    var coalesce: Duration?

    @Option(name: .setting(.expiration), help: .setting(.expiration))
    var expiration: Duration?

    @Option(name: .setting(.collapseID), help: .setting(.collapseID))
    var collapseId: String?

    @Option(name: .setting(.retryAttempts), help: .setting(.retryAttempts))
    var retryAttempts: Int?

    @Flag(name: .setting(.fastSimulator), help: .setting(.fastSimulator))
    var fastSimulator = false

    @Option(name: .setting(.sloP99), help: .setting(.sloP99))
    var sloP99: Duration?

    /// The flag's former name, a number of ms; still read, with a notice (``deprecations``).
    @Option(name: .customLong("slo-p99-ms"), help: .hidden)
    var sloP99Ms: Int?

    @Option(name: .setting(.sloMinDelivered), help: .setting(.sloMinDelivered))
    var sloMinDelivered: Double?

    @Option(name: .setting(.sloMaxErrorShare), help: .setting(.sloMaxErrorShare))
    var sloMaxErrorShare: [String] = []

    @Option(name: .setting(.sloMaxWouldNotDecode), help: .setting(.sloMaxWouldNotDecode))
    var sloMaxWouldNotDecode: Double?

    @Option(name: .setting(.sloP99TimeToDevice), help: .setting(.sloP99TimeToDevice))
    var sloP99TimeToDevice: Duration?

    /// The flag's former name, a number of ms; still read, with a notice (``deprecations``).
    @Option(name: .customLong("slo-p99-time-to-device-ms"), help: .hidden)
    var sloP99TimeToDeviceMs: Int?

    @Option(name: .setting(.sloMaxThrottledShare), help: .setting(.sloMaxThrottledShare))
    var sloMaxThrottledShare: Double?

    @Option(name: .setting(.reportInterval), help: .setting(.reportInterval))
    var reportInterval: Duration?

    @Option(name: .setting(.failFast), help: .setting(.failFast))
    var failFast: Duration?

    @Option(name: .setting(.stallTimeout), help: .setting(.stallTimeout))
    var stallTimeout: Duration?

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
        if sloP99 != nil, sloP99Ms != nil { throw ValidationError("choose one of --slo-p99 and its former name --slo-p99-ms") }
        if sloP99TimeToDevice != nil, sloP99TimeToDeviceMs != nil {
            throw ValidationError("choose one of --slo-p99-time-to-device and its former name --slo-p99-time-to-device-ms")
        }
        if let ca = caCertificatePath, target == .simulator {
            throw ValidationError("--ca-cert \(ca)\(caCert == nil ? " (from APNS_CA_CERT)" : "") goes with --target sandbox, production or a URL; "
                + "the embedded simulator's CA is trusted already")
        }
    }

    /// One line for each flag given by its former name, which named its unit: `--slo-p99-ms is deprecated: write --slo-p99 250ms`.
    public var deprecations: [String] {
        [(ConfigKey.sloP99, sloP99Ms), (.sloP99TimeToDevice, sloP99TimeToDeviceMs)].compactMap { key, ms in
            guard let ms, let flag = RunSettingFlags[key], let former = RunSettings[key].formerKey else { return nil }
            return "--\(former.name.replacingOccurrences(of: "_", with: "-")) is deprecated: write \(flag) \(DurationText.text(.milliseconds(ms)))"
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
        do { return try read(text) } catch let e as RunConfigError { throw ValidationError(RunSettingFlags.message(e)) }
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
        o.coalesce = coalesce
        o.expiration = expiration
        o.collapseID = collapseId
        o.retryAttempts = retryAttempts
        o.fastSimulator = fastSimulator ? true : nil
        o.sloP99 = sloP99 ?? sloP99Ms.map { .milliseconds($0) }
        o.sloMinDelivered = sloMinDelivered
        o.sloMaxErrorShare = try errorShares()
        o.sloMaxWouldNotDecode = sloMaxWouldNotDecode
        o.sloP99TimeToDevice = sloP99TimeToDevice ?? sloP99TimeToDeviceMs.map { .milliseconds($0) }
        o.sloMaxThrottledShare = sloMaxThrottledShare
        o.reportInterval = reportInterval
        o.failFast = failFast
        o.stallTimeout = stallTimeout
        o.liveActivityBudget = liveActivityBudget
        o.apnsModel = apnsModel?.value
        o.allowProductionLoad = allowProductionLoad ? true : nil
        o.delivery = delivery
        o.keepChannels = keepChannels ? true : nil
        return o
    }
}
