import APNsCore
import DeviceDelivery
import Foundation

/// The table of the simulator's configuration keys, each section's keys right after it, in the order the
/// reader reads them and an unknown key's error lists them. Every key is optional unless its section says so.
public enum SimulatorKeys {
    public static let all: [SimulatorKey] = top + devices + liveActivity + faults + broadcast + device

    /// The key at `path`.
    public static subscript(_ path: String) -> SimulatorKey? { all.first { $0.path == path } }

    /// The keys directly under the section at `path` ("" for the top level), in the table's order.
    public static func children(of path: String) -> [SimulatorKey] { all.filter { $0.parent == path } }

    typealias K = SimulatorKey

    static let top: [K] = [
        .choice("environment", \.environment, default: "sandbox", "sandbox adds `apns-unique-id` to 200s; production does not"),
        .integer("threads", 1...64, \.threads, default: "1", "event-loop threads (one core; more only with more cores than clients need)"),
        .flag("fast", \.fast, default: "false", "answer every request 200 with prebuilt headers and no validation (benchmarks the client)"),
        .seed("seed", \.seed, "seeds every random choice of fault injection"),
        .integer("initial_max_concurrent_streams", 1...100_000, \.initialMaxConcurrentStreams, default: "1",
                 "SETTINGS_MAX_CONCURRENT_STREAMS before the first request with a valid provider token"),
        .integer("max_concurrent_streams", 1...100_000, \.maxConcurrentStreams, default: "1000", "SETTINGS_MAX_CONCURRENT_STREAMS after it"),
        .integer("hard_max_concurrent_streams", 1...1_000_000, \.hardMaxConcurrentStreams, default: "twice max_concurrent_streams",
                 "past it GOAWAY PROTOCOL_ERROR; past the limit only, REFUSED_STREAM"),
        .flag("drop_stream_limit_after_rejection", \.dropStreamLimitAfterRejection, default: "false",
              "after a rejected request advertise 1 stream; the limit again after an accepted one"),
        .duration("provider_token_lifetime", formerly: "provider_token_lifetime_seconds", 1...1e9, unitMillis: 1000, \.providerTokenLifetime,
                  default: "1h", "provider tokens older than this are refused with ExpiredProviderToken"),
        .duration("provider_token_min_rotation", formerly: "provider_token_min_rotation_seconds", 0...1e9, unitMillis: 1000,
                  \.providerTokenMinimumRotation, default: "20m", "a connection may change its provider token at most once in this long"),
        .duration("token_update_penalty", formerly: "token_update_penalty_seconds", 0...1e9, unitMillis: 1000, \.tokenUpdatePenalty, default: "20m",
                "after TooManyProviderTokenUpdates a connection refuses every request with it for this long"),
        K("topics", .textsByName, default: "any topic", "the bundle ids each team may push to: `{TEAM: [bundle-id, ...]}`") { c, v, _ in
            guard case let .textsByName(teams) = v else { return }
            for team in teams { c.topicsByTeam[team.name, default: []].formUnion(team.texts) }
        },
        K("devices", .section(.init()), "the device registry: known tokens, dead tokens, a per-token rate limit"),
        K("live_activity", .section(.init()), "Live Activity payload checks and the priority-10 budget"),
        K("faults", .section(.init()), "injected faults; every fault is off unless named").finishing { c, _ in
            let sum = c.faults.requestFaults.total
            guard sum <= 1 else { throw K.Problem("the fractions add up to \(sum), more than 1") }
        },
        K("broadcast", .section(.init()), "broadcast channels (iOS 18+)"),
        K("device", .section(.init()), "the device side of delivery (docs/simulator.md); `{}` or `~` for its defaults") { c, _, _ in
            c.device = DeviceDeliveryParameters()
        }.orNull(),
    ]

    static let devices: [K] = [
        K("devices.file", .text, default: "none",
          "a file of `<token> <bundle-id> [Unregistered or ExpiredToken [ms]]` lines, relative to the configuration file") { c, v, file in
            let path = v.text ?? ""
            let base = (file as NSString).deletingLastPathComponent
            try c.deviceRegistry.load(path: path.hasPrefix("/") || base.isEmpty ? path : (base as NSString).appendingPathComponent(path))
        },
        K("devices.generate", .section(.init()), default: "none", "register generated tokens").finishing { c, v in
            let hex = v["hex_length"]?.int ?? 0
            guard hex % 2 == 0 else { throw K.Problem("must be even, found \(hex)", at: "hex_length") }
            let tokens = DeviceRegistry.generatedTokens(count: v["count"]?.int ?? 0, seed: UInt64(v["seed"]?.int ?? 0), hexLength: hex)
            for t in tokens { c.deviceRegistry.register(token: t, bundleID: v["bundle_id"]?.text ?? "") }
            let bundle = v["bundle_id"]?.text ?? ""
            c.deviceRegistry.generated.append("count=\(v["count"]?.int ?? 0) seed=\(v["seed"]?.int ?? 0) bundle_id=\(bundle) hex_length=\(hex)")
        },
        K("devices.generate.bundle_id", .text, "the tokens' bundle id").needed(),
        K("devices.generate.count", .integer(1...10_000_000), default: "1000", "how many tokens"),
        K("devices.generate.seed", .integer(0...Int.max), default: "0", "seeds the tokens"),
        K("devices.generate.hex_length", .integer(64...200), default: "64", "hex digits a token, even"),
        K("devices.unknown_token_reason", .text, default: "none (accepted)",
          "the reason for a token the registry does not know, when it knows some (e.g. BadDeviceToken)") { c, v, _ in
            let s = v.text ?? ""
            let reason = Reason(rawValue: s)
            guard reason.status != 0 else { throw K.Problem("'\(s)' is not an APNs reason") }
            c.deviceRegistry.unknownTokenReason = reason
        },
        .number("devices.dead_fraction", 0...1, \.deviceRegistry.deadFraction, default: "0",
                "share of all tokens that are dead, decided from the token's bytes and the seed"),
        .choice("devices.dead_reason", \.deviceRegistry.deadFractionReason, default: "Unregistered", "the reason of tokens dead by dead_fraction"),
        .seed("devices.seed", \.deviceRegistry.seed, "seeds the dead fraction"),
        K("devices.rate_limit", .section(.init()), default: "none", "at most `pushes` pushes to one token in each window (429 TooManyRequests)") { c, _, _ in
            c.deviceRegistry.rateLimit = .init(pushes: 0, windowSeconds: 0)
        },
        .integer("devices.rate_limit.pushes", 1...Int.max, \.deviceRegistry.rateLimitOrNew.pushes, default: "", "pushes a window").needed(),
        .duration("devices.rate_limit.window", formerly: "window_seconds", 0.001...1e9, unitMillis: 1000, \.deviceRegistry.rateLimitOrNew.windowSeconds,
                  default: "", "the window").needed(),
    ]

    static let liveActivity: [K] = [
        .choice("live_activity.missing_keys", \.liveActivity.missingKeys, default: "reject",
                "a Live Activity payload without its required keys: `reject` (400 BadPayload) or `count`"),
        .integer("live_activity.priority10_budget", 0...1_000_000, \.liveActivity.priority10Budget, default: "10",
                 "priority-10 Live Activity pushes a token may get in a window; `~` for no budget").orNull(),
        .duration("live_activity.budget_window", formerly: "budget_window_seconds", 1...1e9, unitMillis: 1000, \.liveActivity.budgetWindowSeconds,
                  default: "1h", "the budget's window"),
    ]

    static let broadcast: [K] = [
        .integer("broadcast.channel_limit", 0...1_000_000, \.broadcast.channelLimitPerBundle, default: "10000", "channels an app may have"),
        K("broadcast.enabled_bundle_ids", .texts, default: "all", "the apps with the broadcast capability") { c, v, _ in
            c.broadcast.enabledBundleIDs = Set(v.texts ?? [])
        },
    ]
}
