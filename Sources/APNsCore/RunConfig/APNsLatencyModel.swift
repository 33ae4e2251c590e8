/// Named APNs models for the embedded simulator (`--apns-model NAME`, or `model: NAME` in a profile's
/// `simulator:` section): latency, the network's round trip, a per-connection capacity with queueing, and
/// shedding under overload, in the simulator's own keys. They are assumptions chosen to be plausible, not
/// Apple's figures (Apple publishes none): measure your own path to APNs and write your own section.
///
/// A profile's own `simulator:` keys are laid over the preset's, key by key.
public enum APNsLatencyModel {
    public struct Preset: Sendable {
        public let name: String
        /// What it stands for, in a line.
        public let summary: String
        /// Keys of `apnsbench simulate --config`.
        public let settings: ConfigValue
    }

    public static let presets: [Preset] = [
        Preset(name: "near",
               summary: "a provider near an APNs data centre: 20 ms round trip, server time lognormal p50 5 ms / p99 40 ms, 2000 requests/s per connection",
               settings: .object(["faults": .object([
                   "round_trip_ms": .double(20),
                   "latency": .object(["lognormal_ms": .object(["p50": .double(5), "p99": .double(40)])]),
                   "capacity": .object(["per_connection_per_second": .double(2000)]),
               ])])),
        Preset(name: "far",
               summary: "a provider far from APNs (the slow regions users report): 180 ms round trip, server time lognormal p50 10 ms / p99 300 ms, "
                   + "2000 requests/s per connection",
               settings: .object(["faults": .object([
                   "round_trip_ms": .double(180),
                   "latency": .object(["lognormal_ms": .object(["p50": .double(10), "p99": .double(300)])]),
                   "capacity": .object(["per_connection_per_second": .double(2000)]),
               ])])),
        Preset(name: "overloaded",
               summary: "APNs under strain: 20 ms round trip, server time lognormal p50 50 ms / p99 1500 ms, 300 requests/s per connection, "
                   + "30% of requests queued past 250 ms shed with 503, 1% 503 besides",
               settings: .object(["faults": .object([
                   "round_trip_ms": .double(20),
                   "latency": .object(["lognormal_ms": .object(["p50": .double(50), "p99": .double(1500)])]),
                   "capacity": .object(["per_connection_per_second": .double(300), "overload_after_ms": .double(250),
                                        "overload_503_fraction": .double(0.3)]),
                   "service_unavailable_fraction": .double(0.01),
               ])])),
    ]

    public static var names: [String] { presets.map(\.name) }

    public static func named(_ name: String) -> Preset? { presets.first { $0.name == name } }
}

extension ConfigValue {
    /// `other` laid over this value: objects merge key by key (recursively), anything else is replaced.
    public func overlaid(with other: ConfigValue) -> ConfigValue {
        guard case var .object(base) = self, case let .object(top) = other else { return other }
        for (key, value) in top { base[key] = base[key].map { $0.overlaid(with: value) } ?? value }
        return .object(base)
    }
}
