import APNsCore
import APNsEngine
import Foundation

/// Live progress of a run. On a terminal: one line, redrawn in place about twice a second. Off a terminal
/// (a pipe, `| tee`, a CI log): a plain line every `plainEvery` seconds, flushed at once, so it shows as it
/// happens. `--quiet` makes none. Used on the thread that runs the pool only.
public final class RunProgress: @unchecked Sendable {
    public enum Mode: Sendable, Equatable {
        /// Redraw one line in place (`\r` and erase-line).
        case terminal
        /// A new line every `plainEvery` seconds.
        case plain
    }

    /// What a progress line shows: elapsed time, how far through the stream or the duration, rates over
    /// the last update, in flight, outcomes so far, the last interval's p99.
    public struct Sample: Equatable, Sendable {
        public var elapsedSeconds: Double
        /// 0–1 of the stream read (or of `--duration` elapsed, whichever is further), when known.
        public var fraction: Double?
        /// Pushes sent per second since the last update.
        public var offeredPerSecond: Double
        /// Pushes completed per second since the last update.
        public var achievedPerSecond: Double
        /// The schedule's own rate at this moment, for a fixed rate or a ramp.
        public var targetPerSecond: Double?
        public var inFlight: Int
        public var outcomes: OutcomeProgress

        public init(elapsedSeconds: Double, fraction: Double?, offeredPerSecond: Double, achievedPerSecond: Double,
                    targetPerSecond: Double?, inFlight: Int, outcomes: OutcomeProgress) {
            self.elapsedSeconds = elapsedSeconds
            self.fraction = fraction
            self.offeredPerSecond = offeredPerSecond
            self.achievedPerSecond = achievedPerSecond
            self.targetPerSecond = targetPerSecond
            self.inFlight = inFlight
            self.outcomes = outcomes
        }

        /// `  12.0 s  43.1% ETA 16 s  offered 498/s (target 500/s)  achieved 497/s  in flight 12  delivered 5980  rejected 3  failed 0  p99 41.2 ms`
        public var line: String {
            var parts = [String(format: "%6.1f s", elapsedSeconds)]
            if let f = fraction {
                var part = String(format: "%5.1f%%", f * 100)
                if f > 0.001, f < 1 {
                    part += " ETA " + Self.duration(elapsedSeconds * (1 - f) / f)
                }
                parts.append(part)
            }
            parts.append("offered \(Self.rate(offeredPerSecond))" + (targetPerSecond.map { " (target \(Self.rate($0)))" } ?? ""))
            parts.append("achieved \(Self.rate(achievedPerSecond))")
            parts.append("in flight \(inFlight)")
            parts.append("delivered \(outcomes.delivered)")
            parts.append("rejected \(outcomes.rejected)")
            parts.append("failed \(outcomes.failed + outcomes.timedOut)")
            if let p99 = outcomes.lastIntervalP99Micros {
                parts.append("p99 " + String(format: "%.1f ms", Double(p99) / 1000))
            }
            return "  " + parts.joined(separator: "  ")
        }

        static func rate(_ r: Double) -> String { String(format: "%.0f/s", r) }

        static func duration(_ s: Double) -> String {
            guard s.isFinite else { return "?" }
            if s < 60 { return String(format: "%.0f s", s) }
            if s < 3600 { return String(format: "%dm%02ds", Int(s) / 60, Int(s) % 60) }
            return String(format: "%dh%02dm", Int(s) / 3600, Int(s) % 3600 / 60)
        }
    }

    public let mode: Mode
    public let plainEvery: Double
    private let write: (String) -> Void
    private var config: RunConfig?
    private var stream: () -> (bytes: Int, of: Int?) = { (0, nil) }
    private var start: UInt64 = 0
    /// Where the rates are measured from: the last plain line, or (on a terminal) a point at least 1 s back.
    private var rateBase: (nanos: UInt64, sent: Int, completed: Int) = (0, 0, 0)
    private var lastPrinted: UInt64 = 0
    private var drawn = false

    /// - Parameter write: where the text goes (default: standard output, flushed each time).
    public init(mode: Mode, plainEvery: Double = 5, write: @escaping (String) -> Void = RunProgress.standardOutput) {
        self.mode = mode
        self.plainEvery = plainEvery
        self.write = write
    }

    /// A terminal redraws in place; anything else gets plain lines.
    public static func forStandardOutput() -> RunProgress {
        RunProgress(mode: isatty(STDOUT_FILENO) == 1 ? .terminal : .plain)
    }

    public static func standardOutput(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// The run starts now (`nanos`); `stream` says how much of the stream was read, from any thread.
    func begin(_ config: RunConfig, at nanos: UInt64, stream: @escaping () -> (bytes: Int, of: Int?)) {
        self.config = config
        self.stream = stream
        start = nanos
        rateBase = (nanos, 0, 0)
        lastPrinted = nanos
    }

    /// A pool's progress at `nanos` (called about twice a second): redraws, or prints when a plain line is due.
    func update(_ p: PoolProgress, at nanos: UInt64) {
        switch mode {
        case .terminal:
            let sample = self.sample(p, at: nanos)
            write("\r\u{1B}[2K" + sample.line)
            drawn = true
            if Double(nanos &- rateBase.nanos) / 1e9 >= 1 { rateBase = (nanos, p.counters.sent, p.completed) }
        case .plain:
            guard Double(nanos &- lastPrinted) / 1e9 >= plainEvery else { return }
            lastPrinted = nanos
            write(self.sample(p, at: nanos).line + "\n")
            rateBase = (nanos, p.counters.sent, p.completed)
        }
    }

    /// Ends the redrawn line, so what follows starts on a line of its own, and lets go of the stream
    /// (whose file would otherwise stay open as long as this progress does).
    func end() {
        if drawn { write("\n") }
        drawn = false
        stream = { (0, nil) }
    }

    func sample(_ p: PoolProgress, at nanos: UInt64) -> Sample {
        let elapsed = Double(nanos &- start) / 1e9
        let dt = Double(nanos &- rateBase.nanos) / 1e9
        let offered = dt > 0 ? Double(p.counters.sent - rateBase.sent) / dt : 0
        let achieved = dt > 0 ? Double(p.completed - rateBase.completed) / dt : 0
        var fraction: Double?
        let (bytes, size) = stream()
        if let size, size > 0 { fraction = Swift.min(1, Double(bytes) / Double(size)) }
        if let limit = config?.schedule.duration?.secondsValue, limit > 0 {
            fraction = Swift.max(fraction ?? 0, Swift.min(1, elapsed / limit))
        }
        var target: Double?
        switch config?.effectiveSchedule {
        case let .fixedRate(r)?: target = r
        case let .ramp(a, b, s)?: target = elapsed >= s ? b : a + (b - a) * elapsed / s
        default: target = nil
        }
        return Sample(elapsedSeconds: elapsed, fraction: fraction, offeredPerSecond: Swift.max(0, offered),
                      achievedPerSecond: Swift.max(0, achieved), targetPerSecond: target, inFlight: p.inFlight, outcomes: p.outcomes)
    }
}
