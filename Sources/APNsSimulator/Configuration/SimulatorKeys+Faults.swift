import APNsCore
import DeviceDelivery

extension SimulatorKeys {
    static let faults: [K] = [
        K("faults.latency", .section(.init(exactlyOne: true)), default: "none", "server time before an answer: one of the three below"),
        .duration("faults.latency.fixed", formerly: "fixed_ms", 0...600_000, unitMillis: 1, \.faults.fixedMilliseconds, default: "", "always this long"),
        .leaf("faults.latency.uniform_ms", .pair(0...600_000), \.faults.uniformMilliseconds, default: "", "uniform between the two, ms",
              read: { if case let .pair(lo, hi) = $0 { (lo, hi) } else { nil } },
              write: { $0.map { .array([.double($0.min), .double($0.max)]) } }),
        K("faults.latency.lognormal_ms", .section(.init()), "lognormal with this median and 99th percentile, ms") { c, _, _ in
            c.faults.latency = .lognormal(p50Milliseconds: 0, p99Milliseconds: 0)
        },
        .number("faults.latency.lognormal_ms.p50", 0.001...600_000, \.faults.lognormalP50, default: "", "the median").needed(),
        .leaf("faults.latency.lognormal_ms.p99", .numberFrom("p50", upTo: 600_000), \.faults.lognormalP99, default: "", "the 99th percentile",
              read: { $0.number ?? 0 }, write: { .double($0) }).needed(),
        .duration("faults.round_trip", formerly: "round_trip_ms", 0...600_000, unitMillis: 1, \.faults.roundTripMilliseconds, default: "0",
                  "added to every answer: the network's share"),
        K("faults.capacity", .section(.init(example: "{per_connection_per_second: 2000}")), default: "none",
          "each connection serves its requests first come first served at a rate, so they queue past it") { c, _, _ in
            c.faults.capacity = FaultInjection.Capacity(perConnectionPerSecond: 0)
        },
        .number("faults.capacity.per_connection_per_second", 0.001...10_000_000, \.faults.capacityOrNew.perConnectionPerSecond, default: "",
                "requests a second one connection serves").needed(),
        .duration("faults.capacity.overload_after", formerly: "overload_after_ms", 0...600_000, unitMillis: 1, \.faults.capacityOrNew.overloadAfterMilliseconds,
                  default: "1s", "past this wait in the queue a request is overloaded"),
        .number("faults.capacity.overload_503_fraction", 0...1, \.faults.capacityOrNew.overloadServiceUnavailableFraction, default: "0",
                "this share of overloaded requests is answered 503 at once"),
    ] + RequestFault.allCases.map { fault -> K in
        .number(fault.key, 0...1, \.faults.requestFaults[fault], default: "0", fault.help)
    } + [
        K("faults.latency_spike", .section(.init(example: "{fraction: 0.01, by: 2s}")), default: "none",
          "this share of answers waits this much more") { c, _, _ in
            c.faults.latencySpike = (0, 0)
        },
        .number("faults.latency_spike.fraction", 0...1, \.faults.spikeFraction, default: "", "the share").needed(),
        .duration("faults.latency_spike.by", formerly: "ms", 0...600_000, unitMillis: 1, \.faults.spikeMilliseconds, default: "", "the wait").needed(),
        K("faults.clock_step", .section(.init(example: "{after: 1m, by: 3700s}")), default: "none",
          "the wall clock jumps forward once (provider tokens age at once)") { c, _, _ in
            c.faults.clockStep = .init(afterSeconds: 0, bySeconds: 0)
        },
        .duration("faults.clock_step.after", formerly: "after_seconds", 0...1e9, unitMillis: 1000, \.faults.clockStepOrNew.afterSeconds, default: "",
                  "when, after the simulator started").needed(),
        .duration("faults.clock_step.by", formerly: "by_seconds", 0...1e9, unitMillis: 1000, \.faults.clockStepOrNew.bySeconds, default: "",
                  "by how much").needed(),
        .integer("faults.goaway_after_streams", 1...Int.max, \.faults.goAwayAfterStreams, default: "never",
                 "GOAWAY Shutdown once a connection has answered this many streams"),
        .duration("faults.goaway_after", formerly: "goaway_after_seconds", 0.001...1e9, unitMillis: 1000, \.faults.goAwayAfterSeconds, default: "never",
                  "GOAWAY Shutdown this long after a connection opened"),
        .duration("faults.idle_timeout", formerly: "idle_timeout_seconds", 0.001...1e9, unitMillis: 1000, \.faults.idleTimeoutSeconds, default: "never",
                  "GOAWAY IdleTimeout after a connection had no request for this long"),
        .duration("faults.settings_delay", formerly: "settings_delay_ms", 0...600_000, unitMillis: 1, \.faults.settingsDelayMilliseconds, default: "0",
                  "hold the server's first SETTINGS (and everything after it) this long"),
    ]

    /// The device model's keys (``DeviceDeliveryParameters``), each over its default.
    static let device: [K] = [
        .duration("device.wake_interval", formerly: "wake_interval_seconds", 0.001...1e9, unitMillis: 1000, \.deviceModel.wakeIntervalSeconds,
                  default: "10m", "mean time between opportunistic wakes (assumption)"),
        .duration("device.power_first_deferral", formerly: "power_first_deferral_seconds", 0.001...1e9, unitMillis: 1000,
                  \.deviceModel.powerFirstDeferralSeconds, default: "1h", "priority 1's least wait (assumption)"),
        .duration("device.online", formerly: "online_seconds", 0.001...1e9, unitMillis: 1000, \.deviceModel.onlineSeconds, default: "1h",
                  "mean online period of the devices that go offline (assumption)"),
        .duration("device.offline", formerly: "offline_seconds", 0.001...1e9, unitMillis: 1000, \.deviceModel.offlineSeconds, default: "15m",
                  "mean offline period of those (assumption)"),
        .duration("device.storage", formerly: "storage_seconds", 0.001...1e9, unitMillis: 1000, \.deviceModel.storageSeconds, default: "720h",
                  "how long APNs stores a push without `apns-expiration` (Apple: 30 days)"),
        .number("device.activity_budget_per_hour", 0.001...1e9, \.deviceModel.activityBudgetPerHour, default: "10",
                "an activity's priority-10 budget an hour (assumption: Apple gives no size)"),
        .number("device.frequent_budget_per_hour", 0.001...1e9, \.deviceModel.frequentBudgetPerHour, default: "60",
                "the budget with frequent updates (assumption)"),
        .number("device.push_to_start_per_hour", 0.001...1e9, \.deviceModel.pushToStartPerHour, default: "10",
                "push-to-start's budget (assumption; Apple's engineers speak of about 10 in a short time)"),
        .duration("device.ended_activity", formerly: "ended_activity_seconds", 0.001...1e9, unitMillis: 1000, \.deviceModel.endedActivitySeconds,
                  default: "4h", "how long an ended activity stays without a `dismissal-date` (Apple: up to 4 hours)"),
        .integer("device.activity_budget_burst", 1...1_000_000, \.deviceModel.activityBudgetBurst, default: "10", "the budget's burst (assumption)"),
        .integer("device.frequent_budget_burst", 1...1_000_000, \.deviceModel.frequentBudgetBurst, default: "30",
                 "the burst with frequent updates (assumption)"),
        .integer("device.push_to_start_burst", 1...1_000_000, \.deviceModel.pushToStartBurst, default: "10", "push-to-start's burst (assumption)"),
        .leaf("device.on_time", .duration(0...86_400_000, unitMillis: 1), \.deviceModel.onTimeMillis, default: "1s",
              "shown within this of the intended send: on time; later: late (assumption)",
              read: { Int64(($0.number ?? 0).rounded()) }, write: { .double(Double($0)) }).formerly("on_time_ms"),
        .number("device.offline_share", 0...1, \.deviceModel.offlineShare, default: "0", "share of devices that go offline now and then (assumption)"),
        .flag("device.frequent_updates", \.deviceModel.frequentUpdates, default: "false",
              "the app sets `NSSupportsLiveActivitiesFrequentUpdates` and the user allows it"),
        .choice("device.throttle", \.deviceModel.throttle, default: "drop", "an update past the budget: `drop` or `delay` (assumption)"),
        .seed("device.seed", \.deviceModel.seed, "seeds the per-device draws (wakes, offline periods)"),
    ]
}

extension SimulatorConfiguration {
    /// The device model's parameters, its defaults when it has none (set: the model is on).
    var deviceModel: DeviceDeliveryParameters {
        get { device ?? DeviceDeliveryParameters() }
        set { device = newValue }
    }
}

/// Where the keys under a fault's section keep their values: the fault's parts, a new one's when the
/// configuration has none (its section's key sets one before its keys are read).
extension FaultInjection {
    var fixedMilliseconds: Double? {
        get { if case let .fixed(ms) = latency { ms } else { nil } }
        set { if let newValue { latency = .fixed(milliseconds: newValue) } }
    }

    var uniformMilliseconds: (min: Double, max: Double)? {
        get { if case let .uniform(lo, hi) = latency { (lo, hi) } else { nil } }
        set { if let newValue { latency = .uniform(minMilliseconds: newValue.min, maxMilliseconds: newValue.max) } }
    }

    var lognormalP50: Double {
        get { if case let .lognormal(p50, _) = latency { p50 } else { 0 } }
        set { latency = .lognormal(p50Milliseconds: newValue, p99Milliseconds: lognormalP99) }
    }

    var lognormalP99: Double {
        get { if case let .lognormal(_, p99) = latency { p99 } else { 0 } }
        set { latency = .lognormal(p50Milliseconds: lognormalP50, p99Milliseconds: newValue) }
    }

    var capacityOrNew: Capacity {
        get { capacity ?? Capacity(perConnectionPerSecond: 0) }
        set { capacity = newValue }
    }

    var spikeFraction: Double {
        get { latencySpike?.fraction ?? 0 }
        set { latencySpike = (newValue, spikeMilliseconds) }
    }

    var spikeMilliseconds: Double {
        get { latencySpike?.milliseconds ?? 0 }
        set { latencySpike = (spikeFraction, newValue) }
    }

    var clockStepOrNew: ClockStep {
        get { clockStep ?? ClockStep(afterSeconds: 0, bySeconds: 0) }
        set { clockStep = newValue }
    }
}

extension DeviceRegistry {
    /// Where `devices.rate_limit`'s keys keep their values (a new limit's when there is none).
    var rateLimitOrNew: RateLimit {
        get { rateLimit ?? RateLimit(pushes: 0, windowSeconds: 0) }
        set { rateLimit = newValue }
    }
}
