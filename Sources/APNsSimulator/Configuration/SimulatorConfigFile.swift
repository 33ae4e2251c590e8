import APNsCore
import Foundation

/// Applies a simulator configuration file (`apnsbench simulate --config sim.yaml`) to a
/// `SimulatorConfiguration`, strictly: an unknown key or a value of the wrong type or range is an error
/// naming the file and the key path, so a typo never falls back to a default silently.
///
/// The file is parsed by the caller (YAML or JSON) into Foundation values (`[String: Any]`, arrays,
/// strings, numbers, booleans), so this module needs no YAML parser. Keys, all optional:
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
/// faults:
///   latency: { fixed_ms: 5 }            # or { uniform_ms: [1, 10] } or { lognormal_ms: { p50: 40, p99: 200 } }
///   internal_server_error_fraction: 0.01
///   service_unavailable_fraction: 0.01
///   shutdown_fraction: 0
///   connection_reset_fraction: 0
///   goaway_after_streams: 100000
///   goaway_after_seconds: 600
///   idle_timeout_seconds: 3600
///   settings_delay_ms: 0
/// ```
public enum SimulatorConfigFile {
    /// Every top-level key.
    public static let knownKeys = [
        "environment", "threads", "fast", "seed", "initial_max_concurrent_streams", "max_concurrent_streams",
        "hard_max_concurrent_streams", "drop_stream_limit_after_rejection", "provider_token_lifetime_seconds",
        "provider_token_min_rotation_seconds", "token_update_penalty_seconds", "topics", "devices", "live_activity", "faults",
    ]

    /// Applies `tree` (the parsed file) to `configuration`. `file` names the file in errors and anchors
    /// relative paths (`devices.file`).
    public static func apply(_ tree: Any, file: String, to configuration: inout SimulatorConfiguration) throws {
        var r = Reader(file: file)
        let root = try r.map(tree, "")
        try r.only(root, knownKeys, "")
        var c = configuration
        if let v = root["environment"] {
            let s = try r.string(v, "environment")
            guard let e = SimulatorConfiguration.Environment(rawValue: s) else { throw r.fail("environment", "must be sandbox or production, found '\(s)'") }
            c.environment = e
        }
        if let v = root["threads"] { c.threads = try r.int(v, "threads", 1...64) }
        if let v = root["fast"] { c.fast = try r.bool(v, "fast") }
        if let v = root["seed"] { c.seed = UInt64(try r.int(v, "seed", 0...Int.max)) }
        if let v = root["initial_max_concurrent_streams"] { c.initialMaxConcurrentStreams = try r.int(v, "initial_max_concurrent_streams", 1...100_000) }
        if let v = root["max_concurrent_streams"] { c.maxConcurrentStreams = try r.int(v, "max_concurrent_streams", 1...100_000) }
        if let v = root["hard_max_concurrent_streams"] { c.hardMaxConcurrentStreams = try r.int(v, "hard_max_concurrent_streams", 1...1_000_000) }
        if let v = root["drop_stream_limit_after_rejection"] { c.dropStreamLimitAfterRejection = try r.bool(v, "drop_stream_limit_after_rejection") }
        if let v = root["provider_token_lifetime_seconds"] { c.providerTokenLifetime = try r.number(v, "provider_token_lifetime_seconds", 1...1e9) }
        if let v = root["provider_token_min_rotation_seconds"] { c.providerTokenMinimumRotation = try r.number(v, "provider_token_min_rotation_seconds", 0...1e9) }
        if let v = root["token_update_penalty_seconds"] { c.tokenUpdatePenalty = try r.number(v, "token_update_penalty_seconds", 0...1e9) }
        if let v = root["topics"] {
            for (team, list) in try r.map(v, "topics") {
                let items = try r.list(list, "topics.\(team)")
                c.topicsByTeam[team, default: []].formUnion(try items.enumerated().map { try r.string($1, "topics.\(team)[\($0)]") })
            }
        }
        if let v = root["devices"] { try devices(v, &r, &c.deviceRegistry) }
        if let v = root["live_activity"] {
            let m = try r.map(v, "live_activity")
            try r.only(m, ["missing_keys", "priority10_budget", "budget_window_seconds"], "live_activity")
            if let x = m["missing_keys"] {
                let s = try r.string(x, "live_activity.missing_keys")
                guard let k = LiveActivityRules.MissingKeys(rawValue: s) else { throw r.fail("live_activity.missing_keys", "must be reject or count, found '\(s)'") }
                c.liveActivity.missingKeys = k
            }
            if let x = m["priority10_budget"] { c.liveActivity.priority10Budget = x is NSNull ? nil : try r.int(x, "live_activity.priority10_budget", 0...1_000_000) }
            if let x = m["budget_window_seconds"] { c.liveActivity.budgetWindowSeconds = try r.number(x, "live_activity.budget_window_seconds", 1...1e9) }
        }
        if let v = root["faults"] { try faults(v, &r, &c.faults) }
        configuration = c
    }

    private static func devices(_ v: Any, _ r: inout Reader, _ d: inout DeviceRegistry) throws {
        let m = try r.map(v, "devices")
        try r.only(m, ["file", "generate", "unknown_token_reason", "dead_fraction", "dead_reason", "seed", "rate_limit"], "devices")
        if let x = m["file"] {
            let path = try r.string(x, "devices.file")
            let base = (r.file as NSString).deletingLastPathComponent
            try d.load(path: path.hasPrefix("/") || base.isEmpty ? path : (base as NSString).appendingPathComponent(path))
        }
        if let x = m["generate"] {
            let g = try r.map(x, "devices.generate")
            try r.only(g, ["bundle_id", "count", "seed", "hex_length"], "devices.generate")
            guard let b = g["bundle_id"] else { throw r.fail("devices.generate", "needs bundle_id") }
            let bundle = try r.string(b, "devices.generate.bundle_id")
            let count = try g["count"].map { try r.int($0, "devices.generate.count", 1...10_000_000) } ?? 1000
            let seed = try g["seed"].map { try r.int($0, "devices.generate.seed", 0...Int.max) } ?? 0
            let hex = try g["hex_length"].map { try r.int($0, "devices.generate.hex_length", 64...200) } ?? 64
            guard hex % 2 == 0 else { throw r.fail("devices.generate.hex_length", "must be even, found \(hex)") }
            for t in DeviceRegistry.generatedTokens(count: count, seed: UInt64(seed), hexLength: hex) { d.register(token: t, bundleID: bundle) }
        }
        if let x = m["unknown_token_reason"] {
            let s = try r.string(x, "devices.unknown_token_reason")
            let reason = Reason(rawValue: s)
            guard reason.status != 0 else { throw r.fail("devices.unknown_token_reason", "'\(s)' is not an APNs reason") }
            d.unknownTokenReason = reason
        }
        if let x = m["dead_fraction"] { d.deadFraction = try r.number(x, "devices.dead_fraction", 0...1) }
        if let x = m["dead_reason"] {
            let s = try r.string(x, "devices.dead_reason")
            guard let dr = DeviceRegistry.DeadReason(rawValue: s) else { throw r.fail("devices.dead_reason", "must be Unregistered or ExpiredToken, found '\(s)'") }
            d.deadFractionReason = dr
        }
        if let x = m["seed"] { d.seed = UInt64(try r.int(x, "devices.seed", 0...Int.max)) }
        if let x = m["rate_limit"] {
            let rl = try r.map(x, "devices.rate_limit")
            try r.only(rl, ["pushes", "window_seconds"], "devices.rate_limit")
            guard let p = rl["pushes"], let w = rl["window_seconds"] else { throw r.fail("devices.rate_limit", "needs pushes and window_seconds") }
            d.rateLimit = .init(pushes: try r.int(p, "devices.rate_limit.pushes", 1...Int.max),
                                windowSeconds: try r.number(w, "devices.rate_limit.window_seconds", 0.001...1e9))
        }
    }

    private static func faults(_ v: Any, _ r: inout Reader, _ f: inout FaultInjection) throws {
        let m = try r.map(v, "faults")
        try r.only(m, ["latency", "internal_server_error_fraction", "service_unavailable_fraction", "shutdown_fraction",
                       "connection_reset_fraction", "goaway_after_streams", "goaway_after_seconds", "idle_timeout_seconds",
                       "settings_delay_ms"], "faults")
        if let x = m["latency"] {
            let l = try r.map(x, "faults.latency")
            try r.only(l, ["fixed_ms", "uniform_ms", "lognormal_ms"], "faults.latency")
            guard l.count == 1 else { throw r.fail("faults.latency", "needs exactly one of fixed_ms, uniform_ms, lognormal_ms") }
            if let y = l["fixed_ms"] {
                f.latency = .fixed(milliseconds: try r.number(y, "faults.latency.fixed_ms", 0...600_000))
            } else if let y = l["uniform_ms"] {
                let b = try r.list(y, "faults.latency.uniform_ms")
                guard b.count == 2 else { throw r.fail("faults.latency.uniform_ms", "must be [min, max]") }
                let lo = try r.number(b[0], "faults.latency.uniform_ms[0]", 0...600_000), hi = try r.number(b[1], "faults.latency.uniform_ms[1]", lo...600_000)
                f.latency = .uniform(minMilliseconds: lo, maxMilliseconds: hi)
            } else if let y = l["lognormal_ms"] {
                let p = try r.map(y, "faults.latency.lognormal_ms")
                try r.only(p, ["p50", "p99"], "faults.latency.lognormal_ms")
                guard let a = p["p50"], let b = p["p99"] else { throw r.fail("faults.latency.lognormal_ms", "needs p50 and p99") }
                let p50 = try r.number(a, "faults.latency.lognormal_ms.p50", 0.001...600_000)
                f.latency = .lognormal(p50Milliseconds: p50, p99Milliseconds: try r.number(b, "faults.latency.lognormal_ms.p99", p50...600_000))
            }
        }
        if let x = m["internal_server_error_fraction"] { f.internalServerErrorFraction = try r.number(x, "faults.internal_server_error_fraction", 0...1) }
        if let x = m["service_unavailable_fraction"] { f.serviceUnavailableFraction = try r.number(x, "faults.service_unavailable_fraction", 0...1) }
        if let x = m["shutdown_fraction"] { f.shutdownFraction = try r.number(x, "faults.shutdown_fraction", 0...1) }
        if let x = m["connection_reset_fraction"] { f.connectionResetFraction = try r.number(x, "faults.connection_reset_fraction", 0...1) }
        if let x = m["goaway_after_streams"] { f.goAwayAfterStreams = try r.int(x, "faults.goaway_after_streams", 1...Int.max) }
        if let x = m["goaway_after_seconds"] { f.goAwayAfterSeconds = try r.number(x, "faults.goaway_after_seconds", 0.001...1e9) }
        if let x = m["idle_timeout_seconds"] { f.idleTimeoutSeconds = try r.number(x, "faults.idle_timeout_seconds", 0.001...1e9) }
        if let x = m["settings_delay_ms"] { f.settingsDelayMilliseconds = try r.number(x, "faults.settings_delay_ms", 0...600_000) }
        let sum = f.internalServerErrorFraction + f.serviceUnavailableFraction + f.shutdownFraction + f.connectionResetFraction
        guard sum <= 1 else { throw r.fail("faults", "the fractions add up to \(sum), more than 1") }
    }

    /// Typed access with errors that name the file and key path.
    private struct Reader {
        let file: String

        func fail(_ key: String, _ message: String) -> SimulatorConfigError {
            SimulatorConfigError(file: file, key: key, message: message)
        }

        func map(_ v: Any, _ key: String) throws -> [String: Any] {
            guard let m = v as? [String: Any] else { throw fail(key.isEmpty ? "(top level)" : key, "must be a mapping of keys to values") }
            return m
        }

        func list(_ v: Any, _ key: String) throws -> [Any] {
            guard let l = v as? [Any] else { throw fail(key, "must be a list") }
            return l
        }

        func only(_ m: [String: Any], _ known: [String], _ key: String) throws {
            for k in m.keys.sorted() where !known.contains(k) {
                throw fail(key.isEmpty ? k : "\(key).\(k)", "is not a known key (known: \(known.joined(separator: ", ")))")
            }
        }

        func string(_ v: Any, _ key: String) throws -> String {
            guard let s = v as? String, !s.isEmpty else { throw fail(key, "must be a non-empty string, found '\(v)'") }
            return s
        }

        func bool(_ v: Any, _ key: String) throws -> Bool {
            guard let b = v as? Bool else { throw fail(key, "must be true or false, found '\(v)'") }
            return b
        }

        func int(_ v: Any, _ key: String, _ range: ClosedRange<Int>) throws -> Int {
            guard !(v is Bool), let n = (v as? Int) ?? (v as? Double).flatMap({ $0 == $0.rounded() ? Int(exactly: $0) : nil }) else {
                throw fail(key, "must be an integer, found '\(v)'")
            }
            guard range.contains(n) else { throw fail(key, "must be between \(range.lowerBound) and \(range.upperBound), found \(n)") }
            return n
        }

        func number(_ v: Any, _ key: String, _ range: ClosedRange<Double>) throws -> Double {
            guard !(v is Bool), let n = (v as? Double) ?? (v as? Int).map(Double.init) else { throw fail(key, "must be a number, found '\(v)'") }
            guard range.contains(n) else { throw fail(key, "must be between \(range.lowerBound) and \(range.upperBound), found \(n)") }
            return n
        }
    }
}

/// A configuration file value that is wrong, named by file and key path.
public struct SimulatorConfigError: Error, CustomStringConvertible, Equatable {
    public let file: String
    public let key: String
    public let message: String
    public var description: String { "simulator configuration \(file): '\(key)' \(message)" }
}
