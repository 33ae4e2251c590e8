import APNsCore

extension SimulatorKeys {
    /// A configuration by value, as reports carry it (`configuration.simulator.effective`) and `compare` tells
    /// two simulators apart by: every key of the table that holds a value, with its value (`none` when unset;
    /// the device model's keys at its defaults when it is off), and what the keys that read files or build
    /// lists made of them: the devices files' SHA-256, the generated tokens' parameters, the topics by team,
    /// the broadcast apps, whether the device model is on, and the seeds.
    public static func effectiveValues(of configuration: SimulatorConfiguration) -> [String: String] {
        var out: [String: String] = [:]
        for key in all {
            guard let write = key.write else { continue }
            out[key.reportPath] = write(configuration).map(text) ?? "none"
        }
        let registry = configuration.deviceRegistry
        out["devices.file"] = registry.fileSHA256s.isEmpty ? "none" : registry.fileSHA256s.map { "sha256:" + $0 }.joined(separator: ", ")
        out["devices.generate"] = registry.generated.isEmpty ? "none" : registry.generated.joined(separator: "; ")
        out["devices.unknown_token_reason"] = registry.unknownTokenReason?.rawValue ?? "none"
        out["devices.rate_limit"] = registry.rateLimit.map { "\($0.pushes) per \(number($0.windowSeconds)) s" } ?? "none"
        out["topics"] = configuration.topicsByTeam.isEmpty ? "any topic"
            : configuration.topicsByTeam.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.sorted().joined(separator: ","))" }.joined(separator: "; ")
        out["broadcast.enabled_bundle_ids"] = configuration.broadcast.enabledBundleIDs.map { $0.sorted().joined(separator: ",") } ?? "all"
        out["device"] = configuration.device == nil ? "off" : "on"
        return out
    }

    /// A value as one line: a number as the docs write it, a text as it is, anything else as JSON.
    private static func text(_ value: ConfigValue) -> String {
        switch value {
        case let .string(s): return s
        case let .double(d): return number(d)
        default: return value.json
        }
    }
}
