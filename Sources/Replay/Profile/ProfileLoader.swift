import APNsCore
import Foundation
import Yams

/// Reads run profiles strictly: an unknown key, a wrong type or a value out of range is an error that
/// names the file, the line and the key, so a typo never silently falls back to a default.
public enum ProfileLoader {
    /// Every key a profile may have.
    public static let knownKeys = [
        "name", "description", "workload", "stream", "template", "push_type", "bundle_id", "priority",
        "expiration_seconds", "connections", "streams", "workers", "token_refresh_minutes", "push_timeout_ms", "bad_lines",
        "schedule", "speed", "rate", "ramp", "dead_tokens", "coalesce", "collapse_id",
        "retry_attempts", "retry_backoff", "retry_max_elapsed", "slo_p99_ms", "slo_min_delivered",
    ]

    /// Loads `path`; relative `stream` and `template` paths are resolved against the profile's folder.
    public static func load(path: String) throws -> RunProfile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProfileError(file: path, line: nil, message: "cannot read the profile (no such file, or not readable)")
        }
        return try parse(yaml: String(decoding: data, as: UTF8.self), file: path)
    }

    /// `schedule: closed-loop | recorded | rate | ramp` with `speed: X`, `rate: R` or `ramp: FROM:TO:SECONDS`.
    static func schedule(values: [String: Node], file: String) throws -> Schedule {
        func line(_ k: String) -> Int? { values[k]?.mark?.line }
        func number(_ k: String) throws -> Double? {
            guard let node = values[k] else { return nil }
            guard case .scalar = node, let v = node.float else {
                throw ProfileError(file: file, line: line(k), message: "'\(k)' must be a number, found '\(node.string ?? "a collection")'")
            }
            return v
        }
        let kind = values["schedule"]?.string ?? "closed-loop"
        let speed = try number("speed"), rate = try number("rate")
        let ramp = values["ramp"]?.string
        let result: Schedule
        switch kind {
        case "closed-loop": result = .closedLoop
        case "recorded": result = .recorded(speed: speed ?? 1)
        case "rate":
            guard let rate else { throw ProfileError(file: file, line: line("schedule"), message: "'schedule: rate' needs 'rate: PUSHES_PER_SECOND'") }
            result = .fixedRate(perSecond: rate)
        case "ramp":
            guard let ramp else { throw ProfileError(file: file, line: line("schedule"), message: "'schedule: ramp' needs 'ramp: FROM:TO:SECONDS'") }
            do { result = try Schedule.parseRamp(ramp) } catch { throw ProfileError(file: file, line: line("ramp"), message: "\(error)") }
        default:
            throw ProfileError(file: file, line: line("schedule"), message: "'schedule' must be closed-loop, recorded, rate or ramp, found '\(kind)'")
        }
        for (key, given, needs) in [("speed", speed != nil, "recorded"), ("rate", rate != nil, "rate"), ("ramp", ramp != nil, "ramp")]
        where given && kind != needs {
            throw ProfileError(file: file, line: line(key), message: "'\(key)' goes with 'schedule: \(needs)', but the schedule is \(kind)")
        }
        do { try result.validate() } catch { throw ProfileError(file: file, line: line("schedule"), message: "\(error)") }
        return result
    }

    public static func parse(yaml: String, file: String) throws -> RunProfile {
        let root: Node?
        do { root = try Yams.compose(yaml: yaml) } catch {
            throw ProfileError(file: file, line: nil, message: "not valid YAML: \(error)")
        }
        guard let root, case let .mapping(mapping) = root else {
            throw ProfileError(file: file, line: root?.mark?.line, message: "a profile is a mapping of keys to values")
        }
        var values: [String: Node] = [:]
        for (keyNode, valueNode) in mapping {
            guard let key = keyNode.string else {
                throw ProfileError(file: file, line: keyNode.mark?.line, message: "keys must be strings")
            }
            guard knownKeys.contains(key) else {
                throw ProfileError(file: file, line: keyNode.mark?.line,
                                   message: "unknown key '\(key)' (known keys: \(knownKeys.joined(separator: ", ")))")
            }
            values[key] = valueNode
        }
        let base = (file as NSString).deletingLastPathComponent
        func resolve(_ p: String) -> String {
            p.hasPrefix("/") || base.isEmpty ? p : (base as NSString).appendingPathComponent(p)
        }
        func fail(_ key: String, _ message: String) -> ProfileError {
            ProfileError(file: file, line: values[key]?.mark?.line, message: "'\(key)' \(message)")
        }
        func string(_ key: String, required: Bool = true) throws -> String? {
            guard let node = values[key] else {
                if required { throw ProfileError(file: file, line: nil, message: "missing required key '\(key)'") }
                return nil
            }
            guard case let .scalar(s) = node, !s.string.isEmpty else { throw fail(key, "must be a non-empty string") }
            return s.string
        }
        func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let node = values[key] else { return nil }
            guard case .scalar = node, let n = node.int else { throw fail(key, "must be an integer, found '\(node.string ?? "a collection")'") }
            guard range.contains(n) else { throw fail(key, "must be between \(range.lowerBound) and \(range.upperBound), found \(n)") }
            return n
        }
        func number(_ key: String) throws -> Double? {
            guard let node = values[key] else { return nil }
            guard case .scalar = node, let n = node.float else { throw fail(key, "must be a number, found '\(node.string ?? "a collection")'") }
            return n
        }

        var profile = RunProfile(
            name: try string("name")!,
            workload: try string("workload")!,
            streamPath: resolve(try string("stream")!),
            templatePath: resolve(try string("template")!),
            bundleID: try string("bundle_id")!)
        profile.description = try string("description", required: false)
        if let t = try string("push_type", required: false) {
            guard let type = PushType(rawValue: t) else {
                throw fail("push_type", "must be one of \(PushType.allCases.map(\.rawValue).joined(separator: ", ")), found '\(t)'")
            }
            profile.pushType = type
        }
        if let p = try int("priority", in: 1...10) {
            guard let priority = Priority(rawValue: p) else { throw fail("priority", "must be 1, 5 or 10, found \(p)") }
            profile.priority = priority
        }
        profile.expirationSeconds = try int("expiration_seconds", in: 0...(86_400 * 30))
        profile.connections = try int("connections", in: 1...64) ?? profile.connections
        profile.streams = try int("streams", in: 1...1000) ?? profile.streams
        profile.workers = try int("workers", in: 1...64) ?? profile.workers
        if let minutes = try number("token_refresh_minutes") {
            guard minutes >= 20, minutes < 60 else { throw fail("token_refresh_minutes", "must be at least 20 and below 60, found \(minutes)") }
            profile.tokenRefreshMinutes = minutes
        }
        profile.pushTimeoutMillis = try int("push_timeout_ms", in: 1...600_000) ?? profile.pushTimeoutMillis
        if let policy = try string("bad_lines", required: false) {
            guard let p = RunProfile.BadLinePolicy(rawValue: policy) else { throw fail("bad_lines", "must be 'skip' or 'stop', found '\(policy)'") }
            profile.badLines = p
        }
        profile.schedule = try schedule(values: values, file: file)
        profile.deadTokensPath = try string("dead_tokens", required: false).map(resolve)
        if let text = try string("coalesce", required: false) {
            guard let ms = DurationText.millis(text) else { throw fail("coalesce", "must be a duration like 250ms or 1s, found '\(text)'") }
            guard profile.pushType == .liveactivity else { throw fail("coalesce", "applies to Live Activity updates; push_type is \(profile.pushType.rawValue)") }
            profile.coalesceMillis = ms
        }
        if let id = try string("collapse_id", required: false) {
            guard !id.isEmpty, id.utf8.count <= 64 else { throw fail("collapse_id", "must be 1 to 64 bytes (APNs answers BadCollapseId otherwise), found \(id.utf8.count)") }
            profile.collapseID = id
        }
        profile.retryAttempts = try int("retry_attempts", in: 1...100)
        func duration(_ key: String) throws -> Int64? {
            guard let text = try string(key, required: false) else { return nil }
            guard let ms = DurationText.millis(text) else { throw fail(key, "must be a duration like 500ms, 1s or 5m, found '\(text)'") }
            return ms
        }
        profile.retryBackoffMillis = try duration("retry_backoff")
        profile.retryMaxElapsedMillis = try duration("retry_max_elapsed")
        profile.sloP99Millis = try int("slo_p99_ms", in: 1...3_600_000)
        if let share = try number("slo_min_delivered") {
            guard (0...1).contains(share) else { throw fail("slo_min_delivered", "must be a share between 0 and 1, found \(share)") }
            profile.sloMinDelivered = share
        }
        guard Workloads.names.contains(profile.workload) else {
            throw fail("workload", "must be one of \(Workloads.names.joined(separator: ", ")), found '\(profile.workload)'")
        }
        return profile
    }
}
