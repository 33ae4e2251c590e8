import APNsCore
import APNsSimulator
import XCTest

/// The simulator's keys that named their unit are durations now (`goaway_after: 10s`), read in the grammar of
/// durations; the former names (`goaway_after_seconds: 10`) are read still, a number of the unit, with a
/// one-line notice naming the new key; reports keep the former names.
final class SimulatorDurationKeysTests: XCTestCase {
    private let current = """
        provider_token_lifetime: 30m
        provider_token_min_rotation: 0
        token_update_penalty: 90s
        devices:
          rate_limit: { pushes: 5, window: 1.5s }
        live_activity: { budget_window: 2h }
        faults:
          clock_step: { after: 1m, by: 1h1m40s }
          goaway_after: 10s
          idle_timeout: 250ms
          settings_delay: 0.5ms
          latency: { fixed: 20ms }
          round_trip: 1.5ms
          capacity: { per_connection_per_second: 100, overload_after: 2s }
          latency_spike: { fraction: 0.01, by: 3s }
        device:
          wake_interval: 2m
          power_first_deferral: 30m
          online: 1h
          offline: 90s
          storage: 48h
          ended_activity: 8h
          on_time: 250ms
        """

    private let former = """
        provider_token_lifetime_seconds: 1800
        provider_token_min_rotation_seconds: 0
        token_update_penalty_seconds: 90
        devices:
          rate_limit: { pushes: 5, window_seconds: 1.5 }
        live_activity: { budget_window_seconds: 7200 }
        faults:
          clock_step: { after_seconds: 60, by_seconds: 3700 }
          goaway_after_seconds: 10
          idle_timeout_seconds: 0.25
          settings_delay_ms: 0.5
          latency: { fixed_ms: 20 }
          round_trip_ms: 1.5
          capacity: { per_connection_per_second: 100, overload_after_ms: 2000 }
          latency_spike: { fraction: 0.01, ms: 3000 }
        device:
          wake_interval_seconds: 120
          power_first_deferral_seconds: 1800
          online_seconds: 3600
          offline_seconds: 90
          storage_seconds: 172800
          ended_activity_seconds: 28800
          on_time_ms: 250
        """

    func testDurationKeysSetWhatTheirFormerNamesSet() throws {
        var a = SimulatorConfiguration(), b = SimulatorConfiguration()
        try SimulatorConfigFile.apply(yaml: current, file: "new.yaml", to: &a)
        try SimulatorConfigFile.apply(yaml: former, file: "old.yaml", to: &b)
        XCTAssertEqual(a.providerTokenLifetime, 1800)
        XCTAssertEqual(a.tokenUpdatePenalty, 90)
        XCTAssertEqual(a.deviceRegistry.rateLimit, .init(pushes: 5, windowSeconds: 1.5))
        XCTAssertEqual(a.liveActivity.budgetWindowSeconds, 7200)
        XCTAssertEqual(a.faults.goAwayAfterSeconds, 10)
        XCTAssertEqual(a.faults.idleTimeoutSeconds, 0.25)
        XCTAssertEqual(a.faults.settingsDelayMilliseconds, 0.5)
        XCTAssertEqual(a.faults.latency, .fixed(milliseconds: 20))
        XCTAssertEqual(a.faults.roundTripMilliseconds, 1.5)
        XCTAssertEqual(a.faults.capacity?.overloadAfterMilliseconds, 2000)
        XCTAssertEqual(a.faults.latencySpike?.milliseconds, 3000)
        XCTAssertEqual(a.device?.wakeIntervalSeconds, 120)
        XCTAssertEqual(a.device?.storageSeconds, 172_800)
        XCTAssertEqual(a.device?.onTimeMillis, 250)
        XCTAssertEqual(SimulatorKeys.effectiveValues(of: a), SimulatorKeys.effectiveValues(of: b))
        XCTAssertEqual(try SimulatorConfigFile.deprecations(yaml: current, file: "new.yaml"), [])
    }

    func testEachFormerNameGetsOneLine() throws {
        XCTAssertEqual(try SimulatorConfigFile.deprecations(yaml: former, file: "old.yaml"), [
            "old.yaml:1: 'provider_token_lifetime_seconds' is deprecated: write 'provider_token_lifetime: 30m'",
            "old.yaml:2: 'provider_token_min_rotation_seconds' is deprecated: write 'provider_token_min_rotation: 0'",
            "old.yaml:3: 'token_update_penalty_seconds' is deprecated: write 'token_update_penalty: 90s'",
            "old.yaml:5: 'window_seconds' is deprecated: write 'window: 1500ms'",
            "old.yaml:6: 'budget_window_seconds' is deprecated: write 'budget_window: 2h'",
            "old.yaml:12: 'fixed_ms' is deprecated: write 'fixed: 20ms'",
            "old.yaml:13: 'round_trip_ms' is deprecated: write 'round_trip: 1.5ms'",
            "old.yaml:14: 'overload_after_ms' is deprecated: write 'overload_after: 2s'",
            "old.yaml:15: 'ms' is deprecated: write 'by: 3s'",
            "old.yaml:8: 'after_seconds' is deprecated: write 'after: 1m'",
            "old.yaml:8: 'by_seconds' is deprecated: write 'by: 3700s'",
            "old.yaml:9: 'goaway_after_seconds' is deprecated: write 'goaway_after: 10s'",
            "old.yaml:10: 'idle_timeout_seconds' is deprecated: write 'idle_timeout: 250ms'",
            "old.yaml:11: 'settings_delay_ms' is deprecated: write 'settings_delay: 0.5ms'",
            "old.yaml:17: 'wake_interval_seconds' is deprecated: write 'wake_interval: 2m'",
            "old.yaml:18: 'power_first_deferral_seconds' is deprecated: write 'power_first_deferral: 30m'",
            "old.yaml:19: 'online_seconds' is deprecated: write 'online: 1h'",
            "old.yaml:20: 'offline_seconds' is deprecated: write 'offline: 90s'",
            "old.yaml:21: 'storage_seconds' is deprecated: write 'storage: 48h'",
            "old.yaml:22: 'ended_activity_seconds' is deprecated: write 'ended_activity: 8h'",
            "old.yaml:23: 'on_time_ms' is deprecated: write 'on_time: 250ms'",
        ])
    }

    /// Reports name the values by their former keys, so a report's configuration stays as it was.
    func testReportsKeepTheFormerNames() throws {
        var c = SimulatorConfiguration()
        try SimulatorConfigFile.apply(yaml: "faults: { goaway_after: 10s, settings_delay: 250ms, round_trip: 20ms, latency: { fixed: 5ms } }",
                                      file: "s.yaml", to: &c)
        let effective = SimulatorKeys.effectiveValues(of: c)
        XCTAssertEqual(effective["faults.goaway_after_seconds"], "10")
        XCTAssertEqual(effective["faults.settings_delay_ms"], "250")
        XCTAssertEqual(effective["faults.round_trip_ms"], "20")
        XCTAssertEqual(effective["faults.latency.fixed_ms"], "5")
        XCTAssertNil(effective["faults.goaway_after"])
        XCTAssertNil(effective["faults.round_trip"])
    }

    /// A model file (`model fit`'s writer) writes the new names, as durations.
    func testTheWriterWritesDurations() throws {
        var c = SimulatorConfiguration()
        try SimulatorConfigFile.apply(yaml: "faults: { goaway_after_seconds: 90, settings_delay_ms: 0.5 }", file: "s.yaml", to: &c)
        let written = SimulatorKeys.settings(of: c)
        XCTAssertEqual(written, .object(["faults": .object(["goaway_after": .string("90s"), "settings_delay": .string("0.5ms")])]))
    }
}
