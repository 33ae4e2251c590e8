import APNsCore

extension SimulatorKeys {
    static let faults: [K] = [
        K("faults.latency", .section(.init(needs: "needs exactly one of fixed_ms, uniform_ms, lognormal_ms", exactlyOne: true)), default: "none",
          "server time before an answer: one of `fixed_ms`, `uniform_ms`, `lognormal_ms`").writing { c in
            switch c.faults.latency {
            case .none: nil
            case let .fixed(ms): .object(["fixed_ms": .double(ms)])
            case let .uniform(lo, hi): .object(["uniform_ms": .array([.double(lo), .double(hi)])])
            case let .lognormal(p50, p99): .object(["lognormal_ms": .object(["p50": .double(p50), "p99": .double(p99)])])
            }
        },
        K("faults.latency.fixed_ms", .number(0...600_000), "always this many ms") { c, v, _ in
            c.faults.latency = .fixed(milliseconds: v.number ?? 0)
        },
        K("faults.latency.uniform_ms", .pair(0...600_000), "uniform between the two, ms") { c, v, _ in
            guard case let .pair(lo, hi) = v else { return }
            c.faults.latency = .uniform(minMilliseconds: lo, maxMilliseconds: hi)
        },
        K("faults.latency.lognormal_ms", .section(.init(required: ["p50", "p99"], needs: "needs p50 and p99")),
          "lognormal with this median and 99th percentile, ms").finishing { c, v in
            c.faults.latency = .lognormal(p50Milliseconds: v["p50"]?.number ?? 0, p99Milliseconds: v["p99"]?.number ?? 0)
        },
        K("faults.latency.lognormal_ms.p50", .number(0.001...600_000), "the median (required)"),
        K("faults.latency.lognormal_ms.p99", .numberFrom("p50", upTo: 600_000), "the 99th percentile (required)"),
        .number("faults.round_trip_ms", 0...600_000, \.faults.roundTripMilliseconds, default: "0", "added to every answer: the network's share"),
        K("faults.capacity", .section(.init(required: ["per_connection_per_second"],
                                            needs: "needs per_connection_per_second, like {per_connection_per_second: 2000}")), default: "none",
          "each connection serves its requests first come first served at a rate, so they queue past it").finishing { c, v in
            c.faults.capacity = .init(perConnectionPerSecond: v["per_connection_per_second"]?.number ?? 0,
                                      overloadAfterMilliseconds: v["overload_after_ms"]?.number ?? 0,
                                      overloadServiceUnavailableFraction: v["overload_503_fraction"]?.number ?? 0)
        }.writing { c in
            c.faults.capacity.map { p in
                .object(["per_connection_per_second": .double(p.perConnectionPerSecond), "overload_after_ms": .double(p.overloadAfterMilliseconds),
                         "overload_503_fraction": .double(p.overloadServiceUnavailableFraction)])
            }
        },
        K("faults.capacity.per_connection_per_second", .number(0.001...10_000_000), "requests a second one connection serves (required)"),
        K("faults.capacity.overload_after_ms", .number(0...600_000), default: "1000", "past this wait in the queue a request is overloaded"),
        K("faults.capacity.overload_503_fraction", .number(0...1), default: "0", "this share of overloaded requests is answered 503 at once"),
        .number("faults.internal_server_error_fraction", 0...1, \.faults.internalServerErrorFraction, default: "0",
                "share of valid requests answered 500 InternalServerError"),
        .number("faults.service_unavailable_fraction", 0...1, \.faults.serviceUnavailableFraction, default: "0",
                "share of valid requests answered 503 ServiceUnavailable"),
        .number("faults.too_many_requests_fraction", 0...1, \.faults.tooManyRequestsFraction, default: "0",
                "share of valid requests answered 429 TooManyRequests"),
        .number("faults.shutdown_fraction", 0...1, \.faults.shutdownFraction, default: "0",
                "share of valid requests answered 503 Shutdown, then GOAWAY"),
        .number("faults.connection_reset_fraction", 0...1, \.faults.connectionResetFraction, default: "0",
                "share of requests on which the connection is reset (TCP RST, no answer)"),
        .number("faults.stall_fraction", 0...1, \.faults.stallFraction, default: "0",
                "share of requests on which the connection goes silent: it reads and answers nothing more"),
        K("faults.latency_spike", .section(.init(required: ["fraction", "ms"], needs: "needs fraction and ms, like {fraction: 0.01, ms: 2000}")),
          default: "none", "this share of answers waits this much more").finishing { c, v in
            c.faults.latencySpike = (v["fraction"]?.number ?? 0, v["ms"]?.number ?? 0)
        }.writing { c in
            c.faults.latencySpike.map { .object(["fraction": .double($0.fraction), "ms": .double($0.milliseconds)]) }
        },
        K("faults.latency_spike.fraction", .number(0...1), "the share (required)"),
        K("faults.latency_spike.ms", .number(0...600_000), "the wait, ms (required)"),
        K("faults.clock_step", .section(.init(required: ["after_seconds", "by_seconds"],
                                              needs: "needs after_seconds and by_seconds, like {after_seconds: 60, by_seconds: 3700}")),
          default: "none", "the wall clock jumps forward once (provider tokens age at once)").finishing { c, v in
            c.faults.clockStep = .init(afterSeconds: v["after_seconds"]?.number ?? 0, bySeconds: v["by_seconds"]?.number ?? 0)
        }.writing { c in
            c.faults.clockStep.map { .object(["after_seconds": .double($0.afterSeconds), "by_seconds": .double($0.bySeconds)]) }
        },
        K("faults.clock_step.after_seconds", .number(0...1e9), "when, after the simulator started (required)"),
        K("faults.clock_step.by_seconds", .number(0...1e9), "by how much (required)"),
        .integer("faults.goaway_after_streams", 1...Int.max, \.faults.goAwayAfterStreams, default: "never",
                 "GOAWAY Shutdown once a connection has answered this many streams"),
        .number("faults.goaway_after_seconds", 0.001...1e9, \.faults.goAwayAfterSeconds, default: "never",
                "GOAWAY Shutdown this long after a connection opened"),
        .number("faults.idle_timeout_seconds", 0.001...1e9, \.faults.idleTimeoutSeconds, default: "never",
                "GOAWAY IdleTimeout after a connection had no request for this long"),
        .number("faults.settings_delay_ms", 0...600_000, \.faults.settingsDelayMilliseconds, default: "0",
                "hold the server's first SETTINGS (and everything after it) this long"),
    ]

    /// The device model's keys (``DeviceModelParameters``), each over its default.
    static let device: [K] = [
        .number("device.wake_interval_seconds", 0.001...1e9, \.deviceModel.wakeIntervalSeconds, default: "600",
                "mean time between opportunistic wakes (assumption)"),
        .number("device.power_first_deferral_seconds", 0.001...1e9, \.deviceModel.powerFirstDeferralSeconds, default: "3600",
                "priority 1's least wait (assumption)"),
        .number("device.online_seconds", 0.001...1e9, \.deviceModel.onlineSeconds, default: "3600",
                "mean online period of the devices that go offline (assumption)"),
        .number("device.offline_seconds", 0.001...1e9, \.deviceModel.offlineSeconds, default: "900", "mean offline period of those (assumption)"),
        .number("device.storage_seconds", 0.001...1e9, \.deviceModel.storageSeconds, default: "2592000",
                "how long APNs stores a push without `apns-expiration` (Apple: 30 days)"),
        .number("device.activity_budget_per_hour", 0.001...1e9, \.deviceModel.activityBudgetPerHour, default: "10",
                "an activity's priority-10 budget an hour (assumption: Apple gives no size)"),
        .number("device.frequent_budget_per_hour", 0.001...1e9, \.deviceModel.frequentBudgetPerHour, default: "60",
                "the budget with frequent updates (assumption)"),
        .number("device.push_to_start_per_hour", 0.001...1e9, \.deviceModel.pushToStartPerHour, default: "10",
                "push-to-start's budget (assumption; Apple's engineers speak of about 10 in a short time)"),
        .number("device.ended_activity_seconds", 0.001...1e9, \.deviceModel.endedActivitySeconds, default: "14400",
                "how long an ended activity stays without a `dismissal-date` (Apple: up to 4 hours)"),
        .integer("device.activity_budget_burst", 1...1_000_000, \.deviceModel.activityBudgetBurst, default: "10", "the budget's burst (assumption)"),
        .integer("device.frequent_budget_burst", 1...1_000_000, \.deviceModel.frequentBudgetBurst, default: "30",
                 "the burst with frequent updates (assumption)"),
        .integer("device.push_to_start_burst", 1...1_000_000, \.deviceModel.pushToStartBurst, default: "10", "push-to-start's burst (assumption)"),
        .leaf("device.on_time_ms", .integer(0...86_400_000), \.deviceModel.onTimeMillis, default: "1000",
              "shown within this of the intended send: on time; later: late (assumption)", read: { Int64($0.int ?? 0) }, write: { .int(Int($0)) }),
        .number("device.offline_share", 0...1, \.deviceModel.offlineShare, default: "0", "share of devices that go offline now and then (assumption)"),
        .flag("device.frequent_updates", \.deviceModel.frequentUpdates, default: "false",
              "the app sets `NSSupportsLiveActivitiesFrequentUpdates` and the user allows it"),
        .choice("device.throttle", \.deviceModel.throttle, default: "drop", "an update past the budget: `drop` or `delay` (assumption)"),
        .seed("device.seed", \.deviceModel.seed, "seeds the per-device draws (wakes, offline periods)"),
    ]
}

extension SimulatorConfiguration {
    /// The device model's parameters, its defaults when it has none (set: the model is on).
    var deviceModel: DeviceModelParameters {
        get { device ?? DeviceModelParameters() }
        set { device = newValue }
    }
}
