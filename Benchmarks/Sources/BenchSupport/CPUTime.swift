#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time of this process (user + system, all threads), from getrusage(RUSAGE_SELF).
public enum CPUTime {
    public struct Sample {
        public var userMicros: Int
        public var systemMicros: Int
        public var totalMicros: Int { userMicros + systemMicros }
    }

    public static func now() -> Sample {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Sample(
            userMicros: Int(usage.ru_utime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec),
            systemMicros: Int(usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_stime.tv_usec))
    }
}
