import Foundation
import Reporting

/// Reads the host's CPU counters (`/proc/stat`) and this process's CPU time around a sweep step, for its
/// ``HostLoad``.
struct HostSampler {
    let stat: HostLoad.Sample?
    let ownCPU: Double
    let at: Date

    /// A reading now.
    init() {
        stat = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)).flatMap(HostLoad.Sample.init(procStat:))
        ownCPU = Self.processCPUSeconds()
        at = Date()
    }

    /// The load from this reading until now; nil when `/proc/stat` could not be read.
    func load() -> HostLoad? {
        let now = HostSampler()
        guard let a = stat, let b = now.stat else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return HostLoad(from: a, to: b, seconds: now.at.timeIntervalSince(at), ownCPUSeconds: now.ownCPU - ownCPU,
                        ticksPerSecond: ticks > 0 ? ticks : 100)
    }

    /// CPU seconds this process has used (user and system).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
