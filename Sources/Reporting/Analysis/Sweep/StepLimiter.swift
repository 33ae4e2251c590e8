import Foundation

/// What limited a failing sweep step, named from that step's own numbers, with the setting that would
/// move it. In order:
/// - **recording**: the recording ran out before the step's end: it cannot fill the rate;
/// - **target**, by its answers: a 429 or 5xx class new since the first step, or the share of the pushes
///   sent that were delivered under the SLO's;
/// - **host disturbed**: other processes or the hypervisor took CPU the run could have used (``HostLoad``);
///   its verdict is the host's, and the step is measured again. What the numbers would name without the
///   disturbance is added; a rising service time there was measured by a client short of CPU, and says so;
/// - **client CPU**: an engine thread or the producer near a full core, the process itself taking the host's
///   CPU (under ``HostLoad/spareCores`` left idle, other work taking less), or the producer handing pushes
///   over late while the window had room. A service time that also rose is named beside it: a client short
///   of CPU measures it inflated;
/// - **target**, by its time: the service time's median more than ``risingService`` times the first step's;
/// - **client window**: the in-flight window full while the service time stayed near its low-rate value.
///   Little's law caps the rate at window ÷ mean service time; raising `--streams` or `--connections`
///   raises the ceiling;
/// - **unknown** otherwise.
public struct StepLimiter: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, Equatable {
        case recording
        case target
        case hostDisturbed = "host disturbed"
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
    /// On a disturbed host: what the step's numbers would name without the disturbance (its line), for a
    /// planner to weigh; nil otherwise.
    public var withoutDisturbance: String?

    public init(kind: Kind, evidence: String, ceiling: Double? = nil, fix: String? = nil) {
        self.kind = kind
        self.evidence = evidence
        self.ceiling = ceiling
        self.fix = fix
    }

    /// A median service time over this many times the first step's is rising.
    public static let risingService = 1.5

    /// `client window: … — raise --streams …`.
    public var line: String {
        "\(kind.rawValue): \(evidence)" + (fix.map { "; \($0)" } ?? "") + (withoutDisturbance.map { "; without it: \($0)" } ?? "")
    }

    /// The limiter of `step`, judged against the sweep's first (lowest-rate) step; nil when it passed.
    public static func classify(_ step: SweepStep, first: SweepStep?, criteria: KneeCriteria) -> StepLimiter? {
        let failures = criteria.failures(of: step, first: first)
        guard !failures.isEmpty else { return nil }
        if step.streamEnded {
            return StepLimiter(kind: .recording, evidence: String(format: "the recording ran out after %.0f s of the step", step.windowSeconds ?? 0),
                               fix: "loop it (the default), record a longer stream, or shorten --step-seconds")
        }
        let overload = criteria.newOverloadReasons(of: step, first: first)
        let answered = step.deliveredOfSent ?? step.deliveredShare
        if !overload.isEmpty || answered < criteria.minDelivered {
            let what = overload.isEmpty ? String(format: "delivered %.2f%% of the pushes sent", answered * 100)
                : "new overload answers " + overload.joined(separator: ", ")
            return StepLimiter(kind: .target, evidence: what + " at " + rate(step.offeredRate))
        }
        if let host = step.host, host.disturbed {
            var quiet = step
            quiet.host = nil
            var l = StepLimiter(kind: .hostDisturbed, evidence: host.summary,
                                fix: "measure again on a quiet host (the sweep re-measures a disturbed failing step once)")
            // A service time measured while other work starved the client is inflated by the client's own delay too.
            let starved = serviceRise(step, first: first).map(slowTarget)
            l.withoutDisturbance = classify(quiet, first: first, criteria: criteria).map {
                "\($0.kind.rawValue) (\($0.evidence)" + ($0 == starved ? ", measured by a client short of CPU)" : ")")
            }
            return l
        }
        let rise = serviceRise(step, first: first)
        if var cpu = clientCPU(step) {
            // A client short of CPU reads answers late: the service time it measures rises with its own queue.
            if let rise {
                cpu.evidence += String(format: "; service time also rose %.1f× (p50 %.1f ms, first step %.1f ms), measured by a saturated client",
                                       rise.p50 / rise.base, rise.p50, rise.base)
            }
            return cpu
        }
        if let rise { return slowTarget(rise) }
        let base = first?.serviceP50Millis
        if step.windowFilled, let window = step.window, let mean = step.serviceMeanMillis, mean > 0 {
            return windowBound(step, window: window, meanMillis: mean, base: base)
        }
        return StepLimiter(kind: .unknown, evidence: failures.joined(separator: "; "))
    }

    /// Client CPU: a thread near a full core, the process taking the host's CPU, or the producer late.
    static func clientCPU(_ step: SweepStep) -> StepLimiter? {
        let fix = "spread the load (--workers, more client cores), or accept this client's ceiling"
        if let e = step.engineCPU, e >= KneeCriteria.saturatedCPU {
            return StepLimiter(kind: .clientCPU, evidence: String(format: "engine thread %.0f%% of a core", e * 100), fix: fix)
        }
        if let p = step.producerCPU, p >= KneeCriteria.saturatedCPU {
            return StepLimiter(kind: .clientCPU, evidence: String(format: "producer %.0f%% of a core", p * 100), fix: fix)
        }
        // The run itself took the host's CPU (too little left idle, and more than other work took): its threads
        // waited for a core, whatever each one's own share shows.
        if let h = step.host, !h.disturbed, h.idleCores < HostLoad.spareCores, h.ownCores >= h.otherCores + h.stealCores {
            return StepLimiter(kind: .clientCPU, evidence: String(format: "the process took the host's CPU (%.2f cores, %.2f left idle, %.2f to other work)",
                                                                  h.ownCores, h.idleCores, h.otherCores + h.stealCores), fix: fix)
        }
        // A full window holds the producer back too: its lateness is then the window's, not its CPU's.
        if !step.windowFilled, let late = step.producerLateShare, late >= KneeCriteria.lateShare {
            return StepLimiter(kind: .clientCPU, evidence: String(format: "producer handed %.1f%% of pushes over late", late * 100), fix: fix)
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
