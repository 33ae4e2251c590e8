import APNsCore
import Foundation
import XCTest

/// The one table of run settings: every setting has one profile key and a command-line value (or says why it has
/// none), a place in the report's configuration, and no two settings share a spelling. Its flag's name and help are
/// the command line's (`RunOptionsTests`' `RunSettingFlagsTests`).
final class RunSettingsTests: XCTestCase {
    func testEveryConfigKeyIsInTheTableOnce() {
        for key in ConfigKey.allCases {
            XCTAssertEqual(RunSettings.all.filter { $0.key == key }.count, 1, "\(key)")
        }
        XCTAssertEqual(RunSettings.all.count, ConfigKey.allCases.count)
    }

    func testEveryProfileKeyHasACommandLineValueOrSaysWhyItIsProfileOnly() {
        for s in RunSettings.all where s.profileKey != nil {
            XCTAssertTrue(s.overlay != nil || s.profileOnly != nil, "\(s.profileKey!) has no command-line value and no reason")
            if s.overlay != nil { XCTAssertNil(s.profileOnly, "\(s.profileKey!) has a command-line value and calls itself profile-only") }
        }
        for s in RunSettings.all where s.profileKey == nil {
            XCTAssertNotNil(s.overlay, "\(s.key) is set nowhere")
        }
    }

    func testSpellingsAreUnique() {
        let keys = RunSettings.all.compactMap(\.profileKey)
        XCTAssertEqual(Set(keys).count, keys.count, "\(keys)")
        XCTAssertEqual(Set(RunSettings.all.map(\.reportPath)).count, RunSettings.all.count)
    }

    /// The profile keys are those profiles, scripts and baselines already use.
    func testTheSpellingsInUseAreKept() {
        XCTAssertEqual(Set(RunSettings.profileKeys), [
            "name", "description", "workload", "stream", "recipe", "push_type", "bundle_id", "priority",
            "expiration", "connections", "streams", "workers", "token_refresh", "push_timeout", "bad_lines",
            "schedule", "speed", "rate", "ramp", "dead_tokens", "coalesce", "collapse_id",
            "retry_attempts", "retry_backoff", "retry_max_elapsed", "slo_p99", "slo_min_delivered", "duration",
            "capacity_peak_per_second", "capacity_min_headroom",
            "slo_max_error_share", "report_interval", "fail_fast", "stall_timeout", "simulator",
            "live_activity_budget", "delivery", "keep_channels", "mix", "loop_recording",
            "activity_model", "activity_model_type", "date_decoding", "activity_model_flags", "slo_max_would_not_decode",
            "priority_override", "slo_p99_time_to_device", "slo_max_throttled_share",
        ])
        // The keys that named their unit are read still, by their former names.
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: RunSettings.all.compactMap { s in s.formerKey.map { ($0.name, s.profileKey!) } }), [
            "push_timeout_ms": "push_timeout", "token_refresh_minutes": "token_refresh", "expiration_seconds": "expiration",
            "slo_p99_ms": "slo_p99", "slo_p99_time_to_device_ms": "slo_p99_time_to_device",
        ])
        XCTAssertEqual(RunSettings[.pushTimeout].reportPath, "transport.pushTimeoutMillis")
        XCTAssertNil(RunSettings[.pushTimeout].overlay, "a push timeout is the profile's")
        XCTAssertEqual(RunSettings.varied.compactMap(\.profileKey),
            ["delivery", "connections", "streams", "workers", "priority", "priority_override", "coalesce"])
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
        XCTAssertEqual(try read(.coalesce, "250ms").coalesce, .milliseconds(250))
        XCTAssertEqual(try read(.coalesce, "0").coalesce, .milliseconds(0), "0 turns coalescing off, as --coalesce 0 does")
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
        c.transport.failFast = .seconds(3)
        c.transport.stallTimeout = .seconds(5)
        c.payload.expiration = .seconds(60)
        c.payload.collapseID = "x"
        c.payload.priorityOverride = PriorityOverride(priority: .powerAware, scope: .pushType(.liveactivity))
        c.schedule.mode = .recorded(speed: 2)
        c.schedule.duration = .secondsRounded(30)
        c.schedule.loopRecording = true
        c.coalescing.window = .milliseconds(250)
        c.slo.p99 = .milliseconds(100)
        c.slo.minDelivered = 0.9
        c.slo.maxErrorShare = ["rejected": 0.1]
        c.slo.maxWouldNotDecode = 0
        c.slo.p99TimeToDevice = .milliseconds(60_000)
        c.slo.maxThrottledShare = 0.05
        c.slo.capacityPeakPerSecond = 1000
        c.slo.capacityMinHeadroom = 1.5
        c.reportInterval = .seconds(2)
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
        try? RunSettings[.retryBackoff].load!.apply(&c, .duration(.milliseconds(90_000)))
        XCTAssertEqual(c.retry.backoff, .milliseconds(90_000))
        XCTAssertEqual(c.retry.maxBackoff, .milliseconds(90_000), "no delay is shorter than the first")
    }

    /// Every command-line value is laid over the profile by its own setting, and names its key when it is wrong.
    func testEveryFlagIsLaidOverByItsSetting() {
        var o = RunConfigOverrides()
        o.target = .sandbox
        o.connections = 3; o.streams = 4; o.workers = 2; o.priority = .powerAware; o.schedule = .fixedRate(perSecond: 5)
        o.duration = .secondsRounded(2); o.loopRecording = true; o.coalesce = .milliseconds(0); o.expiration = .seconds(1); o.collapseID = "c"
        o.retryAttempts = 2; o.fastSimulator = true; o.sloP99 = .milliseconds(9); o.sloMinDelivered = 0.5; o.sloMaxErrorShare = ["failed": 0.2]
        o.sloMaxWouldNotDecode = 0.1; o.reportInterval = .seconds(3); o.failFast = .secondsRounded(4); o.stallTimeout = .seconds(5)
        o.liveActivityBudget = 6; o.apnsModel = "far"; o.allowProductionLoad = true; o.shard = .init(index: 1, count: 2)
        o.delivery = .broadcast; o.keepChannels = true; o.priorityOverride = PriorityOverride(priority: .powerAware, scope: .pushType(.liveactivity))
        o.sloP99TimeToDevice = .milliseconds(60_000); o.sloMaxThrottledShare = 0.1
        let flagged = Set(RunSettings.all.filter { $0.overlay != nil }.map(\.key)).subtracting([.target, .schedule, .speed, .ramp])
        XCTAssertEqual(o.keys, flagged)
        var profile = Self.full()
        profile.slo.maxErrorShare = ["rejected": 0.1, "failed": 0.9]
        let c = profile.overlaying(o)
        XCTAssertEqual(c.target, .sandbox)
        XCTAssertEqual(c.transport.connections, 3)
        XCTAssertEqual(c.schedule.mode, .fixedRate(perSecond: 5))
        XCTAssertNil(c.coalescing.window, "0 turns coalescing off")
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
