import Foundation

/// The table of run settings, in the order a written profile lists them.
public enum RunSettings {
    /// The setting named `key`.
    public static subscript(_ key: ConfigKey) -> RunSetting {
        guard let s = all.first(where: { $0.key == key }) else { preconditionFailure("no run setting \(key)") }
        return s
    }

    /// The setting whose profile key is `profileKey`.
    public static func profile(_ profileKey: String) -> RunSetting? { all.first { $0.profileKey == profileKey } }

    /// The top-level keys a profile may have (worked out once: a profile's every key is checked against them).
    public static let profileKeys: [String] = {
        var keys: [String] = []
        for s in all { if let k = s.profileKey?.split(separator: ".").first.map(String.init), !keys.contains(k) { keys.append(k) } }
        return keys
    }()

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

    /// A row; its profile key is the key's name unless `commandLineOnly`. A row whose value is kept in one place
    /// takes how it is read, written back and laid over from there (``RunSetting/kept(_:_:flag:)``).
    private static func s(_ key: ConfigKey, commandLineOnly: Bool = false, profileOnly: String? = nil, report: String,
                          value: String? = nil, default d: String = "", range: SettingRange? = nil, rule: String = "", example: String? = nil,
                          varies: Bool = false, load: ProfileRead? = nil,
                          _ read: @escaping @Sendable (RunConfig) -> String? = { _ in nil }) -> RunSetting {
        RunSetting(key: key, profileKey: commandLineOnly ? nil : key.rawValue, profileOnly: profileOnly,
                   reportPath: report, valueName: value, defaultValue: d, rule: (range?.text ?? "") + rule, varies: varies,
                   load: load, profileValue: read, range: range, example: example)
    }

    /// The profile value of a setting of a one-recording workload; a mix's parts have their own (``mix``).
    private static func single(_ read: @escaping @Sendable (RunConfig.Workload) -> String?) -> @Sendable (RunConfig) -> String? {
        { $0.workload.mix == nil ? read($0.workload) : nil }
    }

    private static let workloadOnly = "what is replayed is the profile's; a run varies how it is sent"

    /// Every run setting.
    public static let all: [RunSetting] = profileRows + transportRows + payloadRows + scheduleRows + retryRows + sloRows + runRows

    /// What the profile describes: its name and what is replayed.
    private static let profileRows: [RunSetting] = [
        s(.name, profileOnly: "names the profile", report: "name") { text($0.name) },
        s(.description, profileOnly: "describes the profile", report: "description").kept(\.description, .quoted),
        s(.workload, profileOnly: workloadOnly, report: "workload.name", rule: "the recipe's name, or mix") { text($0.workload.name) },
        s(.stream, profileOnly: workloadOnly, report: "workload.stream",
          single { text($0.stream) }),
        s(.recipe, profileOnly: workloadOnly, report: "workload.recipe", single { $0.recipe.map(text) }),
        s(.pushType, profileOnly: workloadOnly, report: "workload.pushType", default: "liveactivity",
          rule: PushType.allCases.map(\.rawValue).joined(separator: ", "), single { $0.pushType.rawValue }),
        s(.bundleID, profileOnly: workloadOnly, report: "workload.bundleID",
          single { text($0.bundleID) }),
        s(.mix, profileOnly: workloadOnly, report: "workload.mix", range: SettingRange(2, Double(RunConfig.Workload.mixPartLimit)), rule: " parts") {
            $0.workload.mix.map { parts in "[" + parts.map(mixPart).joined(separator: ", ") + "]" }
        },
        s(.activityModel, profileOnly: workloadOnly, report: "workload.activityModel.path", single { $0.activityModel.map { text($0.path) } }),
        s(.activityModelType, profileOnly: workloadOnly, report: "workload.activityModel.attributesType",
          single { $0.activityModel?.attributesType.map(text) }),
        s(.dateDecoding, profileOnly: workloadOnly, report: "workload.activityModel.dateDecoding", default: "deferredToDate",
          rule: RunConfig.DateDecoding.allCases.map(\.rawValue).joined(separator: ", "),
          single { $0.activityModel.map(\.dateDecoding.rawValue) }),
        s(.activityModelFlags, profileOnly: workloadOnly, report: "workload.activityModel.flags", default: "not given: DEBUG unset, other flags unknown",
          rule: "a list of flag names",
          single { $0.activityModel?.flags.map { "[" + $0.map(text).joined(separator: ", ") + "]" } }),
        s(.deadTokens, profileOnly: workloadOnly, report: "workload.deadTokens") { $0.workload.deadTokens.map(text) },
        s(.badLines, profileOnly: workloadOnly, report: "workload.badLines", default: "skip", rule: "skip or stop", load: .text { c, text in
              let p: RunConfig.Workload.BadLinePolicy = try SettingText.choice(.badLines, text)
              c.workload.badLines = p
              // A mix's parts are read by the same policy.
              c.workload.mix = c.workload.mix?.map { var part = $0; part.badLines = p; return part }
          }) { $0.workload.badLines.rawValue },
    ]

    /// Where pushes go and over what: the target, the delivery, connections, streams, workers and their limits.
    private static let transportRows: [RunSetting] = [
        s(.target, commandLineOnly: true, report: "target", value: "TARGET", default: "simulator",
             rule: "simulator, sandbox, production, or https://host:port (http:// for h2c)", example: "sandbox")
            .overlay { c, o in if let v = o.target { c.target = v }; return false },
        s(.delivery, report: "delivery", value: "MODE", default: "device", rule: "device or broadcast", example: "broadcast",
          varies: true).kept(\.delivery, .choice, flag: \.delivery),
        s(.keepChannels, report: "keepChannels")
            .kept(\.keepChannels, .bool, flag: \.keepChannels),
        s(.connections, report: "transport.connections", value: "N", default: "1", range: SettingRange(1, 64),
          varies: true).kept(\.transport.connections, .whole, flag: \.connections),
        s(.streams, report: "transport.streams", value: "N", default: "100", range: SettingRange(1, 1000), rule: "; APNs allows about 1000", varies: true)
            .kept(\.transport.streams, .whole, flag: \.streams),
        s(.workers, report: "transport.workers", value: "N", default: "1", range: SettingRange(1, 64),
          rule: ": 4 per core (\(RunConfig.Transport.workerLimit()) here), and at most --connections",
          varies: true).kept(\.transport.workers, .whole, flag: \.workers),
        s(.pushTimeout, profileOnly: "a push timeout is part of what a profile promises its recording", report: "transport.pushTimeoutMillis",
          default: "30s", range: SettingRange(.milliseconds(1), .seconds(600)))
            .kept(\.transport.pushTimeout, .written).formerly("push_timeout_ms", in: .milliseconds(1)),
        s(.failFast, report: "transport.failFastSeconds", value: "DURATION", default: "10s", range: SettingRange(1, 600), rule: " seconds",
          example: "30s").kept(\.transport.failFast, .duration, flag: \.failFast),
        s(.stallTimeout, report: "transport.stallTimeoutSeconds", value: "DURATION", default: "10s", range: SettingRange(1, 600),
          rule: " seconds, whole, and shorter than the push timeout; 0 turns it off", example: "20s")
            .kept(\.transport.stallTimeout, .wholeSeconds(zeroTurnsOff: true), flag: \.stallTimeout),
        s(.tokenRefresh, profileOnly: "APNs' token rules bound it; runs rarely change it", report: "auth.tokenRefreshMinutes", default: "50m",
          range: SettingRange(.seconds(20 * 60), .seconds(3600), belowUpper: true))
            .kept(\.auth.tokenRefresh, .written).formerly("token_refresh_minutes", in: .seconds(60)),
    ]

    /// What each push carries: its priority, expiration and collapse id.
    private static let payloadRows: [RunSetting] = [
        s(.priority, report: "payload.priority", value: "PRIORITY", default: "10", rule: "1, 5 or 10", example: "5", varies: true)
            .kept(\.payload.priority, .priority, flag: \.priority),
        s(.priorityOverride, report: "payload.priorityOverride", value: "PRIORITY[:SCOPE]", rule: "1, 5 or 10, then :all (the default) or :PUSH_TYPE",
          example: "5:liveactivity",
          varies: true).kept(\.payload.priorityOverride, .priorityOverride, flag: \.priorityOverride),
        s(.expiration, report: "payload.expirationSeconds", value: "DURATION", range: SettingRange(.zero, .seconds(2_592_000)),
          rule: " (30 days), whole seconds", example: "1h")
            .kept(\.payload.expiration, .wholeSeconds(zero: "0: deliver now or never"), flag: \.expiration)
            .formerly("expiration_seconds", in: .seconds(1)),
        s(.collapseID, report: "payload.collapseID", value: "ID", rule: "1-64 bytes", example: "c1")
            .kept(\.payload.collapseID, .quoted, flag: \.collapseID),
    ]

    /// When pushes are sent: the schedule, its end, looping the recording, coalescing.
    private static let scheduleRows: [RunSetting] = [
        s(.schedule, report: "schedule.mode.kind", default: "closed-loop", rule: "closed-loop, recorded, rate or ramp") {
            switch $0.schedule.mode {
            case .closedLoop: return "closed-loop"
            case .recorded: return "recorded"
            case .fixedRate: return "rate"
            case .ramp: return "ramp"
            }
        }.overlay { c, o in if let v = o.schedule { c.schedule.mode = v }; return o.schedule == .closedLoop },
        s(.speed, report: "schedule.mode.speed", value: "X", example: "60") {
            if case let .recorded(x) = $0.schedule.mode { return number(x) } else { return nil }
        }.overlay { _, o in if case .recorded? = o.schedule { return true } else { return false } },
        s(.rate, report: "schedule.mode.perSecond", value: "R", example: "50") {
            if case let .fixedRate(r) = $0.schedule.mode { return number(r) } else { return nil }
        }.overlay { _, o in if case .fixedRate? = o.schedule { return true } else { return false } },
        s(.ramp, report: "schedule.mode.from", value: "FROM:TO:SECONDS", example: "10:100:30") {
            if case let .ramp(a, b, t) = $0.schedule.mode { return "\"\(number(a)):\(number(b)):\(number(t))\"" } else { return nil }
        }.overlay { _, o in if case .ramp? = o.schedule { return true } else { return false } },
        s(.duration, report: "schedule.durationSeconds", value: "DURATION", example: "30s").kept(\.schedule.duration, .duration, flag: \.duration),
        s(.loopRecording, report: "schedule.loopRecording",
             load: .bool { $0.schedule.loopRecording = $1 ? true : nil }) { $0.schedule.loopRecording.map { "\($0)" } }
            .overlay { c, o in if let v = o.loopRecording { c.schedule.loopRecording = v ? true : nil }; return o.loopRecording != nil },
        s(.coalesce, report: "coalescing.windowMillis", value: "DURATION", rule: "a duration like 250ms; 0 turns it off", example: "250ms", varies: true,
             load: .text { c, text in let d = try SettingText.window(.coalesce, text); c.coalescing.window = d > .zero ? d : nil }) {
            $0.coalescing.window.map { millis($0.millis) }
        }.overlay { c, o in if let v = o.coalesce { c.coalescing.window = v > .zero ? v : nil }; return o.coalesce != nil }
        .varied { text, o in o.coalesce = try SettingText.window(.coalesce, text) },
    ]

    /// What is resent, and when.
    private static let retryRows: [RunSetting] = [
        s(.retryAttempts, report: "retry.attempts", value: "N", default: "10", range: SettingRange(1, 100), rule: ", 1 = never retry")
            .kept(\.retry.attempts, .whole, flag: \.retryAttempts),
        s(.retryBackoff, profileOnly: "part of the retry policy a profile states", report: "retry.backoffMillis", default: "1s",
          rule: "a duration", load: .duration { c, d in
              c.retry.backoff = d
              c.retry.maxBackoff = max(c.retry.maxBackoff, d)
          }) { millis($0.retry.backoff.millis) },
        s(.retryMaxElapsed, profileOnly: "part of the retry policy a profile states", report: "retry.maxElapsedMillis", default: "5m",
          rule: "a duration").kept(\.retry.maxElapsed, .duration),
    ]

    /// What the run is judged by.
    private static let sloRows: [RunSetting] = [
        s(.sloP99, report: "slo.p99Millis", value: "DURATION", range: SettingRange(.milliseconds(1), .seconds(3600)), example: "250ms")
            .kept(\.slo.p99, .duration, flag: \.sloP99).formerly("slo_p99_ms", in: .milliseconds(1)),
        s(.sloMinDelivered, report: "slo.minDelivered", value: "SHARE", range: SettingRange(0, 1))
            .kept(\.slo.minDelivered, .number, flag: \.sloMinDelivered),
        s(.sloMaxErrorShare, report: "slo.maxErrorShare", value: "CLASS=SHARE", range: SettingRange(0, 1), rule: " for each class",
             example: "rejected=0.5") {
            $0.slo.maxErrorShare.map(json)
        }.overlay { c, o in
            // Laid over the profile's classes one by one.
            if let v = o.sloMaxErrorShare { c.slo.maxErrorShare = (c.slo.maxErrorShare ?? [:]).merging(v) { _, flag in flag } }
            return o.sloMaxErrorShare != nil
        },
        s(.sloMaxWouldNotDecode, report: "slo.maxWouldNotDecode", value: "SHARE", range: SettingRange(0, 1))
            .kept(\.slo.maxWouldNotDecode, .number, flag: \.sloMaxWouldNotDecode),
        s(.sloP99TimeToDevice, report: "slo.p99TimeToDeviceMillis", value: "DURATION", range: SettingRange(.milliseconds(1), .seconds(2_592_000)),
          example: "1m")
            .kept(\.slo.p99TimeToDevice, .duration, flag: \.sloP99TimeToDevice).formerly("slo_p99_time_to_device_ms", in: .milliseconds(1)),
        s(.sloMaxThrottledShare, report: "slo.maxThrottledShare", value: "SHARE", range: SettingRange(0, 1))
            .kept(\.slo.maxThrottledShare, .number, flag: \.sloMaxThrottledShare),
        s(.capacityPeak, profileOnly: "the sweep's (its --peak flag)", report: "slo.capacityPeakPerSecond", value: "RATE",
          range: SettingRange(0.001, 100_000_000))
            .kept(\.slo.capacityPeakPerSecond, .number),
        s(.capacityMinHeadroom, profileOnly: "the sweep's (its --min-headroom flag)", report: "slo.capacityMinHeadroom", value: "X",
          range: SettingRange(1, 1000))
            .kept(\.slo.capacityMinHeadroom, .number),
    ]

    /// The report, the embedded simulator, and what a run is allowed and given.
    private static let runRows: [RunSetting] = [
        s(.reportInterval, report: "reportIntervalSeconds", value: "DURATION", default: "1s", range: SettingRange(1, 3600), rule: " seconds, whole",
          example: "5s")
            .kept(\.reportInterval, .wholeSeconds(zeroTurnsOff: false), flag: \.reportInterval),
        s(.liveActivityBudget, report: "liveActivityBudget", value: "N", default: "10", range: SettingRange(0, 1_000_000), rule: ", 0 counts nothing")
            .kept(\.liveActivityBudget, .whole, flag: \.liveActivityBudget),
        s(.simulator, profileOnly: "the APNs model and faults are many keys; --apns-model names a model", report: "simulator.settings") {
            $0.simulator.settings.map(\.json)
        },
        s(.fastSimulator, report: "simulator.fast") {
            $0.simulator.fast ? "true" : nil
        }.inSection("simulator.fast").overlay { c, o in if let v = o.fastSimulator { c.simulator.fast = v }; return o.fastSimulator == true },
        s(.apnsModel, report: "simulator.model", value: "NAME|FILE",
          rule: "\(APNsLatencyModel.names.joined(separator: ", ")) or a model file (apnsbench model fit)", example: APNsLatencyModel.names.first)
            .kept(\.simulator.model, .quoted, flag: \.apnsModel).inSection("simulator.model"),
        s(.allowProductionLoad, commandLineOnly: true, report: "allowProductionLoad")
            .overlay { c, o in if let v = o.allowProductionLoad { c.allowProductionLoad = v }; return o.allowProductionLoad != nil || o.target == .production },
        s(.shard, commandLineOnly: true, report: "shard", value: "I/N", example: "1/2").overlay(\.shard, onto: \.shard),
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
