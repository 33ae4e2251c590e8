import APNsCore
import Foundation
import XCTest

/// The one table of run settings: every setting has one profile key and one flag (or says why it has
/// none), a place in the report's configuration, and no two settings share a spelling.
final class RunSettingsTests: XCTestCase {
    func testEveryConfigKeyIsInTheTableOnce() {
        for key in ConfigKey.allCases {
            XCTAssertEqual(RunSettings.all.filter { $0.key == key }.count, 1, "\(key)")
        }
        XCTAssertEqual(RunSettings.all.count, ConfigKey.allCases.count)
    }

    func testEveryProfileKeyHasAFlagOrSaysWhyItIsProfileOnly() {
        for s in RunSettings.all where s.profileKey != nil {
            XCTAssertTrue(s.flag != nil || s.profileOnly != nil, "\(s.profileKey!) has no flag and no reason")
            if s.flag != nil { XCTAssertNil(s.profileOnly, "\(s.profileKey!) has a flag and calls itself profile-only") }
        }
        for s in RunSettings.all where s.profileKey == nil {
            XCTAssertNotNil(s.flag, "\(s.key) is set nowhere")
        }
    }

    func testSpellingsAreUnique() {
        let flags = RunSettings.all.compactMap(\.flag), keys = RunSettings.all.compactMap(\.profileKey)
        XCTAssertEqual(Set(flags).count, flags.count, "\(flags)")
        XCTAssertEqual(Set(keys).count, keys.count, "\(keys)")
        XCTAssertEqual(Set(RunSettings.all.map(\.reportPath)).count, RunSettings.all.count)
        for f in flags { XCTAssertTrue(f.hasPrefix("--"), f) }
    }

    /// The profile keys and flags are those profiles, scripts and baselines already use.
    func testTheSpellingsInUseAreKept() {
        XCTAssertEqual(Set(RunSettings.profileKeys), [
            "name", "description", "workload", "stream", "recipe", "push_type", "bundle_id", "priority",
            "expiration_seconds", "connections", "streams", "workers", "token_refresh_minutes", "push_timeout_ms", "bad_lines",
            "schedule", "speed", "rate", "ramp", "dead_tokens", "coalesce", "collapse_id",
            "retry_attempts", "retry_backoff", "retry_max_elapsed", "slo_p99_ms", "slo_min_delivered", "duration",
            "capacity_peak_per_second", "capacity_min_headroom",
            "slo_max_error_share", "report_interval", "fail_fast", "stall_timeout", "simulator",
            "live_activity_budget", "delivery", "keep_channels", "mix", "loop_recording",
            "activity_model", "activity_model_type", "date_decoding", "activity_model_flags", "slo_max_would_not_decode",
            "priority_override", "slo_p99_time_to_device_ms", "slo_max_throttled_share",
        ])
        XCTAssertEqual(RunSettings[.pushTimeout].reportPath, "transport.pushTimeoutMillis")
        XCTAssertEqual(RunSettings[.connections].flag, "--connections")
        XCTAssertEqual(ConfigKey.loopRecording.flag, "--loop")
        XCTAssertNil(ConfigKey.pushTimeout.flag)
        XCTAssertEqual(RunSettings.varied.compactMap(\.profileKey),
            ["delivery", "connections", "streams", "workers", "priority", "priority_override", "coalesce"])
    }

    /// A flag is its setting's key with dashes (`--fail-fast` for `fail_fast`), as the table's rows name it, but
    /// for the few the table spells otherwise.
    func testAFlagIsItsKeyUnlessTheTableSpellsIt() {
        var spelled: [String: String] = [:]
        for s in RunSettings.all {
            guard let flag = s.flag, flag != "--" + s.key.rawValue.replacingOccurrences(of: "_", with: "-") else { continue }
            spelled[s.key.rawValue] = flag
        }
        XCTAssertEqual(spelled, ["schedule": "--closed-loop", "loop_recording": "--loop", "expiration_seconds": "--expiration"])
    }

    /// `sweep --vary` reads each value through its setting's row: the value lands where the flag's would,
    /// and a value that is not one is refused by the row's rule.
    func testEveryVariedSettingReadsItsValuesAndOnlyThose() throws {
        for setting in RunSettings.all {
            XCTAssertEqual(setting.varies, setting.varyValue != nil, "\(setting.key): varies, and only then reads a varied value")
        }
        func read(_ key: ConfigKey, _ text: String) throws -> RunConfigOverrides {
            var o = RunConfigOverrides()
            try XCTUnwrap(RunSettings[key].varyValue)(text, &o)
            return o
        }
        XCTAssertEqual(try read(.connections, "4").connections, 4)
        XCTAssertEqual(try read(.streams, "250").streams, 250)
        XCTAssertEqual(try read(.workers, "2").workers, 2)
        XCTAssertEqual(try read(.priority, "5").priority, .powerAware)
        XCTAssertEqual(try read(.delivery, "broadcast").delivery, .broadcast)
        XCTAssertEqual(try read(.coalesce, "250ms").coalesceMillis, 250)
        XCTAssertEqual(try read(.coalesce, "0").coalesceMillis, 0, "0 turns coalescing off, as --coalesce 0 does")
        XCTAssertEqual(try read(.connections, "4").keys, [.connections], "the value is the flag's: an error about it names the flag")
        for (key, text) in [(ConfigKey.connections, "two"), (.priority, "7"), (.delivery, "carrier-pigeon"), (.coalesce, "soon"), (.workers, "1.5")] {
            XCTAssertThrowsError(try read(key, text), "\(key)=\(text)") { error in
                XCTAssertEqual((error as? RunConfigError)?.key, key)
                XCTAssertTrue("\(error)".contains(text), "\(error)")
            }
        }
    }

    /// A configuration with every setting given.
    static func full() -> RunConfig {
        var part = RunConfig.Workload(name: "leave-requests", stream: "a.ndjson", recipe: "a.yaml", bundleID: "com.a")
        part.activityModel = RunConfig.ActivityKitModelFile(path: "M.swift", sha256: "00", attributesType: "A", dateDecoding: .secondsSince1970,
                                                            flags: ["BETA"])
        var c = RunConfig(name: "t", profilePath: "p.yaml", workload: part)
        c.description = "d"
        c.workload.deadTokens = "dead.txt"
        c.workload.mix = [part, part]
        c.target = .sandbox
        c.delivery = .device
        c.keepChannels = false
        c.transport.failFastSeconds = 3
        c.transport.stallTimeoutSeconds = 5
        c.payload.expirationSeconds = 60
        c.payload.collapseID = "x"
        c.payload.priorityOverride = PriorityOverride(priority: .powerAware, scope: .pushType(.liveactivity))
        c.schedule.mode = .recorded(speed: 2)
        c.schedule.durationSeconds = 30
        c.schedule.loopRecording = true
        c.coalescing.windowMillis = 250
        c.slo.p99Millis = 100
        c.slo.minDelivered = 0.9
        c.slo.maxErrorShare = ["rejected": 0.1]
        c.slo.maxWouldNotDecode = 0
        c.slo.p99TimeToDeviceMillis = 60_000
        c.slo.maxThrottledShare = 0.05
        c.slo.capacityPeakPerSecond = 1000
        c.slo.capacityMinHeadroom = 1.5
        c.reportIntervalSeconds = 2
        c.liveActivityBudget = 5
        c.simulator.settings = .object(["seed": .int(1)])
        c.simulator.model = "near"
        c.allowProductionLoad = true
        c.shard = .init(index: 0, count: 2)
        return c
    }

    func testEveryReportPathIsInTheReportsConfiguration() throws {
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.full())) as! [String: Any]
        for s in RunSettings.all {
            var node: Any? = json
            for part in s.reportPath.split(separator: ".") {
                // A schedule's fields sit under its kind; a ramp's or rate's are checked in their own configuration.
                node = (node as? [String: Any])?[String(part)]
            }
            if [.rate, .ramp].contains(s.key) {
                var c = Self.full()
                c.schedule.mode = s.key == .rate ? .fixedRate(perSecond: 5) : .ramp(from: 1, to: 2, seconds: 3)
                let other = try JSONSerialization.jsonObject(with: JSONEncoder().encode(c)) as! [String: Any]
                node = s.reportPath.split(separator: ".").reduce(other as Any?) { ($0 as? [String: Any])?[String($1)] }
            }
            if s.key == .activityModel || s.key == .activityModelType || s.key == .dateDecoding || s.key == .activityModelFlags || s.key == .stream
                || s.key == .recipe || s.key == .pushType || s.key == .bundleID {
                // Present for the workload itself (a mix's are under `workload.mix`).
                var c = Self.full()
                c.workload.mix = nil
                let single = try JSONSerialization.jsonObject(with: JSONEncoder().encode(c)) as! [String: Any]
                node = s.reportPath.split(separator: ".").reduce(single as Any?) { ($0 as? [String: Any])?[String($1)] }
            }
            XCTAssertNotNil(node, "\(s.key): \(s.reportPath) is not in the configuration")
        }
    }

    /// The profile reader reads every one-value key through the table; only keys with structure (the
    /// workload and its parts, the schedule, the SLO's classes, the simulator section) are its own.
    func testOneValueKeysAreReadThroughTheTable() {
        let structured: Set = ["name", "workload", "stream", "recipe", "push_type", "bundle_id", "mix", "activity_model",
                               "activity_model_type", "date_decoding", "activity_model_flags", "dead_tokens", "schedule", "speed", "rate", "ramp",
                               "slo_max_error_share", "simulator", "simulator.fast", "simulator.model"]
        for s in RunSettings.all {
            guard let key = s.profileKey else { XCTAssertNil(s.load, "\(s.key) is not a profile key"); continue }
            XCTAssertEqual(s.load == nil, structured.contains(key), key)
        }
        var c = Self.full()
        XCTAssertThrowsError(try RunSettings[.priority].load!.apply(&c, .text("3"))) { XCTAssertEqual("\($0)", "'priority' must be 1, 5 or 10, found '3'") }
        try? RunSettings[.retryBackoff].load!.apply(&c, .millis(90_000))
        XCTAssertEqual(c.retry.backoffMillis, 90_000)
        XCTAssertEqual(c.retry.maxBackoffMillis, 90_000, "no delay is shorter than the first")
    }

    /// Every flag is laid over the profile by its own setting, and names itself when its value is wrong.
    func testEveryFlagIsLaidOverByItsSetting() {
        for s in RunSettings.all { XCTAssertEqual(s.overlay != nil, s.flag != nil, "\(s.key)") }
        var o = RunConfigOverrides()
        o.target = .sandbox
        o.connections = 3; o.streams = 4; o.workers = 2; o.priority = .powerAware; o.schedule = .fixedRate(perSecond: 5)
        o.durationSeconds = 2; o.loopRecording = true; o.coalesceMillis = 0; o.expirationSeconds = 1; o.collapseID = "c"
        o.retryAttempts = 2; o.fastSimulator = true; o.sloP99Millis = 9; o.sloMinDelivered = 0.5; o.sloMaxErrorShare = ["failed": 0.2]
        o.sloMaxWouldNotDecode = 0.1; o.reportIntervalSeconds = 3; o.failFastSeconds = 4; o.stallTimeoutSeconds = 5
        o.liveActivityBudget = 6; o.apnsModel = "far"; o.allowProductionLoad = true; o.shard = .init(index: 1, count: 2)
        o.delivery = .broadcast; o.keepChannels = true; o.priorityOverride = PriorityOverride(priority: .powerAware, scope: .pushType(.liveactivity))
        o.sloP99TimeToDeviceMillis = 60_000; o.sloMaxThrottledShare = 0.1
        let flagged = Set(RunSettings.all.filter { $0.flag != nil }.map(\.key)).subtracting([.target, .schedule, .speed, .ramp])
        XCTAssertEqual(o.keys, flagged)
        var profile = Self.full()
        profile.slo.maxErrorShare = ["rejected": 0.1, "failed": 0.9]
        let c = profile.overlaying(o)
        XCTAssertEqual(c.target, .sandbox)
        XCTAssertEqual(c.transport.connections, 3)
        XCTAssertEqual(c.schedule.mode, .fixedRate(perSecond: 5))
        XCTAssertNil(c.coalescing.windowMillis, "0 turns coalescing off")
        XCTAssertEqual(c.slo.maxErrorShare, ["rejected": 0.1, "failed": 0.2], "laid over the profile's classes one by one")
        XCTAssertEqual(c.simulator.model, "far")
        XCTAssertEqual(c.shard, .init(index: 1, count: 2))
        XCTAssertEqual(RunConfigOverrides().keys, [])
        var production = RunConfigOverrides()
        production.target = .production
        XCTAssertEqual(production.keys, [.allowProductionLoad], "a run sent to production names the opt-in flag")
    }

    func testTextIsQuotedWhereYAMLWouldReadItAsSomethingElse() {
        var c = Self.full()
        c.workload.mix = nil
        for (name, written) in [("order-changes", "name: order-changes"), ("profiles/x.ndjson", "name: profiles/x.ndjson"),
                                ("yes", "name: \"yes\""), ("0o17", "name: \"0o17\""), ("1_000", "name: \"1_000\""),
                                (".inf", "name: \".inf\""), ("a: b", "name: \"a: b\""), ("~", "name: \"~\"")] {
            c.name = name
            XCTAssertTrue(ProfileWriter.yaml(c).contains("\n" + written + "\n"), "\(name) as \(written)")
        }
    }

    func testFlagHelpStatesRuleDefaultAndProfileKey() {
        let help = RunSettings[.connections].flagHelp
        XCTAssertTrue(help.contains("1-64"), help)
        XCTAssertTrue(help.contains("default 1"), help)
        XCTAssertTrue(help.contains("Profile key: connections."), help)
    }

    func testAWrittenProfileSaysEverySettingTheConfigurationSets() {
        let text = ProfileWriter.yaml(Self.full())
        for key in ["name:", "mix:", "speed: 2", "duration: 30000ms", "loop_recording: true", "coalesce: 250ms", "stall_timeout: 5s",
                    "fail_fast: 3000ms", "slo_max_error_share: {\"rejected\":0.1}", "report_interval: 2s", "simulator: {\"seed\":1, \"model\": \"near\"}"] {
            XCTAssertTrue(text.contains(key), "\(key) in\n\(text)")
        }
        XCTAssertFalse(text.contains("\nstream:"), "a mix's streams are its parts'")
        XCTAssertTrue(text.contains(#""activity_model_flags":["BETA"]"#), "a part's flags are a list, as the profile reader takes them:\n\(text)")
        XCTAssertEqual(ProfileWriter.left(Self.full()), ["--target sandbox", "--allow-production-load", "--shard 0/2"])
    }
}
