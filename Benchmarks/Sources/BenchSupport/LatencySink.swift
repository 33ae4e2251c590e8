import APNsCore

/// Service times (sent → answered) in microseconds, in 32 log-linear buckets per power of two (about 3 %
/// wide): the same buckets as the reference loop's (curl_reference.c), so both sides' p50 and p99 read alike.
/// Preallocated: recording allocates nothing.
public struct LogHistogram {
    static let subBits = 5
    static let buckets = 41 << subBits
    private var counts: [UInt32]
    public private(set) var total = 0

    public init() { counts = [UInt32](repeating: 0, count: Self.buckets) }

    @inline(__always)
    public mutating func record(micros: UInt64) {
        let v = max(micros, 1)
        let b = min(63 - v.leadingZeroBitCount, 40)
        let shift = max(b - Self.subBits, 0)
        let sub = Int((v >> UInt64(shift)) & 31)
        counts[(b << Self.subBits) | sub] &+= 1
        total += 1
    }

    /// The lower bound of the bucket holding quantile `q` (0...1), in microseconds; 0 when empty.
    public func quantile(_ q: Double) -> UInt64 {
        guard total > 0 else { return 0 }
        let rank = max(1, Int((q * Double(total)).rounded(.up)))
        var seen = 0
        for i in 0..<Self.buckets where counts[i] > 0 {
            seen += Int(counts[i])
            if seen >= rank {
                let b = i >> Self.subBits, sub = UInt64(i & 31)
                return b < Self.subBits ? sub : (32 | sub) << UInt64(b - Self.subBits)
            }
        }
        return 0
    }

    public mutating func reset() {
        for i in counts.indices { counts[i] = 0 }
        total = 0
    }
}

/// An outcome sink that counts deliveries and problems and keeps the service-time histogram.
public final class LatencySink: OutcomeSink {
    public private(set) var delivered = 0
    public private(set) var problems = 0
    public private(set) var firstProblem: Outcome?
    public private(set) var serviceTime = LogHistogram()

    public init() {}

    public func record(_ outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64) {
        if case .delivered = outcome {
            delivered += 1
            if completed > sent, sent > 0 { serviceTime.record(micros: (completed - sent) / 1000) }
            return
        }
        problems += 1
        if firstProblem == nil { firstProblem = outcome }
    }

    public func reset() {
        delivered = 0
        problems = 0
        firstProblem = nil
        serviceTime.reset()
    }
}
