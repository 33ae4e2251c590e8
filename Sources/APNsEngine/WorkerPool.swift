import APNsCore
import Foundation

/// N `CurlEngine`s, each on a thread of its own with its own libcurl multi handle, connections and
/// provider token cache, fed by one producer thread.
///
/// **Partitioning.** The producer pulls every push from the one `PushSource` (which is not
/// thread-safe) and hands it to the worker `worker(for:of:)` picks from a hash of the device token, so
/// all pushes to one token go to one worker, through a FIFO queue, in the order the source gave them;
/// that worker's engine takes them in that order. Per-token order is therefore what one engine gives
/// (pushes of one token are started in source order), and per-token engine state (a token backed off
/// after 429, a token dead after 410) never needs sharing between workers.
///
/// **Connections.** `configuration.connections` is the total across workers, split as evenly as
/// possible (3 over 2 workers: 2 and 1); every worker keeps `streamsPerConnection`. So the in-flight
/// window (connections × streams) and the connections APNs sees are those of a one-engine run, and
/// `--workers` changes only how many threads drive them. There must be at least one connection per
/// worker.
///
/// **Backpressure.** Each worker's queue holds `queueCapacity` pushes; the producer waits while the
/// queue it needs is full, so it is never more than that far ahead of a worker. Pacing is unchanged:
/// pushes keep the `intendedNanos` the source (e.g. `PacedSource`) gave them and each engine waits for
/// them as it would alone.
///
/// **Outcomes.** Only the pool writes outcomes. Each worker's engine records its pushes into its own
/// sink (`workerSinks[i]`, on the worker's thread); the producer records into `sink` (on the producer's
/// thread) what the source says is not sent, and the pushes it pulled but could not hand over after the
/// run stopped. The caller merges the sinks after `run` returns.
///
/// **Stopping.** With a duration limit every engine stops at the same deadline (the pool's start plus
/// the limit); an engine that stops early abandons its queue, and pushes still queued there end as not
/// sent in its sink: `after_end` when they were not yet due at the deadline, `run_stopped` when they were.
/// The producer stops pulling at the deadline, at the first push due after it (so nothing past the end
/// is planned ahead), or when a queue is abandoned; it records the push it holds as not sent, abandons
/// the source and records what the source still had planned (after the end, when the deadline stopped
/// it). So every planned push still has exactly one outcome.
///
/// **Empty queues.** A worker's queue can run empty while its engine has pushes in flight (the producer
/// is behind, or waits on another worker's full queue). The engine is then told "nothing yet" (`next`
/// returns `.idle`; see `WakeableEngine`), keeps its transfers going in
/// curl_multi_poll, and the producer's next push (or the close) wakes it. It is never blocked inside
/// `next`: an engine blocked there reads its answers late and, as it fills its whole window before
/// libcurl sends, sends in bursts. `lastRun[i].consumerWaits` counts how often a queue ran dry.
public final class WorkerPool {

    /// What one worker did in the last run.
    public struct WorkerRun: Sendable, Equatable {
        /// Connections this worker had at most.
        public var connections: Int
        /// Pushes the producer handed to this worker (sent or not).
        public var pushes: Int
        /// This worker's engine counters.
        public var counters: EngineCounters
        /// Times the producer waited because this worker's queue was full.
        public var producerWaits: Int
        /// Times this worker's engine waited because its queue was empty.
        public var consumerWaits: Int
    }

    /// The configuration as given: `connections` is the total across workers.
    public let configuration: EngineConfiguration
    /// Each worker's configuration: its share of the connections, the same streams per connection.
    public let workerConfigurations: [EngineConfiguration]
    /// Pushes each worker's queue holds at most.
    public let queueCapacity: Int
    /// Called on the thread that called `run` about every `configuration.progressInterval` seconds, with the
    /// workers' progress summed (each worker's as of its latest report).
    public var onProgress: ((PoolProgress) -> Void)?
    /// A stop another thread may request (a signal): the producer stops reading, each engine stops
    /// sending and drains (see ``CurlEngine/stop``). Set before `run`.
    public var stop: RunStop?
    /// Called on the thread that calls `run` with the run's start (monotonic ns), once the engines are made and
    /// before any push is taken: the duration's end is this plus the limit. A schedule anchored here puts the
    /// end at the same place in it every time (the run gives it to its `PacedSource`).
    public var onStart: ((UInt64) -> Void)?
    /// Per worker, what the last run did.
    public private(set) var lastRun: [WorkerRun] = []

    /// Tests only: called on worker i's thread with each push its engine takes, in the order taken.
    var takeObserver: ((Int, OutgoingPush) -> Void)?

    private let tokens: [ProviderTokenCache]
    private let progressLock = NSLock()
    private var progress: [PoolProgress] = []

    public var workers: Int { workerConfigurations.count }

    /// - Parameters:
    ///   - workers: threads, each with its own engine (at least 1, at most `RunConfig.Transport.workerLimit()`).
    ///   - configuration: as for one engine; `connections` is the total, at least one per worker.
    ///   - queueCapacity: pushes each worker's queue holds (default 1 024).
    ///   - makeTokens: called once per worker for its own provider token cache (same key for all).
    public init(workers: Int, configuration: EngineConfiguration, queueCapacity: Int = 1024,
                makeTokens: () throws -> ProviderTokenCache) throws {
        guard queueCapacity >= 1 else { throw EngineError.badConfiguration("worker queue capacity must be at least 1") }
        try configuration.validate(workers: workers)
        try LibcurlInfo.loaded().requireUsable()
        self.configuration = configuration
        self.queueCapacity = queueCapacity
        workerConfigurations = Self.connections(total: configuration.connections, workers: workers).map { c in
            var w = configuration
            w.connections = c
            // Fresh snapshots for the pool's own progress line.
            w.progressInterval = Swift.min(configuration.progressInterval, 0.5)
            return w
        }
        tokens = try (0..<workers).map { _ in try makeTokens() }
    }

    /// `total` connections split over `workers`, the first ones getting one more when it does not divide.
    public static func connections(total: Int, workers: Int) -> [Int] {
        (0..<workers).map { total / workers + ($0 < total % workers ? 1 : 0) }
    }

    // MARK: Partitioning

    /// The worker (0 ..< `workers`) that sends every push to `token` (``TokenPartition``: the high bits of
    /// the token's hash; shards take its low bits).
    @inline(__always)
    public static func worker(for token: String, of workers: Int) -> Int {
        TokenPartition.worker(for: token, of: workers)
    }

    // MARK: Running

    /// Sends every push `source` gives through the workers and returns when all have ended (or the
    /// duration limit was reached and what was in flight has ended), with the workers' counters summed
    /// (`peakInFlight` is the sum of the workers' peaks, an upper bound). Per-worker details are in
    /// `lastRun`. Blocks the calling thread, which emits the progress hook.
    /// - Parameters:
    ///   - sink: gets what the source says is not sent, and the pushes the producer pulled but could not
    ///     hand over after the run stopped (on the producer's thread).
    ///   - workerSinks: one per worker; worker i's engine records every outcome of its pushes there.
    public func run(source: PushSource, sink: OutcomeSink, workerSinks: [OutcomeSink]) throws -> EngineCounters {
        let n = workers
        precondition(workerSinks.count == n, "one sink per worker")
        let queues = (0..<n).map { _ in PushQueue(capacity: queueCapacity) }
        let results = ResultBox(count: n)
        // One stop for every engine and the producer: a signal, or one engine giving up on the target.
        let runStop = stop ?? RunStop()
        progressLock.withLock { progress = Array(repeating: PoolProgress(), count: n) }
        let group = DispatchGroup()
        // Every engine before any thread, so a setup failure leaves no thread waiting on a queue. Each engine
        // counts the limit from its own start, which is after the pool's: none ends before the pool's deadline.
        let engines = try makeEngines(stop: runStop, workerSinks: workerSinks)
        let started = MonotonicTime.now()
        let deadline: UInt64? = configuration.durationLimit.map { started + UInt64(Swift.max(0, $0.secondsValue) * 1e9) }
        onStart?(started)
        // Workers first, so each is waiting on its queue when the first push comes.
        for i in 0..<n { startWorker(i, engine: engines[i], queue: queues[i], sink: workerSinks[i], results: results, group: group) }
        let producerStats = startProducer(source: source, sink: sink, queues: queues, deadline: deadline, stop: runStop, group: group)

        let interval = Swift.max(0.1, configuration.progressInterval)
        while group.wait(timeout: .now() + interval) == .timedOut {
            if let onProgress { onProgress(progressTotals()) }
        }
        var total = try collect(results, queues: queues)
        // The producer has left the group: its stats were written before.
        total.producerCPUMillis = producerStats.value.cpuMillis
        total.producerLatePushes = producerStats.value.latePushes
        return total
    }

    /// One engine per worker, each with the run's duration limit and stop, reporting its progress into the pool's.
    private func makeEngines(stop runStop: RunStop, workerSinks: [OutcomeSink]) throws -> [CurlEngine] {
        try (0..<workers).map { i in
            let config = workerConfigurations[i]
            let engine = try CurlEngine(configuration: config, tokens: tokens[i])
            engine.stop = runStop
            runStop.onRequest { [weak engine] in engine?.wake() }
            // On the engine's thread, which also records into its sink: the sink's counts are read there.
            let reporting = workerSinks[i] as? ProgressReportingSink
            engine.onProgress = { [weak self] counters, completed, inFlight in
                guard let self else { return }
                let snapshot = PoolProgress(counters: counters, completed: completed, inFlight: inFlight,
                                            outcomes: reporting?.progressSnapshot() ?? OutcomeProgress())
                self.progressLock.withLock { self.progress[i] = snapshot }
            }
            return engine
        }
    }

    /// Worker `i`'s thread: its engine runs over its queue and records into its sink.
    private func startWorker(_ i: Int, engine: CurlEngine, queue: PushQueue, sink: OutcomeSink, results: ResultBox, group: DispatchGroup) {
        // A push into an empty queue ends the engine's wait in curl_multi_poll at once.
        queue.wakeConsumer = { [unowned engine] in engine.wake() }
        // The engine, its queue's consumer side and its sink belong to the worker thread from here on.
        let engineBox = HandOver(engine), sinkBox = HandOver(sink), observerBox = HandOver(takeObserver)
        group.enter()
        let thread = Thread {
            Self.nameThread("apnsbench-w\(i)")
            let engine = engineBox.value, workerSink = sinkBox.value, observer = observerBox.value
            let queueSource = QueueSource(queue: queue)
            if let observe = observer { queueSource.observer = { observe(i, $0) } }
            do {
                results.set(i, .success(try engine.run(source: queueSource, sink: workerSink)))
            } catch {
                // Nothing more will be taken from this queue: what is in it ends as not sent, and
                // the producer stops at its next hand-over here.
                var scratch = OutgoingPush(bodyCapacity: 0)
                workerSink.recordAbandoned(queueSource, using: &scratch)
                results.set(i, .failure(error))
            }
            group.leave()
        }
        thread.stackSize = 4 << 20
        thread.start()
    }

    /// The producer's thread; its stats are in the box once it left the group.
    private func startProducer(source: PushSource, sink: OutcomeSink, queues: [PushQueue], deadline: UInt64?, stop runStop: RunStop,
                               group: DispatchGroup) -> ProducerStatsBox {
        group.enter()
        let ends = HandOver((source, sink, queues))
        let producerStats = ProducerStatsBox()
        let grace = UInt64(Swift.max(0, configuration.durationGraceSeconds) * 1e9)
        let producer = Thread {
            Self.nameThread("apnsbench-prod")
            let (source, sink, queues) = ends.value
            let cpuAtStart = MonotonicTime.threadCPUNanos()
            var stats = Self.produce(source: source, sink: sink, queues: queues, deadline: deadline, graceNanos: grace, stop: runStop)
            stats.cpuMillis = Int((MonotonicTime.threadCPUNanos() &- cpuAtStart) / 1_000_000)
            producerStats.value = stats
            group.leave()
        }
        producer.stackSize = 4 << 20
        producer.start()
        return producerStats
    }

    /// The workers' counters summed, and each worker's run in `lastRun`; the first worker's error if one failed.
    private func collect(_ results: ResultBox, queues: [PushQueue]) throws -> EngineCounters {
        var total = EngineCounters()
        var runs: [WorkerRun] = []
        var firstError: Error?
        for i in 0..<workers {
            switch results.get(i) {
            case .success(let counters)?:
                total += counters
                runs.append(WorkerRun(connections: workerConfigurations[i].connections, pushes: queues[i].putCount, counters: counters,
                                      producerWaits: queues[i].producerWaits, consumerWaits: queues[i].consumerWaits))
            case .failure(let error)?:
                if firstError == nil { firstError = error }
            case nil:
                if firstError == nil { firstError = EngineError.curlSetup("worker \(i) did not run") }
            }
        }
        if let firstError { throw firstError }
        lastRun = runs
        return total
    }

    /// The producer: pull, pick the worker, hand over; record what the source says is not sent; stop at
    /// the deadline or when a worker stopped taking.
    /// A scheduled source (its pushes have intended times) is read past the deadline while its pushes are
    /// due before it, up to `graceNanos` after it, so that where the run ends in the schedule does not depend
    /// on when the producer's thread ran: the first push due after the deadline ends it.
    private static func produce(source: PushSource, sink: OutcomeSink, queues: [PushQueue], deadline: UInt64?, graceNanos: UInt64,
                                stop: RunStop) -> ProducerStats {
        let n = queues.count
        var stats = ProducerStats()
        var backpressured = false
        var push = OutgoingPush()
        var stopped = false
        var cause = NotSentCause.runStopped
        /// The deadline, once the producer stopped there: what the source still holds counts as after the end.
        var endedAt: UInt64? = nil
        var scheduled = false  // the source gives intended times: the schedule, not the clock, says where the end falls
        pulling: while true {
            if stop.isRequested {
                cause = stop.cause
                stopped = true
                break
            }
            if let deadline, MonotonicTime.now() >= (scheduled ? deadline &+ graceNanos : deadline) {
                stopped = true
                endedAt = deadline
                break
            }
            switch source.next(into: &push) {
            case .push:
                scheduled = push.intendedNanos != 0
                // Due after the end: the run plans nothing past it (a looping run does not start the
                // next pass ahead of time), so this push and what the source holds are after the end.
                if let deadline, push.intendedNanos > deadline {
                    sink.recordNotSent(.afterEnd, push)
                    stopped = true
                    endedAt = deadline
                    break pulling
                }
                // Late on its own account: not because an engine's full queue held the producer back.
                if !backpressured, push.intendedNanos != 0, MonotonicTime.now() > push.intendedNanos + ProducerStats.lateAfterNanos { stats.latePushes += 1 }
                let queue = queues[worker(for: push.deviceToken, of: n)]
                defer { backpressured = queue.lastPutWaited }
                if !queue.put(&push) {
                    // That worker stopped (duration limit, or it failed): this push will not be sent.
                    if stop.isRequested { cause = stop.cause }
                    endedAt = refused(push, cause: cause, deadline: deadline, sink: sink)
                    stopped = true
                    break pulling
                }
            case .notSent(let cause):
                sink.recordNotSent(cause, push)
            case .idle:
                // A source in front of the producer has nothing yet (none does today): ask again shortly.
                usleep(100)
            case .end:
                break pulling
            }
        }
        if stopped {
            sink.recordAbandoned(source, using: &push, stoppedAs: cause, deadline: endedAt)
        }
        for q in queues { q.close() }
        return stats
    }

    /// Records a push a stopped worker's queue refused: after the run's end when the deadline has passed and
    /// nothing else stopped the run (returns the deadline then), else not sent for `cause`.
    private static func refused(_ push: OutgoingPush, cause: NotSentCause, deadline: UInt64?, sink: OutcomeSink) -> UInt64? {
        if cause == .runStopped, let deadline, MonotonicTime.now() >= deadline {
            sink.recordNotSent(.atDeadline(deadline, intended: push.intendedNanos), push)
            return deadline
        }
        sink.recordNotSent(cause, push)
        return nil
    }

    /// Names the calling thread for `top -H`, `perf` and /proc (Linux keeps 15 bytes).
    private static func nameThread(_ name: String) {
        // Set from the thread itself: Foundation passes it on to the OS thread only then.
        Thread.current.name = name
    }

    private func progressTotals() -> PoolProgress {
        progressLock.withLock {
            var total = PoolProgress()
            for p in progress { total += p }
            return total
        }
    }
}

/// An engine that keeps running when its source has nothing ready yet (`next(into:)` returned `.idle`),
/// asks again after its next wait, and whose `wake()` ends
/// that wait from any thread. A `WorkerPool` never blocks such an engine's thread on an empty queue:
/// its transfers in flight keep going while the producer catches up.
public protocol WakeableEngine: AnyObject {
    func wake()
}

/// One worker's view of its queue, as the `PushSource` its engine pulls from. Used on the worker's
/// thread only.
final class QueueSource: PushSource {
    let queue: PushQueue
    private var abandoned = false
    /// What was still queued when the engine stopped, handed out as not sent.
    private var leftovers: [(priority: Priority, intended: UInt64)] = []
    var observer: ((OutgoingPush) -> Void)?

    init(queue: PushQueue) {
        self.queue = queue
    }

    /// Never waits: an empty queue is "nothing yet" (`.idle`), and the engine waits in curl_multi_poll,
    /// with its transfers going, until the producer's next push wakes it.
    func next(into push: inout OutgoingPush) -> PullResult {
        if abandoned {
            guard let left = leftovers.popLast() else { return .end }
            push.priority = left.priority
            push.intendedNanos = left.intended
            return .notSent(.runStopped)
        }
        switch queue.poll(into: &push) {
        case .push:
            if let observer { observer(push) }
            return .push
        case .empty:
            return .idle
        case .ended:
            return .end
        }
    }

    /// The engine stopped early: the producer's next hand-over here fails, and what is still queued is
    /// handed out as not sent.
    func abandon() {
        guard !abandoned else { return }
        abandoned = true
        queue.abandon { leftovers.append(($0.priority, $0.intendedNanos)) }
        leftovers.reverse()
    }
}

/// A value handed to exactly one other thread, which alone uses it from then on (sources and sinks are
/// single-threaded, not `Sendable`).
private struct HandOver<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// The workers' results, written on their threads and read after they joined.
/// What the producer thread measured of itself.
struct ProducerStats {
    /// A push handed over later than this after it was due counts as late.
    static let lateAfterNanos: UInt64 = 1_000_000
    var cpuMillis = 0
    var latePushes = 0
}

/// The producer's stats, written by its thread before it leaves the pool's group and read after the wait.
private final class ProducerStatsBox: @unchecked Sendable {
    var value = ProducerStats()
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<EngineCounters, Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ r: Result<EngineCounters, Error>) { lock.withLock { results[i] = r } }
    func get(_ i: Int) -> Result<EngineCounters, Error>? { lock.withLock { results[i] } }
}

/// How far a pool's run got: its workers' counters, completions, pushes in flight and outcome counts.
public struct PoolProgress: Sendable {
    public var counters = EngineCounters()
    public var completed = 0
    public var inFlight = 0
    /// What the workers' sinks recorded (zero when they cannot say: see ``ProgressReportingSink``).
    public var outcomes = OutcomeProgress()

    public init(counters: EngineCounters = EngineCounters(), completed: Int = 0, inFlight: Int = 0, outcomes: OutcomeProgress = OutcomeProgress()) {
        self.counters = counters
        self.completed = completed
        self.inFlight = inFlight
        self.outcomes = outcomes
    }

    public static func += (a: inout PoolProgress, b: PoolProgress) {
        a.counters += b.counters
        a.completed += b.completed
        a.inFlight += b.inFlight
        a.outcomes += b.outcomes
    }
}
