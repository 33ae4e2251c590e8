import APNsCore
import APNsEngine
import Foundation
import Reporting

/// The live metrics of one run (`--metrics-listen`): the workers' latest progress and the producer's
/// not-sent counts while the run lasts, the report's totals once it ended. Fixed size however long the
/// run: counts by reason and a fixed set of buckets per priority, never per push or per token.
public final class LiveMetrics: @unchecked Sendable {
    public let runID: String
    public let shard: Int
    private let lock = NSLock()
    private var sample = MetricsSample()
    private var workers = PoolProgress()
    private var producerNotSent: [String: Int] = [:]
    private var finished = false

    public init(runID: String, shard: Int) {
        self.runID = runID
        self.shard = shard
    }

    /// The workers' summed progress (their sinks give ``OutcomeDetail``).
    func update(_ progress: PoolProgress) {
        lock.withLock {
            guard !finished else { return }
            workers = progress
            rebuild()
        }
    }

    /// Not-sent pushes the producer recorded so far (no token, bad line, coalesced …).
    func updateProducer(notSent: [String: Int]) {
        lock.withLock {
            guard !finished else { return }
            producerNotSent = notSent
            rebuild()
        }
    }

    /// The run ended: from now on the endpoint serves the report's totals.
    func finish(_ report: RunReport) {
        lock.withLock {
            finished = true
            sample = MetricsSample(report: report)
        }
    }

    private func rebuild() {
        sample = MetricsSample(outcomes: workers.outcomes, extraNotSent: producerNotSent, inFlight: workers.inFlight,
                               providerTokenSignings: workers.counters.providerTokenSignings)
    }

    /// What the endpoint serves now.
    public var current: MetricsSample { lock.withLock { sample } }

    /// The OpenMetrics text served now.
    public func text() -> String { OpenMetricsText.render(current, runID: runID, shard: shard) }
}

/// The producer's sink with live metrics on: records into the run's recorder and, at most every 250 ms,
/// tells the metrics its not-sent counts. Only not-sent pushes reach the producer's sink, so this is off
/// the send path.
final class PublishingSink: OutcomeSink {
    private let recorder: RunRecorder
    private let metrics: LiveMetrics
    private var lastPublished: UInt64 = 0

    init(_ recorder: RunRecorder, metrics: LiveMetrics) {
        self.recorder = recorder
        self.metrics = metrics
    }

    func record(_ outcome: Outcome, priority: Priority, intended: UInt64, sent: UInt64, completed: UInt64) {
        recorder.record(outcome, priority: priority, intended: intended, sent: sent, completed: completed)
        let now = MonotonicTime.now()
        if now &- lastPublished >= 250_000_000 {
            lastPublished = now
            metrics.updateProducer(notSent: recorder.notSent)
        }
    }

    func recordConnections(_ change: ConnectionTally, at nanos: UInt64) {
        recorder.recordConnections(change, at: nanos)
    }

    func recordResend(cause: String, at nanos: UInt64) {
        recorder.recordResend(cause: cause, at: nanos)
    }
}
