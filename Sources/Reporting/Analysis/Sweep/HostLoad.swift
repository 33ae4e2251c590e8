/// How busy the host was over a sweep step, from two readings of `/proc/stat`'s `cpu` line and the run's own
/// CPU time: CPU other processes used, CPU the hypervisor took (steal) and CPU left idle, in cores (1.0 is
/// one core for the whole step). A step is disturbed when other work took a good share of a core while no
/// core was left idle: the run then could not get CPU it might have used.
public struct HostLoad: Codable, Sendable, Equatable {
    /// CPU used by everything but this process, cores.
    public var otherCores: Double
    /// CPU the hypervisor gave to other guests, cores.
    public var stealCores: Double
    /// CPU nobody used, cores (idle, waiting on I/O, or niced work that yields it).
    public var idleCores: Double
    /// This process's CPU over the same span, cores.
    public var ownCores: Double

    public init(otherCores: Double, stealCores: Double, idleCores: Double, ownCores: Double) {
        self.otherCores = otherCores
        self.stealCores = stealCores
        self.idleCores = idleCores
        self.ownCores = ownCores
    }

    /// Other work (other processes and steal) at or above this many cores disturbs a step...
    public static let disturbingCores = 0.5
    /// ...when the idle CPU left was under this many cores.
    public static let spareCores = 0.5

    /// Other processes or the hypervisor took CPU the run could have used.
    public var disturbed: Bool { otherCores + stealCores >= Self.disturbingCores && idleCores < Self.spareCores }

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
    public init(from a: Sample, to b: Sample, seconds: Double, ownCPUSeconds: Double, ticksPerSecond: Double) {
        let span = max(seconds, 0.001) * ticksPerSecond
        func cores(_ x: UInt64, _ y: UInt64) -> Double { y >= x ? Double(y - x) / span : 0 }
        let own = ownCPUSeconds / max(seconds, 0.001)
        self.init(otherCores: max(0, cores(a.busy, b.busy) - own), stealCores: cores(a.steal, b.steal),
                  idleCores: cores(a.idle, b.idle), ownCores: own)
    }
}
