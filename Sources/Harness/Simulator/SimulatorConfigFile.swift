import APNsCore
import APNsSimulator
import Foundation
import YAMLReading
import Yams

/// Reads a simulator configuration file (`apnsbench simulate --config sim.yaml`) into a
/// `SimulatorConfiguration`, strictly, as `ProfileLoader` reads profiles: an unknown key or a value of
/// the wrong type or range is an error naming the file, the line and the key path, so a typo never falls
/// back to a default silently. The file is YAML (JSON is YAML too). Keys, all optional:
///
/// ```yaml
/// environment: sandbox                 # or production (sandbox adds apns-unique-id to 200s)
/// threads: 1
/// fast: false
/// seed: 0
/// initial_max_concurrent_streams: 1
/// max_concurrent_streams: 1000
/// hard_max_concurrent_streams: 2000     # past it: GOAWAY PROTOCOL_ERROR
/// drop_stream_limit_after_rejection: false
/// provider_token_lifetime_seconds: 3600
/// provider_token_min_rotation_seconds: 1200
/// token_update_penalty_seconds: 1200
/// topics: { TEAM000001: [com.example.app] }
/// devices:
///   file: tokens.txt                   # '<token> <bundle-id> [Unregistered|ExpiredToken [ms]]' a line
///   generate: { bundle_id: com.example.app, count: 1000, seed: 1, hex_length: 64 }
///   unknown_token_reason: BadDeviceToken
///   dead_fraction: 0.05
///   dead_reason: Unregistered
///   seed: 0
///   rate_limit: { pushes: 50, window_seconds: 60 }
/// live_activity: { missing_keys: reject, priority10_budget: 10, budget_window_seconds: 3600 }
/// broadcast: { channel_limit: 10000, enabled_bundle_ids: [com.example.app] }   # channels per app; apps with the capability (default all)
/// device: { wake_interval_seconds: 600, offline_share: 0.1, throttle: drop }   # the device model (docs/simulator.md); {} for its defaults
/// faults:
///   latency: { fixed_ms: 5 }            # or { uniform_ms: [1, 10] } or { lognormal_ms: { p50: 40, p99: 200 } }
///   round_trip_ms: 20                  # added to every answer: the network's share
///   capacity: { per_connection_per_second: 2000, overload_after_ms: 500, overload_503_fraction: 0.2 }
///   internal_server_error_fraction: 0.01
///   service_unavailable_fraction: 0.01
///   too_many_requests_fraction: 0.001
///   shutdown_fraction: 0
///   connection_reset_fraction: 0
///   stall_fraction: 0                  # the connection goes silent: reads and answers nothing more
///   latency_spike: { fraction: 0.01, ms: 2000 }   # this share of answers waits ms more
///   clock_step: { after_seconds: 60, by_seconds: 3700 }  # the wall clock jumps (provider tokens age at once)
///   goaway_after_streams: 100000
///   goaway_after_seconds: 600
///   idle_timeout_seconds: 3600
///   settings_delay_ms: 0
/// ```
///
/// A scalar has the type YAML gives it (`Yams.load`'s): `count: "10"` is a string, not a number.
public enum SimulatorConfigFile {
    /// Every top-level key.
    public static let knownKeys = [
        "environment", "threads", "fast", "seed", "initial_max_concurrent_streams", "max_concurrent_streams",
        "hard_max_concurrent_streams", "drop_stream_limit_after_rejection", "provider_token_lifetime_seconds",
        "provider_token_min_rotation_seconds", "token_update_penalty_seconds", "topics", "devices", "live_activity", "faults", "broadcast",
        "device",
    ]

    /// Reads the file at `path` and applies it to `configuration`.
    public static func load(path: String, into configuration: inout SimulatorConfiguration) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SimulatorConfigError(file: path, line: nil, key: "(file)", message: "cannot be read (no such file, or not readable)")
        }
        try apply(yaml: String(decoding: data, as: UTF8.self), file: path, to: &configuration)
    }

    /// Applies `yaml` to `configuration` (left unchanged when an error is thrown). `file` names the file in
    /// errors and anchors relative paths (`devices.file`). An empty document changes nothing.
    public static func apply(yaml: String, file: String, to configuration: inout SimulatorConfiguration) throws {
        guard let root = try reader(file).document(yaml, syntaxPath: "(file)")?.node else { return }
        try apply(node: root, file: file, keyPath: "", to: &configuration)
    }

    /// Applies a run profile's `simulator:` section (kept in `RunConfig.simulator.settings`) to
    /// `configuration`, as if it were a configuration file; errors name `profile` and the key path
    /// `simulator.…`. A profile's section is checked where it is loaded (``check(profile:)``), with lines.
    public static func apply(settings: ConfigValue, profile: String, to configuration: inout SimulatorConfiguration) throws {
        let root: Node?
        do { root = try Yams.compose(yaml: settings.json) } catch {
            throw SimulatorConfigError(file: profile, line: nil, key: "simulator", message: "cannot be read back: \(error)")
        }
        guard let root else { return }
        try apply(node: root, file: profile, keyPath: "simulator", to: &configuration)
    }

    /// Checks a run's simulator settings before it starts: the profile's `simulator:` section with its
    /// lines (``check(profile:)``), then the APNs model with the section laid over it.
    public static func check(run config: RunConfig) throws {
        if config.simulator.settings != nil { try check(profile: config.profilePath) }
        if config.simulator.model != nil, let settings = config.simulator.effectiveSettings {
            var scratch = SimulatorConfiguration()
            try apply(settings: settings, profile: config.profilePath, to: &scratch)
        }
    }

    /// Checks the `simulator:` section of the profile at `profile` against the simulator's rules, so that a
    /// wrong key or value fails before the run, naming the profile's line and the key path.
    public static func check(profile: String) throws {
        guard let data = FileManager.default.contents(atPath: profile),
              case let .mapping(top)? = try? Yams.compose(yaml: String(decoding: data, as: UTF8.self)),
              let section = top.first(where: { $0.key.string == "simulator" })?.value else { return }
        var scratch = SimulatorConfiguration()
        try apply(node: section, file: profile, keyPath: "simulator", to: &scratch, ignoring: Set(RunConfig.Simulator.runKeys))
    }

    /// Applies the mapping `root` (at `keyPath` in `file`: "" for a whole file); keys in `ignoring` are
    /// taken as known and skipped (a profile's `simulator.fast` and `simulator.model` are the run's).
    static func apply(node root: Node, file: String, keyPath: String, to configuration: inout SimulatorConfiguration,
                      ignoring: Set<String> = []) throws {
        let r = reader(file)
        var top = try r.map(Entry(path: keyPath, line: root.mark?.line, node: root))
        top.entries.removeAll { ignoring.contains($0.key) }
        try r.only(top, knownKeys)
        var c = configuration
        if let v = top["environment"] {
            let s = try r.string(v)
            guard let e = SimulatorConfiguration.Environment(rawValue: s) else { throw r.fail(v, "must be sandbox or production, found '\(s)'") }
            c.environment = e
        }
        if let v = top["threads"] { c.threads = try r.int(v, 1...64) }
        if let v = top["fast"] { c.fast = try r.bool(v) }
        if let v = top["seed"] { c.seed = UInt64(try r.int(v, 0...Int.max)) }
        if let v = top["initial_max_concurrent_streams"] { c.initialMaxConcurrentStreams = try r.int(v, 1...100_000) }
        if let v = top["max_concurrent_streams"] { c.maxConcurrentStreams = try r.int(v, 1...100_000) }
        if let v = top["hard_max_concurrent_streams"] { c.hardMaxConcurrentStreams = try r.int(v, 1...1_000_000) }
        if let v = top["drop_stream_limit_after_rejection"] { c.dropStreamLimitAfterRejection = try r.bool(v) }
        if let v = top["provider_token_lifetime_seconds"] { c.providerTokenLifetime = try r.number(v, 1...1e9) }
        if let v = top["provider_token_min_rotation_seconds"] { c.providerTokenMinimumRotation = try r.number(v, 0...1e9) }
        if let v = top["token_update_penalty_seconds"] { c.tokenUpdatePenalty = try r.number(v, 0...1e9) }
        if let v = top["topics"] {
            for team in try r.map(v).entries {
                let items = try r.list(team)
                c.topicsByTeam[team.key, default: []].formUnion(try items.map { try r.string($0) })
            }
        }
        if let v = top["devices"] { try devices(v, r, &c.deviceRegistry) }
        if let v = top["live_activity"] {
            let m = try r.map(v)
            try r.only(m, ["missing_keys", "priority10_budget", "budget_window_seconds"])
            if let x = m["missing_keys"] {
                let s = try r.string(x)
                guard let k = LiveActivityRules.MissingKeys(rawValue: s) else { throw r.fail(x, "must be reject or count, found '\(s)'") }
                c.liveActivity.missingKeys = k
            }
            if let x = m["priority10_budget"] { c.liveActivity.priority10Budget = r.isNull(x) ? nil : try r.int(x, 0...1_000_000) }
            if let x = m["budget_window_seconds"] { c.liveActivity.budgetWindowSeconds = try r.number(x, 1...1e9) }
        }
        if let v = top["broadcast"] {
            let m = try r.map(v)
            try r.only(m, ["channel_limit", "enabled_bundle_ids"])
            if let x = m["channel_limit"] { c.broadcast.channelLimitPerBundle = try r.int(x, 0...1_000_000) }
            if let x = m["enabled_bundle_ids"] { c.broadcast.enabledBundleIDs = Set(try r.list(x).map { try r.string($0) }) }
        }
        if let v = top["faults"] { try faults(v, r, &c.faults) }
        if let v = top["device"] { c.device = try device(v, r) }
        configuration = c
    }

    private static func devices(_ v: Entry, _ r: Reader, _ d: inout DeviceRegistry) throws {
        let m = try r.map(v)
        try r.only(m, ["file", "generate", "unknown_token_reason", "dead_fraction", "dead_reason", "seed", "rate_limit"])
        if let x = m["file"] {
            let path = try r.string(x)
            let base = (r.file as NSString).deletingLastPathComponent
            try d.load(path: path.hasPrefix("/") || base.isEmpty ? path : (base as NSString).appendingPathComponent(path))
        }
        if let x = m["generate"] {
            let g = try r.map(x)
            try r.only(g, ["bundle_id", "count", "seed", "hex_length"])
            guard let b = g["bundle_id"] else { throw r.fail(x, "needs bundle_id") }
            let bundle = try r.string(b)
            let count = try g["count"].map { try r.int($0, 1...10_000_000) } ?? 1000
            let seed = try g["seed"].map { try r.int($0, 0...Int.max) } ?? 0
            let hex = try g["hex_length"].map { try r.int($0, 64...200) } ?? 64
            if hex % 2 != 0, let h = g["hex_length"] { throw r.fail(h, "must be even, found \(hex)") }
            for t in DeviceRegistry.generatedTokens(count: count, seed: UInt64(seed), hexLength: hex) { d.register(token: t, bundleID: bundle) }
        }
        if let x = m["unknown_token_reason"] {
            let s = try r.string(x)
            let reason = Reason(rawValue: s)
            guard reason.status != 0 else { throw r.fail(x, "'\(s)' is not an APNs reason") }
            d.unknownTokenReason = reason
        }
        if let x = m["dead_fraction"] { d.deadFraction = try r.number(x, 0...1) }
        if let x = m["dead_reason"] {
            let s = try r.string(x)
            guard let dr = DeviceRegistry.DeadReason(rawValue: s) else { throw r.fail(x, "must be Unregistered or ExpiredToken, found '\(s)'") }
            d.deadFractionReason = dr
        }
        if let x = m["seed"] { d.seed = UInt64(try r.int(x, 0...Int.max)) }
        if let x = m["rate_limit"] {
            let rl = try r.map(x)
            try r.only(rl, ["pushes", "window_seconds"])
            guard let p = rl["pushes"], let w = rl["window_seconds"] else { throw r.fail(x, "needs pushes and window_seconds") }
            d.rateLimit = .init(pushes: try r.int(p, 1...Int.max), windowSeconds: try r.number(w, 0.001...1e9))
        }
    }

    /// The device model's parameters: every key optional, each over its default (``DeviceModelParameters``).
    private static func device(_ v: Entry, _ r: Reader) throws -> DeviceModelParameters {
        var d = DeviceModelParameters()
        guard !r.isNull(v) else { return d }
        let m = try r.map(v)
        typealias P = DeviceModelParameters
        let seconds: [(String, WritableKeyPath<P, Double>)] = [
            ("wake_interval_seconds", \.wakeIntervalSeconds), ("power_first_deferral_seconds", \.powerFirstDeferralSeconds),
            ("online_seconds", \.onlineSeconds), ("offline_seconds", \.offlineSeconds), ("storage_seconds", \.storageSeconds),
            ("activity_budget_per_hour", \.activityBudgetPerHour), ("frequent_budget_per_hour", \.frequentBudgetPerHour),
            ("push_to_start_per_hour", \.pushToStartPerHour), ("ended_activity_seconds", \.endedActivitySeconds),
        ]
        let counts: [(String, WritableKeyPath<P, Int>)] = [
            ("activity_budget_burst", \.activityBudgetBurst), ("frequent_budget_burst", \.frequentBudgetBurst),
            ("push_to_start_burst", \.pushToStartBurst),
        ]
        try r.only(m, seconds.map(\.0) + counts.map(\.0) + ["on_time_ms", "offline_share", "frequent_updates", "throttle", "seed"])
        for (key, path) in seconds { if let x = m[key] { d[keyPath: path] = try r.number(x, 0.001...1e9) } }
        for (key, path) in counts { if let x = m[key] { d[keyPath: path] = try r.int(x, 1...1_000_000) } }
        if let x = m["on_time_ms"] { d.onTimeMillis = Int64(try r.int(x, 0...86_400_000)) }
        if let x = m["offline_share"] { d.offlineShare = try r.number(x, 0...1) }
        if let x = m["frequent_updates"] { d.frequentUpdates = try r.bool(x) }
        if let x = m["seed"] { d.seed = UInt64(try r.int(x, 0...Int.max)) }
        if let x = m["throttle"] {
            let s = try r.string(x)
            guard let t = P.ThrottleAction(rawValue: s) else { throw r.fail(x, "must be drop or delay, found '\(s)'") }
            d.throttle = t
        }
        return d
    }

    private static func faults(_ v: Entry, _ r: Reader, _ f: inout FaultInjection) throws {
        let m = try r.map(v)
        try r.only(m, ["latency", "round_trip_ms", "capacity", "internal_server_error_fraction", "service_unavailable_fraction", "too_many_requests_fraction", "shutdown_fraction",
                       "connection_reset_fraction", "stall_fraction", "latency_spike", "clock_step", "goaway_after_streams",
                       "goaway_after_seconds", "idle_timeout_seconds", "settings_delay_ms"])
        if let x = m["latency"] {
            let l = try r.map(x)
            try r.only(l, ["fixed_ms", "uniform_ms", "lognormal_ms"])
            guard l.entries.count == 1 else { throw r.fail(x, "needs exactly one of fixed_ms, uniform_ms, lognormal_ms") }
            if let y = l["fixed_ms"] {
                f.latency = .fixed(milliseconds: try r.number(y, 0...600_000))
            } else if let y = l["uniform_ms"] {
                let b = try r.list(y)
                guard b.count == 2 else { throw r.fail(y, "must be [min, max]") }
                let lo = try r.number(b[0], 0...600_000), hi = try r.number(b[1], lo...600_000)
                f.latency = .uniform(minMilliseconds: lo, maxMilliseconds: hi)
            } else if let y = l["lognormal_ms"] {
                let p = try r.map(y)
                try r.only(p, ["p50", "p99"])
                guard let a = p["p50"], let b = p["p99"] else { throw r.fail(y, "needs p50 and p99") }
                let p50 = try r.number(a, 0.001...600_000)
                f.latency = .lognormal(p50Milliseconds: p50, p99Milliseconds: try r.number(b, p50...600_000))
            }
        }
        if let x = m["internal_server_error_fraction"] { f.internalServerErrorFraction = try r.number(x, 0...1) }
        if let x = m["service_unavailable_fraction"] { f.serviceUnavailableFraction = try r.number(x, 0...1) }
        if let x = m["too_many_requests_fraction"] { f.tooManyRequestsFraction = try r.number(x, 0...1) }
        if let x = m["shutdown_fraction"] { f.shutdownFraction = try r.number(x, 0...1) }
        if let x = m["connection_reset_fraction"] { f.connectionResetFraction = try r.number(x, 0...1) }
        if let x = m["stall_fraction"] { f.stallFraction = try r.number(x, 0...1) }
        if let x = m["round_trip_ms"] { f.roundTripMilliseconds = try r.number(x, 0...600_000) }
        if let x = m["capacity"] {
            let p = try r.map(x)
            try r.only(p, ["per_connection_per_second", "overload_after_ms", "overload_503_fraction"])
            guard let rate = p["per_connection_per_second"] else { throw r.fail(x, "needs per_connection_per_second, like {per_connection_per_second: 2000}") }
            f.capacity = .init(perConnectionPerSecond: try r.number(rate, 0.001...10_000_000),
                               overloadAfterMilliseconds: try p["overload_after_ms"].map { try r.number($0, 0...600_000) } ?? 1000,
                               overloadServiceUnavailableFraction: try p["overload_503_fraction"].map { try r.number($0, 0...1) } ?? 0)
        }
        if let x = m["latency_spike"] {
            let p = try r.map(x)
            try r.only(p, ["fraction", "ms"])
            guard let a = p["fraction"], let b = p["ms"] else { throw r.fail(x, "needs fraction and ms, like {fraction: 0.01, ms: 2000}") }
            f.latencySpike = (try r.number(a, 0...1), try r.number(b, 0...600_000))
        }
        if let x = m["clock_step"] {
            let p = try r.map(x)
            try r.only(p, ["after_seconds", "by_seconds"])
            guard let a = p["after_seconds"], let b = p["by_seconds"] else { throw r.fail(x, "needs after_seconds and by_seconds, like {after_seconds: 60, by_seconds: 3700}") }
            f.clockStep = .init(afterSeconds: try r.number(a, 0...1e9), bySeconds: try r.number(b, 0...1e9))
        }
        if let x = m["goaway_after_streams"] { f.goAwayAfterStreams = try r.int(x, 1...Int.max) }
        if let x = m["goaway_after_seconds"] { f.goAwayAfterSeconds = try r.number(x, 0.001...1e9) }
        if let x = m["idle_timeout_seconds"] { f.idleTimeoutSeconds = try r.number(x, 0.001...1e9) }
        if let x = m["settings_delay_ms"] { f.settingsDelayMilliseconds = try r.number(x, 0...600_000) }
        let sum = f.internalServerErrorFraction + f.serviceUnavailableFraction + f.tooManyRequestsFraction + f.shutdownFraction + f.connectionResetFraction + f.stallFraction
        guard sum <= 1 else { throw r.fail(v, "the fractions add up to \(sum), more than 1") }
    }

    private typealias Entry = StrictYAML.Entry
    private typealias Reader = StrictYAML.Reader

    /// The shared strict reader, its errors this file's.
    private static func reader(_ file: String) -> Reader {
        Reader(file: file) { file, line, path, message in
            SimulatorConfigError(file: file, line: line, key: path.isEmpty ? "(top level)" : path, message: message)
        }
    }
}

/// A configuration file value that is wrong, named by file, line and key path.
public struct SimulatorConfigError: Error, CustomStringConvertible, Equatable {
    public let file: String
    /// The line of the key (1-based); nil when the error is about the whole file.
    public let line: Int?
    public let key: String
    public let message: String

    public init(file: String, line: Int?, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        "simulator configuration \(file)\(line.map { ":\($0)" } ?? ""): '\(key)' \(message)"
    }
}
