/// How busy the host was over a sweep step, from two readings of `/proc/stat`'s `cpu` line and the run's own
/// CPU time: CPU other processes used, CPU the hypervisor took (steal) and CPU left idle, in cores (1.0 is
/// one core for the whole step). The process's own CPU is split into the client's threads (engines, producer,
/// the thread that runs the step and writes its report) and the rest of the process: an embedded simulator's
/// event loops. A step is disturbed when other work took a good share of a core while no core was left idle;
/// the host is short of CPU when under half a core was left idle, whoever took it.
public struct HostLoad: Codable, Sendable, Equatable {
    /// CPU used by everything but this process, cores.
    public var otherCores: Double
    /// CPU the hypervisor gave to other guests, cores.
    public var stealCores: Double
    /// CPU nobody used, cores (idle, waiting on I/O, or niced work that yields it).
    public var idleCores: Double
    /// This process's CPU over the same span, cores.
    public var ownCores: Double
    /// Of it, the client's own threads' (engines, producer, the step's own thread), cores; nil when not
    /// measured (steps recorded before it).
    public var clientCores: Double?

    /// The rest of the process at or above this many cores is an embedded simulator's work (against a URL
    /// target the rest is a few timers).
    public static let inProcessSimulatorCores = 0.05

    /// The rest of the process: an embedded simulator's event loops; nil when the client's share is unknown.
    public var restCores: Double? { clientCores.map { max(0, ownCores - $0) } }

    public init(otherCores: Double, stealCores: Double, idleCores: Double, ownCores: Double, clientCores: Double? = nil) {
        self.otherCores = otherCores
        self.stealCores = stealCores
        self.idleCores = idleCores
        self.ownCores = ownCores
        self.clientCores = clientCores
    }

    /// Other work (other processes and steal) at or above this many cores disturbs a step...
    public static let disturbingCores = 0.5
    /// ...when the idle CPU left was under this many cores.
    public static let spareCores = 0.5

    /// Other processes or the hypervisor took CPU the run could have used.
    public var disturbed: Bool { otherCores + stealCores >= Self.disturbingCores && idleCores < Self.spareCores }

    /// Under ``spareCores`` left idle: every thread of the run may have waited for a core, whoever took them.
    public var short: Bool { idleCores < Self.spareCores }

    /// The client's own threads took more of the busy CPU than everything else together (the rest of the
    /// process, other processes, steal): a host short of CPU was short on the client's account.
    public var clientTookTheHost: Bool {
        guard let client = clientCores, let rest = restCores else { return false }
        return client >= rest + otherCores + stealCores
    }

    /// `client threads 0.45 cores, rest of the process (an embedded simulator) 0.60, other processes 0.38, steal 0.00, idle 0.46`.
    public var split: String {
        let parts = [clientCores.map { "client threads " + Format.fixed($0, places: 2) + " cores" },
                     restCores.flatMap {
                         $0 >= Self.inProcessSimulatorCores ? "the rest of the process (an embedded simulator) " + Format.fixed($0, places: 2) : nil
                     },
                     clientCores == nil ? "the process " + Format.fixed(ownCores, places: 2) + " cores" : nil,
                     "other processes " + Format.fixed(otherCores, places: 2), "steal " + Format.fixed(stealCores, places: 2),
                     "idle " + Format.fixed(idleCores, places: 2)]
        return parts.compactMap { $0 }.joined(separator: ", ")
    }

    /// `other processes 0.8 cores, steal 0.0, idle 0.1`.
    public var summary: String {
        Format.fixed(otherCores, places: 2) + " cores to other processes, " + Format.fixed(stealCores, places: 2)
            + " stolen, " + Format.fixed(idleCores, places: 2) + " idle"
    }

    /// The `cpu` line's counters, in clock ticks.
    public struct Sample: Sendable, Equatable {
        public var busy: UInt64
        public var idle: UInt64
        public var steal: UInt64

        /// Reads `/proc/stat`'s aggregate `cpu` line: user nice system idle iowait irq softirq steal (guest
        /// time is inside user). Niced work counts as spare: it yields the CPU to the run at once. Nil when
        /// the text has no such line.
        public init?(procStat text: String) {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
            let v = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
            guard v.count >= 4 else { return nil }
            func at(_ i: Int) -> UInt64 { i < v.count ? v[i] : 0 }
            busy = at(0) + at(2) + at(5) + at(6)
            idle = at(1) + at(3) + at(4)
            steal = at(7)
        }
    }

    /// The load between two samples `seconds` apart, this process having used `ownCPUSeconds`, with
    /// `ticksPerSecond` clock ticks a second (`sysconf(_SC_CLK_TCK)`).
    /// `clientCPUSeconds`: of the process's, its client threads' (nil: not measured).
    public init(from a: Sample, to b: Sample, seconds: Double, ownCPUSeconds: Double, ticksPerSecond: Double, clientCPUSeconds: Double? = nil) {
        let span = max(seconds, 0.001) * ticksPerSecond
        func cores(_ x: UInt64, _ y: UInt64) -> Double { y >= x ? Double(y - x) / span : 0 }
        let own = ownCPUSeconds / max(seconds, 0.001)
        self.init(otherCores: max(0, cores(a.busy, b.busy) - own), stealCores: cores(a.steal, b.steal),
                  idleCores: cores(a.idle, b.idle), ownCores: own, clientCores: clientCPUSeconds.map { min(own, $0 / max(seconds, 0.001)) })
    }
}
