import Foundation
import Reporting

/// Reads the host's CPU counters (`/proc/stat`), this process's CPU time and the calling thread's around a
/// sweep step, for its ``HostLoad``. The calling thread runs the step and writes its report: it is one of the
/// client's threads, beside the engines and the producer, whose CPU their own counters give.
struct HostSampler {
    let stat: HostLoad.Sample?
    let ownCPU: Double
    let threadCPU: Double
    let at: Date

    /// A reading now.
    init() {
        stat = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)).flatMap(HostLoad.Sample.init(procStat:))
        ownCPU = Self.processCPUSeconds()
        threadCPU = Self.threadCPUSeconds()
        at = Date()
    }

    /// The load from this reading until now; nil when `/proc/stat` could not be read. `engineAndProducerCPU`:
    /// the CPU seconds the step's engine and producer threads measured on themselves.
    func load(engineAndProducerCPU: Double? = nil) -> HostLoad? {
        let now = HostSampler()
        guard let a = stat, let b = now.stat else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return HostLoad(from: a, to: b, seconds: now.at.timeIntervalSince(at), ownCPUSeconds: now.ownCPU - ownCPU,
                        ticksPerSecond: ticks > 0 ? ticks : 100, clientCPUSeconds: engineAndProducerCPU.map { $0 + now.threadCPU - threadCPU })
    }

    /// CPU seconds the calling thread has used.
    static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// CPU seconds this process has used (user and system).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
