/// Named APNs models for the embedded simulator (`--apns-model NAME`, or `model: NAME` in a profile's
/// `simulator:` section): latency, the network's round trip, a per-connection capacity with queueing, and
/// shedding under overload. They are assumptions chosen to be plausible, not Apple's figures (Apple publishes
/// none): measure your own path to APNs and write your own section.
///
/// Each preset is typed values; ``Preset/settings`` writes them in the simulator's own keys, in one place.
/// A profile's own `simulator:` keys are laid over the preset's, key by key.
public enum APNsLatencyModel {
    /// A preset's name, as `--apns-model` and a profile's `model:` take it.
    public enum Name: String, CaseIterable, Sendable {
        case near, far, overloaded
    }

    /// Server time: lognormal with these percentiles, in milliseconds.
    public struct ServerTime: Sendable, Equatable {
        public let p50Millis: Double
        public let p99Millis: Double
    }

    /// A connection's capacity, and what happens to requests queued past a wait.
    public struct Capacity: Sendable, Equatable {
        public let perConnectionPerSecond: Double
        /// Requests queued longer than this (milliseconds) are overloaded; nil: the simulator's default.
        public let overloadAfterMillis: Double?
        /// The share of overloaded requests answered 503 at once; nil: none.
        public let overload503Fraction: Double?
    }

    public struct Preset: Sendable, Equatable {
        public let name: Name
        /// Whom it stands for, before its numbers (``summary``).
        public let standsFor: String
        public let roundTripMillis: Double
        public let serverTime: ServerTime
        public let capacity: Capacity
        /// The share of valid requests answered 503 besides the overload's; nil: none.
        public let serviceUnavailableFraction: Double?

        /// What it stands for, in a line, with its numbers.
        public var summary: String {
            var parts = ["\(Self.number(roundTripMillis)) ms round trip",
                         "server time lognormal p50 \(Self.number(serverTime.p50Millis)) ms / p99 \(Self.number(serverTime.p99Millis)) ms",
                         "\(Self.number(capacity.perConnectionPerSecond)) requests/s per connection"]
            if let shed = capacity.overload503Fraction, let after = capacity.overloadAfterMillis {
                parts.append("\(Self.percent(shed))% of requests queued past \(Self.number(after)) ms shed with 503")
            }
            if let fraction = serviceUnavailableFraction { parts.append("\(Self.percent(fraction))% 503 besides") }
            return standsFor + ": " + parts.joined(separator: ", ")
        }

        /// The preset in the keys of `apnsbench simulate --config`.
        public var settings: ConfigValue {
            var capacityKeys: [String: ConfigValue] = ["per_connection_per_second": .double(capacity.perConnectionPerSecond)]
            capacityKeys["overload_after"] = capacity.overloadAfterMillis.map { .string(Self.millis($0)) }
            capacityKeys["overload_503_fraction"] = capacity.overload503Fraction.map(ConfigValue.double)
            var faults: [String: ConfigValue] = [
                "round_trip": .string(Self.millis(roundTripMillis)),
                "latency": .object(["lognormal_ms": .object(["p50": .double(serverTime.p50Millis), "p99": .double(serverTime.p99Millis)])]),
                "capacity": .object(capacityKeys),
            ]
            faults["service_unavailable_fraction"] = serviceUnavailableFraction.map(ConfigValue.double)
            return .object(["faults": .object(faults)])
        }

        /// Milliseconds as a duration the simulator's keys read (`20ms`, `0.8ms`).
        static func millis(_ value: Double) -> String { number(value) + "ms" }

        /// A share as a percentage, to a thousandth of a percent (`0.3` is `30`).
        static func percent(_ share: Double) -> String { number((share * 100_000).rounded() / 1000) }

        /// A whole number without its fraction (`20`), any other as Swift writes it.
        static func number(_ value: Double) -> String {
            value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }

    /// Each name's preset: a name without one does not compile.
    public static func preset(_ name: Name) -> Preset {
        switch name {
        case .near:
            Preset(name: name, standsFor: "a provider near an APNs data centre", roundTripMillis: 20,
                   serverTime: ServerTime(p50Millis: 5, p99Millis: 40),
                   capacity: Capacity(perConnectionPerSecond: 2000, overloadAfterMillis: nil, overload503Fraction: nil),
                   serviceUnavailableFraction: nil)
        case .far:
            Preset(name: name, standsFor: "a provider far from APNs (the slow regions users report)", roundTripMillis: 180,
                   serverTime: ServerTime(p50Millis: 10, p99Millis: 300),
                   capacity: Capacity(perConnectionPerSecond: 2000, overloadAfterMillis: nil, overload503Fraction: nil),
                   serviceUnavailableFraction: nil)
        case .overloaded:
            Preset(name: name, standsFor: "APNs under strain", roundTripMillis: 20,
                   serverTime: ServerTime(p50Millis: 50, p99Millis: 1500),
                   capacity: Capacity(perConnectionPerSecond: 300, overloadAfterMillis: 250, overload503Fraction: 0.3),
                   serviceUnavailableFraction: 0.01)
        }
    }

    /// Every preset, in the names' order.
    public static let presets: [Preset] = Name.allCases.map(preset)

    public static var names: [String] { Name.allCases.map(\.rawValue) }

    /// The preset `name` names, or nil (then it may name a model file).
    public static func named(_ name: String) -> Preset? { Name(rawValue: name).map(preset) }
}

extension ConfigValue {
    /// `other` laid over this value: objects merge key by key (recursively), anything else is replaced.
    public func overlaid(with other: ConfigValue) -> ConfigValue {
        guard case var .object(base) = self, case let .object(top) = other else { return other }
        for (key, value) in top { base[key] = base[key].map { $0.overlaid(with: value) } ?? value }
        return .object(base)
    }
}
