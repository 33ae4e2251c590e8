import Foundation

/// What limited a failing sweep step, named from that step's own numbers, with the setting that would
/// move it. A pure function of the step and the sweep's first step. In order:
/// - **recording**: the recording ran out before the step's end: it cannot fill the rate;
/// - **target**, by its answers: a 429 or 5xx class new since the first step, or the share of the pushes
///   sent that were delivered under the SLO's;
/// - **target**, by its own queue: the embedded simulator's capacity model kept requests waiting
///   (``SweepStep/targetQueueMillis``) ``queueingMillis`` longer than at the first step while requests reached
///   it at ``busyShare`` of its capacity or more (``SweepStep/targetBusyShare``): it served all it could, whatever the host's CPU;
/// - **client CPU**, by a thread: an engine thread or the producer near a full core. A service time that also
///   rose is named beside it: a client short of CPU measures it inflated;
/// - **client window**: the in-flight window full while the service time stayed near its low-rate value.
///   Little's law caps the rate at window ÷ mean service time; raising `--streams` or `--connections`
///   raises the ceiling. A client short of CPU would have read answers late and measured a rising service time;
/// - **undecided: the host was busy**: under ``HostLoad/spareCores`` left idle, and the client's own threads
///   did not take most of it (other processes, steal or an in-process simulator did). Client and target then
///   wait for the same cores, and neither a rising service time nor a late producer tells which side was the
///   limit: the step is measured again, and running the simulator out of process on cores of its own decides.
///   What the numbers would name on a quiet host is added;
/// - **client CPU**, by the host: the host short of CPU on the client's threads' account
///   (``HostLoad/clientTookTheHost``), or the producer handing pushes over late while the window had room;
/// - **target**, by its time: the service time's median more than ``risingService`` times the first step's;
/// - **unknown** otherwise.
public struct StepLimiter: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, Equatable {
        case recording
        case target
        case undecided = "undecided: the host was busy"
        case clientCPU = "client CPU"
        case clientWindow = "client window"
        case unknown = "cause unknown"
    }

    public var kind: Kind
    /// The step's numbers that name it.
    public var evidence: String
    /// For the client window: window ÷ mean service time, pushes a second.
    public var ceiling: Double?
    /// The setting to change, when it is the client's, the recording's or the host's.
    public var fix: String?
    /// When undecided: what the step's numbers would name on a quiet host (its line), for a planner to weigh;
    /// nil otherwise.
    public var withoutDisturbance: String?

    public init(kind: Kind, evidence: String, ceiling: Double? = nil, fix: String? = nil) {
        self.kind = kind
        self.evidence = evidence
        self.ceiling = ceiling
        self.fix = fix
    }

    /// A median service time over this many times the first step's is rising.
    public static let risingService = 1.5
    /// A capacity model's mean queue wait this much longer than the first step's is the target's queue, ms...
    public static let queueingMillis = 10.0
    /// ...when requests reached it at this share of its capacity or more (a starved client's bursts queue too,
    /// but it sends less).
    public static let busyShare = 0.9

    /// What an undecided step suggests: the simulator on cores of its own, the sweep's client on the others.
    public static let outOfProcess = "measure on a quiet host, or run the simulator out of process on a core of its own: "
        + "`taskset -c 1 apnsbench simulate --config SIM.yaml --tls-dir sim` beside "
        + "`taskset -c 0 apnsbench sweep PROFILE --target https://127.0.0.1:2197 --ca-cert sim/ca.pem --key-path … ...` (docs/capacity.md)"

    /// What an undecided step suggests when no simulator shared the process: other processes took the CPU.
    public static let othersTook = "measure on a quiet host: other processes took the CPU (stop them, or pin them and the client to cores of their own)"

    /// `client window: … — raise --streams …`.
    public var line: String {
        "\(kind.rawValue): \(evidence)" + (fix.map { "; \($0)" } ?? "") + (withoutDisturbance.map { "; on a quiet host the numbers would name: \($0)" } ?? "")
    }

    /// The limiter of `step`, judged against the sweep's first (lowest-rate) step; nil when it passed.
    public static func classify(_ step: SweepStep, first: SweepStep?, criteria: KneeCriteria) -> StepLimiter? {
        let failures = criteria.failures(of: step, first: first)
        guard !failures.isEmpty else { return nil }
        if step.streamEnded {
            return StepLimiter(kind: .recording, evidence: String(format: "the recording ran out after %.0f s of the step", step.windowSeconds ?? 0),
                               fix: "loop it (the default), record a longer stream, or shorten --step-seconds")
        }
        if let clear = decided(step, first: first, criteria: criteria) { return clear }
        if let host = step.host, host.short, !host.clientTookTheHost {
            var quiet = step
            quiet.host = nil
            let inProcess = (host.restCores ?? host.ownCores) >= HostLoad.inProcessSimulatorCores
            var l = StepLimiter(kind: .undecided, evidence: host.split, fix: inProcess ? outOfProcess : othersTook)
            // A service time measured while the client waited for a core is inflated by the client's own delay too.
            let starved = serviceRise(step, first: first).map(slowTarget)
            l.withoutDisturbance = classify(quiet, first: first, criteria: criteria).map {
                "\($0.kind.rawValue) (\($0.evidence)" + ($0 == starved ? ", measured by a client short of CPU)" : ")")
            }
            return l
        }
        let rise = serviceRise(step, first: first)
        if var cpu = clientCPU(step) {
            if let rise { cpu.evidence += alsoRose(rise) }
            return cpu
        }
        if let rise { return slowTarget(rise) }
        if step.windowFilled, let window = step.window, let mean = step.serviceMeanMillis, mean > 0 {
            return windowBound(step, window: window, meanMillis: mean, base: first?.serviceP50Millis)
        }
        return StepLimiter(kind: .unknown, evidence: failures.joined(separator: "; "))
    }

    /// The limiters a busy host cannot fake: the target's answers and its own queue, a client thread at a full
    /// core, a full window with the service time flat. Nil when none shows.
    static func decided(_ step: SweepStep, first: SweepStep?, criteria: KneeCriteria) -> StepLimiter? {
        let overload = criteria.newOverloadReasons(of: step, first: first)
        let answered = step.deliveredOfSent ?? step.deliveredShare
        if !overload.isEmpty || answered < criteria.minDelivered {
            let what = overload.isEmpty ? String(format: "delivered %.2f%% of the pushes sent", answered * 100)
                : "new overload answers " + overload.joined(separator: ", ")
            return StepLimiter(kind: .target, evidence: what + " at " + rate(step.offeredRate))
        }
        if let queue = step.targetQueueMillis, queue >= (first?.targetQueueMillis ?? 0) + queueingMillis,
           let busy = step.targetBusyShare, busy >= busyShare {
            return StepLimiter(kind: .target, evidence: String(format: "requests reached the simulator's capacity model at %.0f%% of its capacity "
                + "and waited %.1f ms on average for their connection's server (first step %.1f ms) at %@", busy * 100, queue, first?.targetQueueMillis ?? 0,
                rate(step.offeredRate)))
        }
        let rise = serviceRise(step, first: first)
        if var cpu = saturatedThread(step) {
            // A client short of CPU reads answers late: the service time it measures rises with its own queue.
            if let rise { cpu.evidence += alsoRose(rise) }
            return cpu
        }
        // Flat against the first step's: without one, nothing says the service time did not rise.
        if rise == nil, first?.serviceP50Millis != nil, step.windowFilled, let window = step.window, let mean = step.serviceMeanMillis, mean > 0 {
            return windowBound(step, window: window, meanMillis: mean, base: first?.serviceP50Millis)
        }
        return nil
    }

    static func alsoRose(_ rise: (p50: Double, base: Double)) -> String {
        String(format: "; service time also rose %.1f× (p50 %.1f ms, first step %.1f ms), measured by a saturated client",
               rise.p50 / rise.base, rise.p50, rise.base)
    }

    static let cpuFix = "spread the load (--workers, more client cores), or accept this client's ceiling"

    /// An engine thread or the producer near a full core.
    static func saturatedThread(_ step: SweepStep) -> StepLimiter? {
        if let e = step.engineCPU, e >= KneeCriteria.saturatedCPU {
            return StepLimiter(kind: .clientCPU, evidence: String(format: "engine thread %.0f%% of a core", e * 100), fix: cpuFix)
        }
        if let p = step.producerCPU, p >= KneeCriteria.saturatedCPU {
            return StepLimiter(kind: .clientCPU, evidence: String(format: "producer %.0f%% of a core", p * 100), fix: cpuFix)
        }
        return nil
    }

    /// Client CPU by the host: its threads took the host's CPU, or the producer handed pushes over late.
    static func clientCPU(_ step: SweepStep) -> StepLimiter? {
        if let h = step.host, h.short, h.clientTookTheHost {
            return StepLimiter(kind: .clientCPU, evidence: "the client's threads took the host's CPU (" + h.split + ")", fix: cpuFix)
        }
        // A full window holds the producer back too: its lateness is then the window's, not its CPU's.
        if !step.windowFilled, let late = step.producerLateShare, late >= KneeCriteria.lateShare {
            return StepLimiter(kind: .clientCPU, evidence: String(format: "producer handed %.1f%% of pushes over late", late * 100), fix: cpuFix)
        }
        return nil
    }

    /// The step's service time p50 and the first step's, when it rose over ``risingService`` times that.
    static func serviceRise(_ step: SweepStep, first: SweepStep?) -> (p50: Double, base: Double)? {
        guard let p50 = step.serviceP50Millis, let base = first?.serviceP50Millis, base > 0, p50 > risingService * base else { return nil }
        return (p50, base)
    }

    /// The target, by its time.
    static func slowTarget(_ rise: (p50: Double, base: Double)) -> StepLimiter {
        StepLimiter(kind: .target, evidence: String(format: "service time p50 %.1f ms, %.1f× the first step's %.1f ms",
                                                    rise.p50, rise.p50 / rise.base, rise.base))
    }

    /// Client window: Little's law's ceiling and the setting to raise.
    static func windowBound(_ step: SweepStep, window: Int, meanMillis: Double, base: Double?) -> StepLimiter {
        let ceiling = Double(window) / (meanMillis / 1000)
        let c = step.connections, s = step.streamsPerConnection
        let factors = c.flatMap { c in s.map { " = \(c) connections × \($0) streams" } } ?? ""
        var evidence = String(format: "the in-flight window (%d%@) was full with service time flat (p50 %.1f ms",
                              window, factors, step.serviceP50Millis ?? meanMillis)
        if let base { evidence += String(format: ", first step %.1f ms", base) }
        evidence += String(format: "): window ÷ mean service time %.1f ms = %@", meanMillis, rate(ceiling))
        let fix = s.map { "raise --streams (now \($0)) or --connections (now \(c ?? 1)): the ceiling grows with the window" }
            ?? "raise --streams or --connections: the ceiling grows with the window"
        return StepLimiter(kind: .clientWindow, evidence: evidence, ceiling: ceiling, fix: fix)
    }

    static func rate(_ r: Double) -> String { String(format: "%.0f pushes/s", r) }
}
