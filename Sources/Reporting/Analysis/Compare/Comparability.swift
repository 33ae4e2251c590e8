import APNsCore
import Foundation

/// One way two runs differ that makes their numbers incomparable (or, for the environment under
/// `--allow-env-mismatch`, worth a warning).
public struct Difference: Codable, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Codable, Sendable {
        /// `report.json`'s schemaVersion.
        case schema
        /// `configuration.workload.name`.
        case workload
        /// `events.streamSHA256`: a different recording.
        case stream
        /// Any other key of the run configuration.
        case configuration
        /// libcurl, nghttp2, cores.
        case environment
    }

    public var kind: Kind
    /// The field's path in report.json, e.g. `configuration.transport.streams`.
    public var field: String
    public var baseline: String
    public var new: String
    /// Which two reports differ: `baseline vs new`, or two repeats of one side.
    public var between: String

    public init(kind: Kind, field: String, baseline: String, new: String, between: String) {
        self.kind = kind
        self.field = field
        self.baseline = baseline
        self.new = new
        self.between = between
    }

    public var description: String { "\(field): \(baseline) vs \(new) (\(between))" }
}

/// Which runs may be compared. Two runs are comparable when they replayed the same recording with the
/// same configuration on the same kind of machine:
/// - the same report schema version (a schema-1 report against a schema-2 one is refused);
/// - the same workload and, when both reports have it, the same stream SHA-256;
/// - the same run configuration, key by key, except keys that do not change what is sent or how:
///   the profile's name, description and file path, the paths of the stream, template, dead-token and
///   ActivityKit model files (the stream's content is checked by its hash, the model's by the SHA-256 the
///   configuration holds beside its path), the SLO (it judges a run, it does not change
///   it), the timeline interval, and the target URL's port (a simulator on a free port has a new one
///   each time);
/// - the same environment: libcurl and nghttp2 versions and core count (warnings instead under
///   `--allow-env-mismatch`).
///
/// The embedded simulator's latency and fault model (a profile's `simulator:` section) is part of the run
/// configuration, `simulator.settings`, so it is compared key by key like the rest; a model given to a
/// standalone `apnsbench simulate --config` is not visible to the run, and not told apart here.
public enum Comparability {
    /// Configuration keys (and key prefixes, ending in `.`) that are not compared.
    public static let ignoredConfigurationKeys = [
        "name", "description", "profilePath", "workload.stream", "workload.recipe", "workload.deadTokens",
        "workload.mix.stream", "workload.mix.recipe", "slo.", "reportIntervalSeconds",
        "workload.activityModel.path", "workload.mix.activityModel.path",
    ]

    /// Every difference between `baseline` and `new`, environment ones included, in a fixed order.
    public static func differences(_ baseline: LoadedReport, _ new: LoadedReport, between: String) -> [Difference] {
        var out: [Difference] = []
        func add(_ kind: Difference.Kind, _ field: String, _ a: String, _ b: String) {
            if a != b { out.append(Difference(kind: kind, field: field, baseline: a, new: b, between: between)) }
        }
        add(.schema, "schemaVersion", String(baseline.schemaVersion), String(new.schemaVersion))
        let a = baseline.report, b = new.report
        // A mix's parts by name are its workload (`mix(leave-requests+order-changes)`).
        add(.workload, "configuration.workload.name", a.configuration.workload.label, b.configuration.workload.label)
        if let x = a.events.streamSHA256, let y = b.events.streamSHA256 {
            add(.stream, "events.streamSHA256", x, y)
        }
        var ca = flattened(a.configuration), cb = flattened(b.configuration)
        // A report without the simulator's configuration by value cannot show it is the same simulator: one
        // difference says so, instead of one per key.
        let effective = "simulator.effective"
        if (a.configuration.simulator.effective == nil) != (b.configuration.simulator.effective == nil) {
            func said(_ r: RunReport) -> String { r.configuration.simulator.effective == nil ? notRecorded : "recorded by value" }
            add(.configuration, "configuration." + effective, said(a), said(b))
            ca = ca.filter { !$0.key.hasPrefix(effective + ".") }
            cb = cb.filter { !$0.key.hasPrefix(effective + ".") }
        }
        // Another workload differs in its streams, apps and push types too: named once, as the workload.
        let sameWorkload = a.configuration.workload.label == b.configuration.workload.label
        for key in Set(ca.keys).union(cb.keys).sorted() where !isIgnored(key) && (sameWorkload || !key.hasPrefix("workload.")) {
            add(.configuration, "configuration." + key, ca[key] ?? "(absent)", cb[key] ?? "(absent)")
        }
        add(.environment, "environment.libcurl", a.environment.libcurl, b.environment.libcurl)
        add(.environment, "environment.nghttp2", a.environment.nghttp2, b.environment.nghttp2)
        add(.environment, "environment.cpuCount", String(a.environment.cpuCount), String(b.environment.cpuCount))
        return out
    }

    /// How a report without `configuration.simulator.effective` is named in a refusal.
    public static let notRecorded = "not recorded (a report written before reports carried it, or a run against a simulator in another process)"

    /// The warning when no report compared records the simulator's configuration by value: the simulators
    /// could not be told apart, and were not. Nil when one does (then each must, or the pair is refused).
    static func simulatorNotRecorded(_ reports: [LoadedReport]) -> String? {
        guard reports.allSatisfy({ $0.report.configuration.simulator.effective == nil }) else { return nil }
        return "no report records the simulator's configuration by value (configuration.simulator.effective): "
            + "whether both sides ran against the same simulator was not checked"
    }

    static func withoutPlaces(_ key: String) -> String {
        key.replacingOccurrences(of: #"\[\d+\]"#, with: "", options: .regularExpression)
    }

    /// Whether `key` is not compared; a list's place is left out (`workload.mix[1].stream` is `workload.mix.stream`).
    static func isIgnored(_ key: String) -> Bool {
        let key = withoutPlaces(key)
        return ignoredConfigurationKeys.contains { $0.hasSuffix(".") ? key.hasPrefix($0) : key == $0 }
    }

    /// The configuration as `key.path: value` pairs, as report.json spells them (the target without its port).
    static func flattened(_ configuration: RunConfig) -> [String: String] {
        var out: [String: String] = [:]
        for leaf in ConfigValue.leaves(of: configuration, emptyContainers: false) { out[leaf.path] = leaf.value ?? "null" }
        if let target = out["target"] { out["target"] = withoutPort(target) }
        return out
    }

    /// `http://127.0.0.1:53211` → `http://127.0.0.1`; words (`simulator`) unchanged.
    static func withoutPort(_ target: String) -> String {
        guard var parts = URLComponents(string: target), parts.port != nil else { return target }
        parts.port = nil
        return parts.string ?? target
    }
}
