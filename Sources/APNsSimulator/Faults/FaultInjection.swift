import APNsCore
import Foundation

/// Faults the simulator injects by configuration. Every random choice comes
/// from `SimulatorConfiguration.seed` and the connection's accept order, so a run repeats.
/// Defaults: no faults.
public struct FaultInjection: Sendable, Equatable {
    /// How long the simulator waits before answering a request.
    public enum Latency: Sendable, Equatable {
        /// Answer at once. The default.
        case none
        /// Always this many milliseconds.
        case fixed(milliseconds: Double)
        /// Uniform between the two bounds, in milliseconds.
        case uniform(minMilliseconds: Double, maxMilliseconds: Double)
        /// Lognormal with the given median and 99th percentile, in milliseconds (p99 ≥ p50 > 0).
        case lognormal(p50Milliseconds: Double, p99Milliseconds: Double)

        /// One sample in milliseconds.
        public func sample(_ random: inout SplitMix64) -> Double {
            switch self {
            case .none: return 0
            case let .fixed(ms): return ms
            case let .uniform(lo, hi): return lo + (hi - lo) * random.unit()
            case let .lognormal(p50, p99):
                // z(0.99) = 2.326348: sigma so that the 99th percentile lands on p99.
                let mu = log(p50)
                let sigma = max(0, log(p99) - mu) / 2.326348
                return exp(mu + sigma * random.gaussian())
            }
        }
    }

    /// Response latency. Default none.
    public var latency: Latency = .none
    /// A fixed network round trip added to every answer, in milliseconds (the distance to APNs). Default 0.
    public var roundTripMilliseconds = 0.0
    /// Each connection serves its requests one at a time at this rate (requests a second), first come
    /// first served: past it requests queue and their answers wait, so a knee exists beyond the client's
    /// own limit. Default none (no queue).
    public var capacity: Capacity?
    /// Each request fault's share (`RequestFault`: 500, 503, 429, 503 Shutdown with GOAWAY, a connection
    /// reset, a stall that reads and answers nothing more). Default 0 each.
    public var requestFaults = RequestFaultShares()
    /// A latency spike: this fraction of answers waits `spikeMilliseconds` more. Default none.
    public var latencySpike: (fraction: Double, milliseconds: Double)? {
        get { spike.map { ($0.fraction, $0.milliseconds) } }
        set { spike = newValue.map { Spike(fraction: $0.fraction, milliseconds: $0.milliseconds) } }
    }
    private var spike: Spike?
    /// The wall clock steps forward by `bySeconds`, `afterSeconds` after the simulator started (an NTP
    /// step, a VM resumed): provider tokens signed before it look that much older. In a run, the run's
    /// provider-token cache reads the same clock, as a client on the same machine would. Default none.
    public var clockStep: ClockStep?
    /// GOAWAY `{"reason":"Shutdown"}` once a connection has answered this many streams. Default never.
    public var goAwayAfterStreams: Int?
    /// GOAWAY `{"reason":"Shutdown"}` this many seconds after a connection opened. Default never.
    public var goAwayAfterSeconds: Double?
    /// GOAWAY `{"reason":"IdleTimeout"}` after a connection had no request for this many seconds. Default never.
    public var idleTimeoutSeconds: Double?
    /// Hold the server's first SETTINGS (and everything after it) this many milliseconds. Default 0.
    public var settingsDelayMilliseconds = 0.0

    public init() {}

    /// A connection's service rate and how it sheds load.
    public struct Capacity: Sendable, Equatable {
        /// Requests a second one connection serves.
        public var perConnectionPerSecond: Double
        /// Past this queueing wait (ms), a request is overloaded...
        public var overloadAfterMilliseconds: Double
        /// ...and this share of overloaded requests is answered 503 ServiceUnavailable at once instead
        /// of queueing. Default 0: all queue.
        public var overloadServiceUnavailableFraction: Double

        public init(perConnectionPerSecond: Double, overloadAfterMilliseconds: Double = 1000, overloadServiceUnavailableFraction: Double = 0) {
            self.perConnectionPerSecond = perConnectionPerSecond
            self.overloadAfterMilliseconds = overloadAfterMilliseconds
            self.overloadServiceUnavailableFraction = overloadServiceUnavailableFraction
        }
    }

    public struct ClockStep: Sendable, Equatable {
        public var afterSeconds: Double
        public var bySeconds: Double
        public init(afterSeconds: Double, bySeconds: Double) {
            self.afterSeconds = afterSeconds
            self.bySeconds = bySeconds
        }
    }

    private struct Spike: Sendable, Equatable {
        var fraction: Double
        var milliseconds: Double
    }

    /// Whether any request-level fault is configured (the handler skips the dice otherwise).
    var rollsDice: Bool { requestFaults.total > 0 }
}
