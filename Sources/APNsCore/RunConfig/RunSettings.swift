import Foundation

/// One run setting as every place spells it: the profile's key, the `run`/`sweep` flag, where
/// report.json's `configuration` keeps it, its default, its rule and its help text.
///
/// ``RunSettings/all`` is the one list of them. The profile reader takes its known keys from it, the
/// command line its flag names and help, `sweep --vary` the settings it can vary, error messages the
/// spelling the user wrote, and ``ProfileWriter`` the profile text a report's configuration is written
/// back as.
public struct RunSetting: Sendable {
    /// The name errors use for the setting (``ConfigKey/profileKey``).
    public let key: ConfigKey
    /// The profile's key: top level (`connections`) or under `simulator:` (`simulator.fast`); nil when
    /// only the command line sets it.
    public let profileKey: String?
    /// The flag of `run` and `sweep`, e.g. `--connections`; nil when only the profile sets it.
    public let flag: String?
    /// Why a profile key has no flag, when it has none.
    public let profileOnly: String?
    /// Where report.json's `configuration` keeps the value: a dotted key path.
    public let reportPath: String
    /// The flag's value name in `--help`, e.g. `N` or `DURATION`.
    public let valueName: String?
    /// The value when neither the profile nor a flag gives one.
    public let defaultValue: String
    /// The range or form the value must have, as `--help` and the docs state it; for a setting with a
    /// ``range``, the range's text and what follows it.
    public let rule: String
    /// What the setting does.
    public let help: String
    /// Whether `sweep --vary KEY=V1,V2` can vary it.
    public let varies: Bool
    /// How the profile reader reads a one-value key and sets it; nil for the keys it reads itself
    /// (the workload, the schedule, the SLO's classes, the simulator section).
    public let load: ProfileRead?
    /// The value as profile text (a YAML scalar, or JSON for a collection), nil when `config` leaves it unset.
    public let profileValue: @Sendable (RunConfig) -> String?
    /// Lays the command line's value (``RunConfigOverrides``) over the configuration; true when the
    /// command line gave this setting, so that an error about it names the flag. Nil for profile-only settings.
    public private(set) var overlay: (@Sendable (inout RunConfig, RunConfigOverrides) -> Bool)?

    /// How `sweep --vary KEY=V` turns one value into the command line's value for this setting; nil for
    /// the settings that cannot be varied. A value that is not one throws a ``RunConfigError``.
    public private(set) var varyValue: (@Sendable (String, inout RunConfigOverrides) throws -> Void)?

    /// The numbers the value must lie between, both ends included; the configuration's check reads them
    /// here (``RunConfig/validate(cores:)``) and ``rule`` begins with them. Nil for a setting without one.
    public var range: SettingRange? = nil

    /// A value for the flag other than the default, as a user writes it: what the tests give every flag
    /// to see it reach the configuration. Nil when the flag takes no value or ``range`` gives one (its upper end).
    public var example: String? = nil

    /// The flag's example value: ``example``, else the upper end of ``range``; nil for a flag without a value.
    public var exampleValue: String? {
        guard valueName != nil else { return nil }
        return example ?? range.map { RunSettings.number($0.upper) }
    }

    /// This setting, with how `sweep --vary` reads one of its values.
    func varied(_ read: @escaping @Sendable (String, inout RunConfigOverrides) throws -> Void) -> RunSetting {
        var s = self
        s.varyValue = read
        return s
    }

    /// This setting, with ``example`` for its flag.
    func withExample(_ text: String?) -> RunSetting {
        var s = self
        s.example = text
        return s
    }

    /// This setting, with how its flag's value is laid over the profile's.
    func overlay(_ apply: @escaping @Sendable (inout RunConfig, RunConfigOverrides) -> Bool) -> RunSetting {
        var s = self
        s.overlay = apply
        return s
    }

    /// The flag's help: what it does, its rule and its default, and the profile key it overrides.
    public var flagHelp: String { flagHelp(statingValues: true) }

    /// The flag's help; without its rule and default when `statingValues` is false (the option's type
    /// lists its values and default itself).
    public func flagHelp(statingValues: Bool) -> String {
        var text = help
        switch (statingValues, rule.isEmpty, defaultValue.isEmpty) {
        case (true, false, _): text += " (\(rule)" + (defaultValue.isEmpty ? ")" : "; default \(defaultValue))")
        case (true, true, false): text += " (default \(defaultValue))"
        default: break
        }
        if let profileKey { text += " Profile key: \(profileKey)." }
        return text
    }
}

/// The table of run settings, in the order a written profile lists them.
public enum RunSettings {
    /// The setting named `key`.
    public static subscript(_ key: ConfigKey) -> RunSetting {
        guard let s = all.first(where: { $0.key == key }) else { preconditionFailure("no run setting \(key)") }
        return s
    }

    /// The setting whose profile key is `profileKey`.
    public static func profile(_ profileKey: String) -> RunSetting? { all.first { $0.profileKey == profileKey } }

    /// The top-level keys a profile may have.
    public static var profileKeys: [String] {
        var keys: [String] = []
        for s in all { if let k = s.profileKey?.split(separator: ".").first.map(String.init), !keys.contains(k) { keys.append(k) } }
        return keys
    }

    /// The settings `sweep --vary` can vary, by profile key.
    public static var varied: [RunSetting] { all.filter(\.varies) }

    /// A string as YAML text: plain when YAML reads it back as that same string (a name or a path
    /// starting with a letter, `_` or `/`, and no YAML word), else quoted as JSON.
    static func text(_ s: String) -> String {
        let plain = s.range(of: "^[A-Za-z_/][A-Za-z0-9_./+-]*$", options: .regularExpression) != nil
            && !["true", "false", "yes", "no", "on", "off", "null", "y", "n"].contains(s.lowercased())
        return plain ? s : json(s)
    }

    static func json<T: Encodable>(_ v: T) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? e.encode(v)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    static func number(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) }

    static func millis(_ ms: Int64) -> String { "\(ms)ms" }

    static func seconds(_ s: Double) -> String { millis(Int64((s * 1000).rounded())) }

    private static func s(_ key: ConfigKey, commandLineOnly: Bool = false, flag: String? = nil, profileOnly: String? = nil, report: String,
                          value: String? = nil, default d: String = "", range: SettingRange? = nil, rule: String = "", example: String? = nil,
                          help: String, varies: Bool = false, load: ProfileRead? = nil,
                          _ read: @escaping @Sendable (RunConfig) -> String?) -> RunSetting {
        RunSetting(key: key, profileKey: commandLineOnly ? nil : key.rawValue, flag: flag, profileOnly: profileOnly,
                   reportPath: report, valueName: value, defaultValue: d, rule: (range?.text ?? "") + rule, help: help, varies: varies,
                   load: load, profileValue: read, range: range, example: example)
    }

    private static func both(_ key: ConfigKey, flag: String, report: String, value: String? = nil, default d: String = "",
                             range: SettingRange? = nil, rule: String = "", example: String? = nil,
                             help: String, varies: Bool = false, load: ProfileRead? = nil,
                             _ read: @escaping @Sendable (RunConfig) -> String?) -> RunSetting {
        s(key, flag: flag, report: report, value: value, default: d, range: range, rule: rule, example: example, help: help,
          varies: varies, load: load, read)
    }

    private static let workloadOnly = "what is replayed is the profile's; a run varies how it is sent"

    /// Every run setting.
    public static let all: [RunSetting] = [
        s(.name, profileOnly: "names the profile", report: "name", help: "The profile's name.") { text($0.name) },
        s(.description, profileOnly: "describes the profile", report: "description", help: "Free text.", load: .text { $0.description = $1 }) { $0.description.map(json) },
        s(.workload, profileOnly: workloadOnly, report: "workload.name", rule: "the recipe's name, or mix",
          help: "The rules that turn the recording's events into pushes.") { text($0.workload.name) },
        s(.stream, profileOnly: workloadOnly, report: "workload.stream", help: "The NDJSON recording, relative to the profile's folder.") {
            $0.workload.mix == nil ? text($0.workload.stream) : nil
        },
        s(.recipe, profileOnly: workloadOnly, report: "workload.recipe", help: "The recipe: the app's events, state and push rules (docs/recipes.md), relative to the profile's folder.") {
            $0.workload.mix == nil ? $0.workload.recipe.map(text) : nil
        },
        s(.pushType, profileOnly: workloadOnly, report: "workload.pushType", default: "liveactivity",
          rule: PushType.allCases.map(\.rawValue).joined(separator: ", "), help: "apns-push-type.") {
            $0.workload.mix == nil ? $0.workload.pushType.rawValue : nil
        },
        s(.bundleID, profileOnly: workloadOnly, report: "workload.bundleID", help: "The app's bundle id; the topic is this plus the push type's suffix.") {
            $0.workload.mix == nil ? text($0.workload.bundleID) : nil
        },
        s(.mix, profileOnly: workloadOnly, report: "workload.mix", range: SettingRange(2, Double(RunConfig.Workload.mixPartLimit)), rule: " parts",
          help: "With workload: mix, the recordings replayed together, each {recipe, stream, bundle_id, push_type} and its own activity_model.") {
            $0.workload.mix.map { parts in "[" + parts.map(mixPart).joined(separator: ", ") + "]" }
        },
        s(.activityModel, profileOnly: workloadOnly, report: "workload.activityModel.path",
          help: "The app's ActivityKit model (a Swift file) every Live Activity push is checked against.") {
            $0.workload.mix == nil ? $0.workload.activityModel.map { text($0.path) } : nil
        },
        s(.activityModelType, profileOnly: workloadOnly, report: "workload.activityModel.attributesType",
          help: "The attributes struct's name, when the model file declares several.") {
            $0.workload.mix == nil ? $0.workload.activityModel?.attributesType.map(text) : nil
        },
        s(.dateDecoding, profileOnly: workloadOnly, report: "workload.activityModel.dateDecoding", default: "deferredToDate",
          rule: RunConfig.DateDecoding.allCases.map(\.rawValue).joined(separator: ", "), help: "How the app's decoder reads Date values.") {
            $0.workload.mix == nil ? $0.workload.activityModel.map(\.dateDecoding.rawValue) : nil
        },
        s(.activityModelFlags, profileOnly: workloadOnly, report: "workload.activityModel.flags", default: "not given: DEBUG unset, other flags unknown",
          rule: "a list of flag names", help: "The custom compilation flags of the app's build (Active Compilation Conditions), for the model file's #if blocks; [DEBUG] for a Debug build.") {
            $0.workload.mix == nil ? $0.workload.activityModel?.flags.map { "[" + $0.map(text).joined(separator: ", ") + "]" } : nil
        },
        s(.deadTokens, profileOnly: workloadOnly, report: "workload.deadTokens",
          help: "A file of device tokens (one a line) the embedded simulator answers 410 Unregistered.") { $0.workload.deadTokens.map(text) },
        s(.badLines, profileOnly: workloadOnly, report: "workload.badLines", default: "skip", rule: "skip or stop",
          help: "What a bad stream line does: skip counts it and goes on; stop ends the run at it.", load: .text { c, text in
              let p: RunConfig.Workload.BadLinePolicy = try SettingText.choice(.badLines, text)
              c.workload.badLines = p
              // A mix's parts are read by the same policy.
              c.workload.mix = c.workload.mix?.map { var part = $0; part.badLines = p; return part }
          }) { $0.workload.badLines.rawValue },

        s(.target, commandLineOnly: true, flag: "--target", report: "target", value: "TARGET", default: "simulator",
          rule: "simulator, sandbox, production, or https://host:port (http:// for h2c)", example: "sandbox",
          help: "Where pushes go: the embedded simulator, APNs, or any APNs-like server.") { _ in nil }.overlay { c, o in if let v = o.target { c.target = v }; return false },
        both(.delivery, flag: "--delivery", report: "delivery", value: "MODE", default: "device", rule: "device or broadcast", example: "broadcast",
             help: "device: one push per device following a store; broadcast: one push per store's broadcast channel (iOS 18+; order-changes): the run creates one channel per store its recording subscribes activities to (input_push_channel), and deletes them at its end.",
             varies: true, load: .text { c, text in c.delivery = try SettingText.choice(.delivery, text) }) { $0.delivery?.rawValue }
            .overlay { c, o in if let v = o.delivery { c.delivery = v }; return o.delivery != nil }
            .varied { text, o in o.delivery = try SettingText.choice(.delivery, text) },
        both(.keepChannels, flag: "--keep-channels", report: "keepChannels",
             help: "Broadcast delivery: keep the channels the run created instead of deleting them at its end.", load: .bool { $0.keepChannels = $1 }) { $0.keepChannels.map { "\($0)" } }.overlay { c, o in if let v = o.keepChannels { c.keepChannels = v }; return o.keepChannels != nil },
        both(.connections, flag: "--connections", report: "transport.connections", value: "N", default: "1", range: SettingRange(1, 64),
             help: "HTTP/2 connections in all.", varies: true, load: .int { $0.transport.connections = $1 }) { "\($0.transport.connections)" }.overlay { c, o in if let v = o.connections { c.transport.connections = v }; return o.connections != nil }.varied { text, o in o.connections = try SettingText.wholeNumber(.connections, text) },
        both(.streams, flag: "--streams", report: "transport.streams", value: "N", default: "100", range: SettingRange(1, 1000), rule: "; APNs allows about 1000",
             help: "Concurrent streams per connection.", varies: true, load: .int { $0.transport.streams = $1 }) { "\($0.transport.streams)" }.overlay { c, o in if let v = o.streams { c.transport.streams = v }; return o.streams != nil }.varied { text, o in o.streams = try SettingText.wholeNumber(.streams, text) },
        both(.workers, flag: "--workers", report: "transport.workers", value: "N", default: "1", range: SettingRange(1, 64),
             rule: ": 4 per core (\(RunConfig.Transport.workerLimit()) here), and at most --connections",
             help: "Engine threads, each with its own libcurl multi handle, share of the connections (at least one each) and provider token; pushes to one device token always go to the same worker, so per-token order holds.",
             varies: true, load: .int { $0.transport.workers = $1 }) { "\($0.transport.workers)" }.overlay { c, o in if let v = o.workers { c.transport.workers = v }; return o.workers != nil }.varied { text, o in o.workers = try SettingText.wholeNumber(.workers, text) },
        s(.pushTimeout, profileOnly: "a push timeout is part of what a profile promises its recording", report: "transport.pushTimeoutMillis",
          default: "30000", range: SettingRange(1, 600_000), rule: " ms", help: "How long one push may take from send to answer before it counts as timed out, ms.", load: .int { $0.transport.pushTimeoutMillis = $1 }) {
            "\($0.transport.pushTimeoutMillis)"
        },
        both(.failFast, flag: "--fail-fast", report: "transport.failFastSeconds", value: "DURATION", default: "10s", range: SettingRange(1, 600), rule: " seconds", example: "30s",
             help: "While no request to the target has ever been answered, give up after DURATION of connect, DNS, TLS or ALPN failures and exit 1 naming the cause.", load: .duration { $0.transport.failFastSeconds = Double($1) / 1000 }) {
            $0.transport.failFastSeconds.map(seconds)
        }.overlay { c, o in if let v = o.failFastSeconds { c.transport.failFastSeconds = v }; return o.failFastSeconds != nil },
        both(.stallTimeout, flag: "--stall-timeout", report: "transport.stallTimeoutSeconds", value: "DURATION", default: "10s",
             range: SettingRange(1, 600), rule: " seconds, whole, and shorter than the push timeout; 0 turns it off", example: "20s",
             help: "The stall watchdog: when pushes on a connection have moved no byte for DURATION, give the connection up and retry its pushes by the retry policy; the report counts the stalls.", load: .wholeSeconds(zeroTurnsOff: true) { $0.transport.stallTimeoutSeconds = $1 }) {
            $0.transport.stallTimeoutSeconds.map { $0 == 0 ? "0" : "\($0)s" }
        }.overlay { c, o in if let v = o.stallTimeoutSeconds { c.transport.stallTimeoutSeconds = v }; return o.stallTimeoutSeconds != nil },
        s(.tokenRefresh, profileOnly: "APNs' token rules bound it; runs rarely change it", report: "auth.tokenRefreshMinutes", default: "50",
          range: SettingRange(20, 60, belowUpper: true), help: "Minutes between signings of the provider token.", load: .number { $0.auth.tokenRefreshMinutes = $1 }) { number($0.auth.tokenRefreshMinutes) },
        both(.priority, flag: "--priority", report: "payload.priority", value: "PRIORITY", default: "10", rule: "1, 5 or 10", example: "5",
             help: "apns-priority of pushes whose event does not choose one.", varies: true,
             load: .text { c, text in c.payload.priority = try SettingText.priority(.priority, text) }) { "\($0.payload.priority.rawValue)" }
            .overlay { c, o in if let v = o.priority { c.payload.priority = v }; return o.priority != nil }
            .varied { text, o in o.priority = try SettingText.priority(.priority, text) },
        both(.priorityOverride, flag: "--priority-override", report: "payload.priorityOverride", value: "PRIORITY[:SCOPE]",
             rule: "1, 5 or 10, then :all (the default) or :PUSH_TYPE", example: "5:liveactivity",
             help: "apns-priority of every push in the scope, whatever its event chose (--priority only sets it where the event chooses none): all pushes, or those of one push type (5:liveactivity: the Live Activity pushes). The report counts the pushes it reached and changed.", varies: true,
             load: .text { c, text in c.payload.priorityOverride = try SettingText.priorityOverride(.priorityOverride, text) }) { $0.payload.priorityOverride.map { json($0.description) } }
            .overlay { c, o in if let v = o.priorityOverride { c.payload.priorityOverride = v }; return o.priorityOverride != nil }
            .varied { text, o in o.priorityOverride = try SettingText.priorityOverride(.priorityOverride, text) },
        both(.expiration, flag: "--expiration", report: "payload.expirationSeconds", value: "SECONDS", range: SettingRange(0, 2_592_000), rule: " (30 days)",
             help: "apns-expiration: SECONDS after the run's start (0: deliver now or never); none sends no header.", load: .int { $0.payload.expirationSeconds = $1 }) {
            $0.payload.expirationSeconds.map { "\($0)" }
        }.overlay { c, o in if let v = o.expirationSeconds { c.payload.expirationSeconds = v }; return o.expirationSeconds != nil },
        both(.collapseID, flag: "--collapse-id", report: "payload.collapseID", value: "ID", rule: "1-64 bytes", example: "c1",
             help: "apns-collapse-id on every push.", load: .text { $0.payload.collapseID = $1 }) { $0.payload.collapseID.map(json) }.overlay { c, o in if let v = o.collapseID { c.payload.collapseID = v }; return o.collapseID != nil },
        s(.schedule, flag: "--closed-loop", report: "schedule.mode.kind", default: "closed-loop", rule: "closed-loop, recorded, rate or ramp",
          help: "Closed loop: as fast as the in-flight window (connections x streams) allows. In a profile, schedule: closed-loop, recorded (with speed), rate (with rate) or ramp (with ramp).") {
            switch $0.schedule.mode {
            case .closedLoop: return "closed-loop"
            case .recorded: return "recorded"
            case .fixedRate: return "rate"
            case .ramp: return "ramp"
            }
        }.overlay { c, o in if let v = o.schedule { c.schedule.mode = v }; return o.schedule == .closedLoop },
        both(.speed, flag: "--speed", report: "schedule.mode.speed", value: "X", example: "60",
             help: "Open loop at the recorded times, X times faster (e.g. 60: an hour in a minute).") {
            if case let .recorded(x) = $0.schedule.mode { return number(x) } else { return nil }
        }.overlay { _, o in if case .recorded? = o.schedule { return true } else { return false } },
        both(.rate, flag: "--rate", report: "schedule.mode.perSecond", value: "R", example: "50", help: "Open loop at a fixed rate of R pushes a second.") {
            if case let .fixedRate(r) = $0.schedule.mode { return number(r) } else { return nil }
        }.overlay { _, o in if case .fixedRate? = o.schedule { return true } else { return false } },
        both(.ramp, flag: "--ramp", report: "schedule.mode.from", value: "FROM:TO:SECONDS", example: "10:100:30",
             help: "Open loop at a rate rising from FROM to TO pushes a second over SECONDS.") {
            if case let .ramp(a, b, t) = $0.schedule.mode { return "\"\(number(a)):\(number(b)):\(number(t))\"" } else { return nil }
        }.overlay { _, o in if case .ramp? = o.schedule { return true } else { return false } },
        both(.duration, flag: "--duration", report: "schedule.durationSeconds", value: "DURATION", example: "30s",
             help: "Stop sending after DURATION (this also ends a ramp). Pushes due after the end count as not sent 'after_end' and are not judged (the SLO's shares are of the pushes due); pushes due before it that wait to be sent or resent get 5 s more, and those still not sent then count as 'run_stopped'.", load: .duration { $0.schedule.durationSeconds = Double($1) / 1000 }) { $0.schedule.durationSeconds.map(seconds) }.overlay { c, o in if let v = o.durationSeconds { c.schedule.durationSeconds = v }; return o.durationSeconds != nil },
        RunSetting(key: .loopRecording, profileKey: "loop_recording", flag: "--loop", profileOnly: nil, reportPath: "schedule.loopRecording",
                   valueName: nil, defaultValue: "", rule: "",
                   help: "With --duration: replay the recording again, time-shifted, each time it runs out before the duration ends (the same tokens and payloads).",
                   varies: false, load: .bool { $0.schedule.loopRecording = $1 ? true : nil }) { $0.schedule.loopRecording.map { "\($0)" } }.overlay { c, o in if let v = o.loopRecording { c.schedule.loopRecording = v ? true : nil }; return o.loopRecording != nil },
        both(.coalesce, flag: "--coalesce", report: "coalescing.windowMillis", value: "DURATION", rule: "a duration like 250ms; 0 turns it off", example: "250ms",
             help: "Collapse Live Activity updates to the same token within this window of recorded time to the latest.", varies: true,
             load: .text { c, text in let ms = try SettingText.window(.coalesce, text); c.coalescing.windowMillis = ms > 0 ? ms : nil }) {
            $0.coalescing.windowMillis.map(millis)
        }.overlay { c, o in if let v = o.coalesceMillis { c.coalescing.windowMillis = v > 0 ? v : nil }; return o.coalesceMillis != nil }
        .varied { text, o in o.coalesceMillis = try SettingText.window(.coalesce, text) },
        both(.retryAttempts, flag: "--retry-attempts", report: "retry.attempts", value: "N", default: "10", range: SettingRange(1, 100), rule: ", 1 = never retry",
             help: "Attempts per push in all: 5xx, 429 and transport errors back off 1, 2, 4, 8 s ... within 5 minutes.", load: .int { $0.retry.attempts = $1 }) { "\($0.retry.attempts)" }.overlay { c, o in if let v = o.retryAttempts { c.retry.attempts = v }; return o.retryAttempts != nil },
        s(.retryBackoff, profileOnly: "part of the retry policy a profile states", report: "retry.backoffMillis", default: "1s",
          rule: "a duration", help: "Delay before the second attempt; each further one doubles, up to 60 s.", load: .duration { c, ms in
              c.retry.backoffMillis = ms
              c.retry.maxBackoffMillis = max(c.retry.maxBackoffMillis, ms)
          }) { millis($0.retry.backoffMillis) },
        s(.retryMaxElapsed, profileOnly: "part of the retry policy a profile states", report: "retry.maxElapsedMillis", default: "5m",
          rule: "a duration", help: "No retry later than this long after the first send.", load: .duration { $0.retry.maxElapsedMillis = $1 }) { millis($0.retry.maxElapsedMillis) },
        both(.sloP99, flag: "--slo-p99-ms", report: "slo.p99Millis", value: "MS", range: SettingRange(1, 3_600_000),
             help: "SLO: p99 response time (from the intended send) at most MS milliseconds.", load: .int { $0.slo.p99Millis = $1 }) { $0.slo.p99Millis.map { "\($0)" } }.overlay { c, o in if let v = o.sloP99Millis { c.slo.p99Millis = v }; return o.sloP99Millis != nil },
        both(.sloMinDelivered, flag: "--slo-min-delivered", report: "slo.minDelivered", value: "SHARE", range: SettingRange(0, 1),
             help: "SLO: at least this share of the pushes owed delivered (not owed: coalesced, nobody to receive, dead tokens, due after the end).", load: .number { $0.slo.minDelivered = $1 }) { $0.slo.minDelivered.map(number) }.overlay { c, o in if let v = o.sloMinDelivered { c.slo.minDelivered = v }; return o.sloMinDelivered != nil },
        both(.sloMaxErrorShare, flag: "--slo-max-error-share", report: "slo.maxErrorShare", value: "CLASS=SHARE", range: SettingRange(0, 1), rule: " for each class", example: "rejected=0.5",
             help: "SLO: at most this share of the pushes owed in a class: rejected, failed, timed_out, not_sent or errors (the first three together); repeat the flag for several (laid over the profile's classes).") {
            $0.slo.maxErrorShare.map(json)
        }.overlay { c, o in
            // Laid over the profile's classes one by one.
            if let v = o.sloMaxErrorShare { c.slo.maxErrorShare = (c.slo.maxErrorShare ?? [:]).merging(v) { _, flag in flag } }
            return o.sloMaxErrorShare != nil
        },
        both(.sloMaxWouldNotDecode, flag: "--slo-max-would-not-decode", report: "slo.maxWouldNotDecode", value: "SHARE", range: SettingRange(0, 1),
             help: "SLO: at most this share of delivered pushes the device would not decode, checked against the profile's activity_model.", load: .number { $0.slo.maxWouldNotDecode = $1 }) {
            $0.slo.maxWouldNotDecode.map(number)
        }.overlay { c, o in if let v = o.sloMaxWouldNotDecode { c.slo.maxWouldNotDecode = v }; return o.sloMaxWouldNotDecode != nil },
        both(.sloP99TimeToDevice, flag: "--slo-p99-time-to-device-ms", report: "slo.p99TimeToDeviceMillis", value: "MS", range: SettingRange(1, 2_592_000_000),
             help: "SLO, with a device model (simulator device:): p99 time to device of the pushes shown, from the intended send, at most MS milliseconds of recorded time.",
             load: .int { $0.slo.p99TimeToDeviceMillis = $1 }) { $0.slo.p99TimeToDeviceMillis.map { "\($0)" } }
            .overlay { c, o in if let v = o.sloP99TimeToDeviceMillis { c.slo.p99TimeToDeviceMillis = v }; return o.sloP99TimeToDeviceMillis != nil },
        both(.sloMaxThrottledShare, flag: "--slo-max-throttled-share", report: "slo.maxThrottledShare", value: "SHARE", range: SettingRange(0, 1),
             help: "SLO, with a device model (simulator device:): at most this share of delivered pushes throttled on the device (past a Live Activity budget).",
             load: .number { $0.slo.maxThrottledShare = $1 }) { $0.slo.maxThrottledShare.map(number) }
            .overlay { c, o in if let v = o.sloMaxThrottledShare { c.slo.maxThrottledShare = v }; return o.sloMaxThrottledShare != nil },
        both(.reportInterval, flag: "--report-interval", report: "reportIntervalSeconds", value: "DURATION", default: "1s", range: SettingRange(1, 3600), rule: " seconds, whole", example: "5s",
             help: "The report timeline's interval.", load: .wholeSeconds(zeroTurnsOff: false) { $0.reportIntervalSeconds = $1 }) { $0.reportIntervalSeconds.map { "\($0)s" } }.overlay { c, o in if let v = o.reportIntervalSeconds { c.reportIntervalSeconds = v }; return o.reportIntervalSeconds != nil },
        both(.liveActivityBudget, flag: "--live-activity-budget", report: "liveActivityBudget", value: "N", default: "10", range: SettingRange(0, 1_000_000), rule: ", 0 counts nothing",
             help: "The Live Activity budget the report judges the recording by: priority-10 updates one activity may get per rolling hour of recorded time before iOS throttles (an assumption, Apple does not publish it).", load: .int { $0.liveActivityBudget = $1 }) {
            $0.liveActivityBudget.map { "\($0)" }
        }.overlay { c, o in if let v = o.liveActivityBudget { c.liveActivityBudget = v }; return o.liveActivityBudget != nil },
        s(.simulator, profileOnly: "the APNs model and faults are many keys; --apns-model names a model", report: "simulator.settings",
          help: "The embedded simulator's settings (the keys of apnsbench simulate --config): the APNs model's latency, capacity and faults.") {
            $0.simulator.settings.map(\.json)
        },
        RunSetting(key: .fastSimulator, profileKey: "simulator.fast", flag: "--fast-simulator", profileOnly: nil, reportPath: "simulator.fast",
                   valueName: nil, defaultValue: "", rule: "",
                   help: "Run the embedded simulator in fast mode: 200 for everything, no validation, so the numbers are the client's.",
                   varies: false, load: nil) { $0.simulator.fast ? "true" : nil }.overlay { c, o in if let v = o.fastSimulator { c.simulator.fast = v }; return o.fastSimulator == true },
        RunSetting(key: .apnsModel, profileKey: "simulator.model", flag: "--apns-model", profileOnly: nil, reportPath: "simulator.model",
                   valueName: "NAME|FILE", defaultValue: "", rule: "\(APNsModel.names.joined(separator: ", ")) or a model file (apnsbench model fit)",
                   help: "The APNs model for the embedded simulator: latency, round trip, per-connection capacity with queueing, shedding (assumptions, not Apple's figures). The profile's simulator: keys go over it.",
                   varies: false, load: nil) { $0.simulator.model.map(json) }.overlay { c, o in if let v = o.apnsModel { c.simulator.model = v }; return o.apnsModel != nil }
            .withExample(APNsModel.names.first),
        RunSetting(key: .allowProductionLoad, profileKey: nil, flag: "--allow-production-load", profileOnly: nil, reportPath: "allowProductionLoad",
                   valueName: nil, defaultValue: "", rule: "",
                   help: "Allow more than 100 pushes/s to production APNs (also closed-loop and recorded-time schedules, whose rate is unbounded). Real devices receive them; without this flag such a run is refused. Sandbox needs no flag.",
                   varies: false, load: nil) { _ in nil }.overlay { c, o in if let v = o.allowProductionLoad { c.allowProductionLoad = v }; return o.allowProductionLoad != nil || o.target == .production },
        RunSetting(key: .shard, profileKey: nil, flag: "--shard", profileOnly: nil, reportPath: "shard", valueName: "I/N", defaultValue: "", rule: "",
                   help: "Be shard I of N (0-based): read the whole stream, apply every event, send only the pushes whose device token hashes to I; an open-loop rate is split 1/N. Merge the shards' reports with `apnsbench merge`.",
                   varies: false, load: nil) { _ in nil }.overlay { c, o in if let v = o.shard { c.shard = v }; return o.shard != nil }.withExample("1/2"),
    ]

    /// One part of a mix, as JSON (a flow mapping in YAML).
    static func mixPart(_ w: RunConfig.Workload) -> String {
        var fields: [String: MixPartValue] = [
            "workload": .text(w.name), "stream": .text(w.stream), "recipe": .text(w.recipe ?? ""), "bundle_id": .text(w.bundleID),
            "push_type": .text(w.pushType.rawValue),
        ]
        if let m = w.activityModel {
            fields["activity_model"] = .text(m.path)
            fields["date_decoding"] = .text(m.dateDecoding.rawValue)
            if let t = m.attributesType { fields["activity_model_type"] = .text(t) }
            if let f = m.flags { fields["activity_model_flags"] = .list(f) }
        }
        return json(fields)
    }

    /// A mix part's value: a string, or a list of them (`activity_model_flags`).
    enum MixPartValue: Encodable {
        case text(String)
        case list([String])

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let value): try container.encode(value)
            case .list(let values): try container.encode(values)
            }
        }
    }
}
