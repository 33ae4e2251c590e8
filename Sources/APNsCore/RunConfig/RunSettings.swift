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

    /// A row; its profile key is the key's name unless `commandLineOnly`. A row whose value is kept in one place
    /// takes how it is read, written back and laid over from there (``RunSetting/kept(_:_:flag:spelled:)``).
    private static func s(_ key: ConfigKey, commandLineOnly: Bool = false, flag: String? = nil, profileOnly: String? = nil, report: String,
                          value: String? = nil, default d: String = "", range: SettingRange? = nil, rule: String = "", example: String? = nil,
                          help: String, varies: Bool = false, load: ProfileRead? = nil,
                          _ read: @escaping @Sendable (RunConfig) -> String? = { _ in nil }) -> RunSetting {
        RunSetting(key: key, profileKey: commandLineOnly ? nil : key.rawValue, flag: flag, profileOnly: profileOnly,
                   reportPath: report, valueName: value, defaultValue: d, rule: (range?.text ?? "") + rule, help: help, varies: varies,
                   load: load, profileValue: read, range: range, example: example)
    }

    /// A row with a flag (``flag(_:)``, or `flag`); its profile key is the key's name unless `commandLineOnly`.
    private static func both(_ key: ConfigKey, flag: String? = nil, commandLineOnly: Bool = false, report: String, value: String? = nil,
                             default d: String = "", range: SettingRange? = nil, rule: String = "", example: String? = nil,
                             help: String, varies: Bool = false, load: ProfileRead? = nil,
                             _ read: @escaping @Sendable (RunConfig) -> String? = { _ in nil }) -> RunSetting {
        s(key, commandLineOnly: commandLineOnly, flag: flag ?? self.flag(key), report: report, value: value, default: d, range: range,
          rule: rule, example: example, help: help, varies: varies, load: load, read)
    }

    /// The flag of a setting named as its key: `--fail-fast` for `fail_fast`.
    static func flag(_ key: ConfigKey) -> String { "--" + key.rawValue.replacingOccurrences(of: "_", with: "-") }

    /// The profile value of a setting of a one-recording workload; a mix's parts have their own (``mix``).
    private static func single(_ read: @escaping @Sendable (RunConfig.Workload) -> String?) -> @Sendable (RunConfig) -> String? {
        { $0.workload.mix == nil ? read($0.workload) : nil }
    }

    private static let workloadOnly = "what is replayed is the profile's; a run varies how it is sent"

    /// Every run setting.
    public static let all: [RunSetting] = profileRows + transportRows + payloadRows + scheduleRows + retryRows + sloRows + runRows

    /// What the profile describes: its name and what is replayed.
    private static let profileRows: [RunSetting] = [
        s(.name, profileOnly: "names the profile", report: "name", help: "The profile's name.") { text($0.name) },
        s(.description, profileOnly: "describes the profile", report: "description", help: "Free text.").kept(\.description, .quoted),
        s(.workload, profileOnly: workloadOnly, report: "workload.name", rule: "the recipe's name, or mix",
          help: "The rules that turn the recording's events into pushes.") { text($0.workload.name) },
        s(.stream, profileOnly: workloadOnly, report: "workload.stream", help: "The NDJSON recording, relative to the profile's folder.",
          single { text($0.stream) }),
        s(.recipe, profileOnly: workloadOnly, report: "workload.recipe",
          help: "The recipe: the app's events, state and push rules (docs/recipes.md), relative to the profile's folder.", single { $0.recipe.map(text) }),
        s(.pushType, profileOnly: workloadOnly, report: "workload.pushType", default: "liveactivity",
          rule: PushType.allCases.map(\.rawValue).joined(separator: ", "), help: "apns-push-type.", single { $0.pushType.rawValue }),
        s(.bundleID, profileOnly: workloadOnly, report: "workload.bundleID", help: "The app's bundle id; the topic is this plus the push type's suffix.",
          single { text($0.bundleID) }),
        s(.mix, profileOnly: workloadOnly, report: "workload.mix", range: SettingRange(2, Double(RunConfig.Workload.mixPartLimit)), rule: " parts",
          help: "With workload: mix, the recordings replayed together, each {recipe, stream, bundle_id, push_type} and its own activity_model.") {
            $0.workload.mix.map { parts in "[" + parts.map(mixPart).joined(separator: ", ") + "]" }
        },
        s(.activityModel, profileOnly: workloadOnly, report: "workload.activityModel.path",
          help: "The app's ActivityKit model (a Swift file) every Live Activity push is checked against.", single { $0.activityModel.map { text($0.path) } }),
        s(.activityModelType, profileOnly: workloadOnly, report: "workload.activityModel.attributesType",
          help: "The attributes struct's name, when the model file declares several.", single { $0.activityModel?.attributesType.map(text) }),
        s(.dateDecoding, profileOnly: workloadOnly, report: "workload.activityModel.dateDecoding", default: "deferredToDate",
          rule: RunConfig.DateDecoding.allCases.map(\.rawValue).joined(separator: ", "), help: "How the app's decoder reads Date values.",
          single { $0.activityModel.map(\.dateDecoding.rawValue) }),
        s(.activityModelFlags, profileOnly: workloadOnly, report: "workload.activityModel.flags", default: "not given: DEBUG unset, other flags unknown",
          rule: "a list of flag names",
          help: "The custom compilation flags of the app's build (Active Compilation Conditions), for the model file's #if blocks; [DEBUG] for a Debug build.",
          single { $0.activityModel?.flags.map { "[" + $0.map(text).joined(separator: ", ") + "]" } }),
        s(.deadTokens, profileOnly: workloadOnly, report: "workload.deadTokens",
          help: "A file of device tokens (one a line) the embedded simulator answers 410 Unregistered.") { $0.workload.deadTokens.map(text) },
        s(.badLines, profileOnly: workloadOnly, report: "workload.badLines", default: "skip", rule: "skip or stop",
          help: "What a bad stream line does: skip counts it and goes on; stop ends the run at it.", load: .text { c, text in
              let p: RunConfig.Workload.BadLinePolicy = try SettingText.choice(.badLines, text)
              c.workload.badLines = p
              // A mix's parts are read by the same policy.
              c.workload.mix = c.workload.mix?.map { var part = $0; part.badLines = p; return part }
          }) { $0.workload.badLines.rawValue },
    ]

    /// Where pushes go and over what: the target, the delivery, connections, streams, workers and their limits.
    private static let transportRows: [RunSetting] = [
        both(.target, commandLineOnly: true, report: "target", value: "TARGET", default: "simulator",
             rule: "simulator, sandbox, production, or https://host:port (http:// for h2c)", example: "sandbox",
             help: "Where pushes go: the embedded simulator, APNs, or any APNs-like server.")
            .overlay { c, o in if let v = o.target { c.target = v }; return false },
        s(.delivery, report: "delivery", value: "MODE", default: "device", rule: "device or broadcast", example: "broadcast",
          help: "device: one push per device following a store; broadcast: one push per store's broadcast channel (iOS 18+; order-changes): "
              + "the run creates one channel per store its recording subscribes activities to (input_push_channel), and deletes them at its end.",
          varies: true).kept(\.delivery, .choice, flag: \.delivery),
        s(.keepChannels, report: "keepChannels", help: "Broadcast delivery: keep the channels the run created instead of deleting them at its end.")
            .kept(\.keepChannels, .bool, flag: \.keepChannels),
        s(.connections, report: "transport.connections", value: "N", default: "1", range: SettingRange(1, 64), help: "HTTP/2 connections in all.",
          varies: true).kept(\.transport.connections, .whole, flag: \.connections),
        s(.streams, report: "transport.streams", value: "N", default: "100", range: SettingRange(1, 1000), rule: "; APNs allows about 1000",
          help: "Concurrent streams per connection.", varies: true).kept(\.transport.streams, .whole, flag: \.streams),
        s(.workers, report: "transport.workers", value: "N", default: "1", range: SettingRange(1, 64),
          rule: ": 4 per core (\(RunConfig.Transport.workerLimit()) here), and at most --connections",
          help: "Engine threads, each with its own libcurl multi handle, share of the connections (at least one each) and provider token; "
              + "pushes to one device token always go to the same worker, so per-token order holds.",
          varies: true).kept(\.transport.workers, .whole, flag: \.workers),
        s(.pushTimeout, profileOnly: "a push timeout is part of what a profile promises its recording", report: "transport.pushTimeoutMillis",
          default: "30000", range: SettingRange(1, 600_000), rule: " ms",
          help: "How long one push may take from send to answer before it counts as timed out, ms.").kept(\.transport.pushTimeoutMillis, .whole),
        s(.failFast, report: "transport.failFastSeconds", value: "DURATION", default: "10s", range: SettingRange(1, 600), rule: " seconds",
          example: "30s",
          help: "While no request to the target has ever been answered, give up after DURATION of connect, DNS, TLS or ALPN failures "
              + "and exit 1 naming the cause.").kept(\.transport.failFastSeconds, .seconds, flag: \.failFastSeconds),
        s(.stallTimeout, report: "transport.stallTimeoutSeconds", value: "DURATION", default: "10s", range: SettingRange(1, 600),
          rule: " seconds, whole, and shorter than the push timeout; 0 turns it off", example: "20s",
          help: "The stall watchdog: when pushes on a connection have moved no byte for DURATION, give the connection up and retry its pushes "
              + "by the retry policy; the report counts the stalls.")
            .kept(\.transport.stallTimeoutSeconds, .wholeSeconds(zeroTurnsOff: true), flag: \.stallTimeoutSeconds),
        s(.tokenRefresh, profileOnly: "APNs' token rules bound it; runs rarely change it", report: "auth.tokenRefreshMinutes", default: "50",
          range: SettingRange(20, 60, belowUpper: true), help: "Minutes between signings of the provider token.")
            .kept(\.auth.tokenRefreshMinutes, .number),
    ]

    /// What each push carries: its priority, expiration and collapse id.
    private static let payloadRows: [RunSetting] = [
        s(.priority, report: "payload.priority", value: "PRIORITY", default: "10", rule: "1, 5 or 10", example: "5",
          help: "apns-priority of pushes whose event does not choose one.", varies: true).kept(\.payload.priority, .priority, flag: \.priority),
        s(.priorityOverride, report: "payload.priorityOverride", value: "PRIORITY[:SCOPE]", rule: "1, 5 or 10, then :all (the default) or :PUSH_TYPE",
          example: "5:liveactivity",
          help: "apns-priority of every push in the scope, whatever its event chose (--priority only sets it where the event chooses none): "
              + "all pushes, or those of one push type (5:liveactivity: the Live Activity pushes). The report counts the pushes it reached and changed.",
          varies: true).kept(\.payload.priorityOverride, .priorityOverride, flag: \.priorityOverride),
        s(.expiration, report: "payload.expirationSeconds", value: "SECONDS", range: SettingRange(0, 2_592_000), rule: " (30 days)",
          help: "apns-expiration: SECONDS after the run's start (0: deliver now or never); none sends no header.")
            .kept(\.payload.expirationSeconds, .whole, flag: \.expirationSeconds, spelled: "--expiration"),
        s(.collapseID, report: "payload.collapseID", value: "ID", rule: "1-64 bytes", example: "c1", help: "apns-collapse-id on every push.")
            .kept(\.payload.collapseID, .quoted, flag: \.collapseID),
    ]

    /// When pushes are sent: the schedule, its end, looping the recording, coalescing.
    private static let scheduleRows: [RunSetting] = [
        s(.schedule, flag: "--closed-loop", report: "schedule.mode.kind", default: "closed-loop", rule: "closed-loop, recorded, rate or ramp",
          help: "Closed loop: as fast as the in-flight window (connections x streams) allows. "
              + "In a profile, schedule: closed-loop, recorded (with speed), rate (with rate) or ramp (with ramp).") {
            switch $0.schedule.mode {
            case .closedLoop: return "closed-loop"
            case .recorded: return "recorded"
            case .fixedRate: return "rate"
            case .ramp: return "ramp"
            }
        }.overlay { c, o in if let v = o.schedule { c.schedule.mode = v }; return o.schedule == .closedLoop },
        both(.speed, report: "schedule.mode.speed", value: "X", example: "60",
             help: "Open loop at the recorded times, X times faster (e.g. 60: an hour in a minute).") {
            if case let .recorded(x) = $0.schedule.mode { return number(x) } else { return nil }
        }.overlay { _, o in if case .recorded? = o.schedule { return true } else { return false } },
        both(.rate, report: "schedule.mode.perSecond", value: "R", example: "50", help: "Open loop at a fixed rate of R pushes a second.") {
            if case let .fixedRate(r) = $0.schedule.mode { return number(r) } else { return nil }
        }.overlay { _, o in if case .fixedRate? = o.schedule { return true } else { return false } },
        both(.ramp, report: "schedule.mode.from", value: "FROM:TO:SECONDS", example: "10:100:30",
             help: "Open loop at a rate rising from FROM to TO pushes a second over SECONDS.") {
            if case let .ramp(a, b, t) = $0.schedule.mode { return "\"\(number(a)):\(number(b)):\(number(t))\"" } else { return nil }
        }.overlay { _, o in if case .ramp? = o.schedule { return true } else { return false } },
        s(.duration, report: "schedule.durationSeconds", value: "DURATION", example: "30s",
          help: "Stop sending after DURATION (this also ends a ramp). Pushes due after the end count as not sent 'after_end' and are not judged "
              + "(the SLO's shares are of the pushes due); pushes due before it that wait to be sent or resent get 5 s more, "
              + "and those still not sent then count as 'run_stopped'.").kept(\.schedule.durationSeconds, .seconds, flag: \.durationSeconds),
        both(.loopRecording, flag: "--loop", report: "schedule.loopRecording",
             help: "With --duration: replay the recording again, time-shifted, each time it runs out before the duration ends "
                 + "(the same tokens and payloads).",
             load: .bool { $0.schedule.loopRecording = $1 ? true : nil }) { $0.schedule.loopRecording.map { "\($0)" } }
            .overlay { c, o in if let v = o.loopRecording { c.schedule.loopRecording = v ? true : nil }; return o.loopRecording != nil },
        both(.coalesce, report: "coalescing.windowMillis", value: "DURATION", rule: "a duration like 250ms; 0 turns it off", example: "250ms",
             help: "Collapse Live Activity updates to the same token within this window of recorded time to the latest.", varies: true,
             load: .text { c, text in let ms = try SettingText.window(.coalesce, text); c.coalescing.windowMillis = ms > 0 ? ms : nil }) {
            $0.coalescing.windowMillis.map(millis)
        }.overlay { c, o in if let v = o.coalesceMillis { c.coalescing.windowMillis = v > 0 ? v : nil }; return o.coalesceMillis != nil }
        .varied { text, o in o.coalesceMillis = try SettingText.window(.coalesce, text) },
    ]

    /// What is resent, and when.
    private static let retryRows: [RunSetting] = [
        s(.retryAttempts, report: "retry.attempts", value: "N", default: "10", range: SettingRange(1, 100), rule: ", 1 = never retry",
          help: "Attempts per push in all: 5xx, 429 and transport errors back off 1, 2, 4, 8 s ... within 5 minutes.")
            .kept(\.retry.attempts, .whole, flag: \.retryAttempts),
        s(.retryBackoff, profileOnly: "part of the retry policy a profile states", report: "retry.backoffMillis", default: "1s",
          rule: "a duration", help: "Delay before the second attempt; each further one doubles, up to 60 s.", load: .duration { c, ms in
              c.retry.backoffMillis = ms
              c.retry.maxBackoffMillis = max(c.retry.maxBackoffMillis, ms)
          }) { millis($0.retry.backoffMillis) },
        s(.retryMaxElapsed, profileOnly: "part of the retry policy a profile states", report: "retry.maxElapsedMillis", default: "5m",
          rule: "a duration", help: "No retry later than this long after the first send.").kept(\.retry.maxElapsedMillis, .millis),
    ]

    /// What the run is judged by.
    private static let sloRows: [RunSetting] = [
        s(.sloP99, report: "slo.p99Millis", value: "MS", range: SettingRange(1, 3_600_000),
          help: "SLO: p99 response time (from the intended send) at most MS milliseconds.").kept(\.slo.p99Millis, .whole, flag: \.sloP99Millis),
        s(.sloMinDelivered, report: "slo.minDelivered", value: "SHARE", range: SettingRange(0, 1),
          help: "SLO: at least this share of the pushes owed delivered (not owed: coalesced, nobody to receive, dead tokens, due after the end).")
            .kept(\.slo.minDelivered, .number, flag: \.sloMinDelivered),
        both(.sloMaxErrorShare, report: "slo.maxErrorShare", value: "CLASS=SHARE", range: SettingRange(0, 1), rule: " for each class",
             example: "rejected=0.5",
             help: "SLO: at most this share of the pushes owed in a class: rejected, failed, timed_out, not_sent or errors (the first three together); "
                 + "repeat the flag for several (laid over the profile's classes).") {
            $0.slo.maxErrorShare.map(json)
        }.overlay { c, o in
            // Laid over the profile's classes one by one.
            if let v = o.sloMaxErrorShare { c.slo.maxErrorShare = (c.slo.maxErrorShare ?? [:]).merging(v) { _, flag in flag } }
            return o.sloMaxErrorShare != nil
        },
        s(.sloMaxWouldNotDecode, report: "slo.maxWouldNotDecode", value: "SHARE", range: SettingRange(0, 1),
          help: "SLO: at most this share of delivered pushes the device would not decode, checked against the profile's activity_model.")
            .kept(\.slo.maxWouldNotDecode, .number, flag: \.sloMaxWouldNotDecode),
        s(.sloP99TimeToDevice, report: "slo.p99TimeToDeviceMillis", value: "MS", range: SettingRange(1, 2_592_000_000),
          help: "SLO, with a device model (simulator device:): p99 time to device of the pushes shown, from the intended send, "
              + "at most MS milliseconds of recorded time.").kept(\.slo.p99TimeToDeviceMillis, .whole, flag: \.sloP99TimeToDeviceMillis),
        s(.sloMaxThrottledShare, report: "slo.maxThrottledShare", value: "SHARE", range: SettingRange(0, 1),
          help: "SLO, with a device model (simulator device:): at most this share of delivered pushes throttled on the device "
              + "(past a Live Activity budget).").kept(\.slo.maxThrottledShare, .number, flag: \.sloMaxThrottledShare),
        s(.capacityPeak, profileOnly: "the sweep's (its --peak flag)", report: "slo.capacityPeakPerSecond", value: "RATE",
          range: SettingRange(0.001, 100_000_000),
          help: "Sweep: the peak the knee must carry, pushes a second; a knee under it (times capacity_min_headroom) misses it, exit 99.")
            .kept(\.slo.capacityPeakPerSecond, .number),
        s(.capacityMinHeadroom, profileOnly: "the sweep's (its --min-headroom flag)", report: "slo.capacityMinHeadroom", value: "X",
          range: SettingRange(1, 1000), help: "Sweep: the headroom over capacity_peak_per_second the knee must carry (default 1).")
            .kept(\.slo.capacityMinHeadroom, .number),
    ]

    /// The report, the embedded simulator, and what a run is allowed and given.
    private static let runRows: [RunSetting] = [
        s(.reportInterval, report: "reportIntervalSeconds", value: "DURATION", default: "1s", range: SettingRange(1, 3600), rule: " seconds, whole",
          example: "5s", help: "The report timeline's interval.")
            .kept(\.reportIntervalSeconds, .wholeSeconds(zeroTurnsOff: false), flag: \.reportIntervalSeconds),
        s(.liveActivityBudget, report: "liveActivityBudget", value: "N", default: "10", range: SettingRange(0, 1_000_000), rule: ", 0 counts nothing",
          help: "The Live Activity budget the report judges the recording by: priority-10 updates one activity may get per rolling hour "
              + "of recorded time before iOS throttles (an assumption, Apple does not publish it).")
            .kept(\.liveActivityBudget, .whole, flag: \.liveActivityBudget),
        s(.simulator, profileOnly: "the APNs model and faults are many keys; --apns-model names a model", report: "simulator.settings",
          help: "The embedded simulator's settings (the keys of apnsbench simulate --config): the APNs model's latency, capacity and faults.") {
            $0.simulator.settings.map(\.json)
        },
        both(.fastSimulator, report: "simulator.fast",
             help: "Run the embedded simulator in fast mode: 200 for everything, no validation, so the numbers are the client's.") {
            $0.simulator.fast ? "true" : nil
        }.inSection("simulator.fast").overlay { c, o in if let v = o.fastSimulator { c.simulator.fast = v }; return o.fastSimulator == true },
        s(.apnsModel, report: "simulator.model", value: "NAME|FILE",
          rule: "\(APNsLatencyModel.names.joined(separator: ", ")) or a model file (apnsbench model fit)", example: APNsLatencyModel.names.first,
          help: "The APNs model for the embedded simulator: latency, round trip, per-connection capacity with queueing, shedding "
              + "(assumptions, not Apple's figures). The profile's simulator: keys go over it.")
            .kept(\.simulator.model, .quoted, flag: \.apnsModel).inSection("simulator.model"),
        both(.allowProductionLoad, commandLineOnly: true, report: "allowProductionLoad",
             help: "Allow more than 100 pushes/s to production APNs (also closed-loop and recorded-time schedules, whose rate is unbounded). "
                 + "Real devices receive them; without this flag such a run is refused. Sandbox needs no flag.")
            .overlay { c, o in if let v = o.allowProductionLoad { c.allowProductionLoad = v }; return o.allowProductionLoad != nil || o.target == .production },
        both(.shard, commandLineOnly: true, report: "shard", value: "I/N", example: "1/2",
             help: "Be shard I of N (0-based): read the whole stream, apply every event, send only the pushes whose device token hashes to I; "
                 + "an open-loop rate is split 1/N. Merge the shards' reports with `apnsbench merge`.").overlay(\.shard, onto: \.shard),
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
