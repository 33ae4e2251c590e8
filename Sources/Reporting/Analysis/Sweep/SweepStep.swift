import APNsCore
import Histogram

/// One open-loop step of a rate sweep, as the knee criteria read it: taken from the step's report.
public struct SweepStep: Codable, Sendable, Equatable {
    /// The rate the step offered, pushes a second: the schedule's rate less the pushes that could never be
    /// sent (``notSendableShare``), so that it counts what ``achievedRate`` counts.
    public var offeredRate: Double
    /// Pushes sent a second (each push once, resends not counted) over the window in which the schedule was
    /// sending: the step's length, or less when the recording ran out.
    public var achievedRate: Double
    /// The schedule's own rate (the search's), pushes a second. Nil in steps recorded before it existed.
    public var scheduledRate: Double?
    /// With a search over recorded-pace multiples: the step's multiple (its rate is then what the recording
    /// offered at it).
    public var speed: Double?
    /// What the search varied: the multiple, or the schedule's rate.
    public var searchValue: Double { speed ?? scheduledRate ?? offeredRate }
    /// Of the pushes the schedule gave a send time, the share the engine dropped as not sendable by nature
    /// (a token already answered 410, a broadcast channel gone).
    public var notSendableShare: Double = 0
    /// The window the rates were measured over, seconds.
    public var windowSeconds: Double?
    /// The step's first seconds, left out of its p99: the connections and the pacing settle first. Nil in steps recorded before it existed (nothing left out).
    public var warmupSeconds: Double?
    /// p99 response time from the intended send (corrected for coordinated omission), ms, over the measured
    /// window (the warm-up left out): the one p99 the verdict, sweep.md, sweep.json and sweep.html give.
    public var p99Millis: Double
    /// p50 and p99.9 over the same window, ms; nil in steps recorded before they were kept.
    public var p50Millis: Double?
    public var p999Millis: Double?
    /// The delivered share of the pushes owed (``RunReport/Pushes/deliveredShare``): the run's own. In sweeps
    /// of schema 1 it was the share of the pushes sent to the target.
    public var deliveredShare: Double
    /// Delivered share of the pushes sent to the target (answered or not): what the target's answers alone
    /// say, for the limiter. Nil in steps recorded before it existed.
    public var deliveredOfSent: Double?
    /// Rejection reasons of the 429 and 5xx classes seen (the capacity's signs).
    public var overloadReasons: [String]
    /// Each of those reasons' answers (final or resent) as a share of the requests sent; nil in steps
    /// recorded before it existed, and then every reason counts in full.
    public var overloadShares: [String: Double]?
    /// Requests sent (first sends and resends): what those shares are of.
    public var requests: Int?
    /// p99 of each interval of the step, ms, in order (intervals with deliveries).
    public var intervalP99Millis: [Double]
    /// p50 of each interval of the step, ms, in order: what the trend criterion reads (a queue that grows
    /// raises the median too, and a median is not one unlucky push). Nil in steps recorded before it existed.
    public var intervalP50Millis: [Double]?
    /// The process's CPU over the step's wall time (1.0 is one core busy): client and embedded simulator.
    public var processCPU: Double?
    /// The recording ran out before the step's scheduled end: the step offered less than its rate.
    public var streamEnded = false
    /// The in-flight window (connections × streams), and whether it was ever full: then sends waited on
    /// the target's answers, not on the client.
    public var window: Int?
    public var windowFilled = false
    /// The busiest engine thread's share of a core over the step: near 1, the harness was its own bottleneck.
    public var engineCPU: Double?
    /// The producer thread's share of a core over the step (workload, coalescing, pacing).
    public var producerCPU: Double?
    /// The share of the pushes the producer handed to an engine more than 1 ms after they were due.
    public var producerLateShare: Double?
    /// Connections and streams a connection: the window's factors, for the setting to raise.
    public var connections: Int?
    public var streamsPerConnection: Int?
    /// Service time (send to answer) of the delivered pushes, ms: its mean (Little's law's) and p50.
    public var serviceMeanMillis: Double?
    public var serviceP50Millis: Double?
    /// The host over the step (``HostLoad``): CPU other processes used, CPU the hypervisor took (steal), and
    /// CPU left idle, in cores. Nil when `/proc/stat` could not be read (and in steps recorded before it).
    public var host: HostLoad?
    /// The embedded simulator's capacity model: the mean time an answered request waited for its connection's
    /// server, ms (the simulator's counter `capacity_wait_ms` over its requests). It rises only when requests
    /// come faster than the model serves them, whatever the host's CPU: the target's own measure of its queue.
    /// Nil without a capacity model, against another target, or when no request waited.
    public var targetQueueMillis: Double?

    /// The capacity model's load: requests sent a second per connection over the model's capacity per
    /// connection (`faults.capacity.per_connection_per_second`). Near 1 or over, the model served all it could; a client
    /// starved of CPU sends in bursts and queues them too, but sends less, so its share stays low. Nil
    /// without a capacity model.
    public var targetBusyShare: Double?

    /// The simulator counter ``targetQueueMillis`` reads.
    public static let capacityWaitKey = "capacity_wait_ms"

    public init(offeredRate: Double, achievedRate: Double, p99Millis: Double, deliveredShare: Double,
                overloadReasons: [String] = [], intervalP99Millis: [Double] = [], processCPU: Double? = nil) {
        self.offeredRate = offeredRate
        self.achievedRate = achievedRate
        self.p99Millis = p99Millis
        self.deliveredShare = deliveredShare
        self.overloadReasons = overloadReasons
        self.intervalP99Millis = intervalP99Millis
        self.processCPU = processCPU
    }

    /// Not-sent causes the engine finds only after the schedule gave the push a send time: the push had its
    /// place in the schedule, yet no target could ever take it.
    public static let notSendableCauses = ["dead_token", "channel_gone"]

    /// The step a report describes. `rate` is the schedule's; `stepSeconds` its scheduled length (the drain
    /// after it is not the offered load's).
    /// With `recordedSpeed` the step replayed the recording at that multiple, and its rate is the pushes that
    /// came due a second over the step.
    public init(report r: RunReport, offeredRate fixedRate: Double, stepSeconds: Double, processCPU: Double? = nil, recordedSpeed: Double? = nil) {
        let interval = r.configuration.timelineInterval.secondsValue
        // Pushes that went to the target, each once: what the stream itself leaves unsent (no token, no
        // recipients, dead tokens, the step's end) is not the target's doing.
        let sent = r.pushes.delivered + r.pushes.rejectedTotal + r.pushes.failedTotal + r.pushes.timedOut
        let notSendable = Self.notSendableCauses.reduce(0) { $0 + (r.pushes.notSent[$1] ?? 0) }
        let ended = r.pushes.notSent[NotSentCause.runStopped.rawValue] == nil && r.pushes.afterEnd == 0 && r.durationSeconds < stepSeconds * 0.95
        // The window the schedule was sending in: the whole step, or up to the last second that sent when
        // the recording ran out.
        let lastSending = r.timeline.filter { $0.sent > 0 }.map { Double($0.second) + interval }.max() ?? stepSeconds
        let window = ended ? max(interval, min(stepSeconds, lastSending)) : stepSeconds
        // The warm-up is left out when enough of the window remains after it.
        let warmup = Self.warmup(stepSeconds: stepSeconds, interval: interval)
        // (Not at the recorded pace: its bursts fall where they fall, and a burst in the warm-up would
        // leave the rest short of the step's average.)
        let from = recordedSpeed == nil && window - warmup >= max(interval, window / 2) ? warmup : 0
        let whole = r.timeline.filter { Double($0.second) + interval <= window }
        let measured = whole.filter { Double($0.second) >= from }
        // The timeline counts each push once, at its last attempt.
        // The sent rate keeps the warm-up: the share not sendable (tokens found dead as the step goes) is known
        // only for the whole step, and it grows within it, so a part of the step would be set against the wrong
        // offered rate.
        let sentInWindow = r.timeline.filter { Double($0.second) < window }.reduce(0) { $0 + $1.sent }
        let share = sent + notSendable > 0 ? Double(notSendable) / Double(sent + notSendable) : 0
        let lost = r.pushes.notSent[NotSentCause.runStopped.rawValue] ?? 0
        let rate = recordedSpeed == nil ? fixedRate : Double(sent + notSendable + lost) / window
        self.init(
            offeredRate: rate * (1 - share),
            achievedRate: Double(sentInWindow) / window,
            p99Millis: Self.percentilesMillis(measured, [99])?[0] ?? Double(r.latency.responseTime.p99) / 1000,
            deliveredShare: r.pushes.deliveredShare ?? 0,
            overloadReasons: r.pushes.rejected.filter { $0.value.status == 429 || $0.value.status >= 500 }.keys.sorted(),
            // The trend reads every interval: a queue grows from the step's start, and a slow start only
            // hides a rise, it never makes one.
            intervalP99Millis: Self.intervalMillis(whole, at: 99),
            processCPU: processCPU)
        warmupSeconds = from
        takeLadder(measured, r)
        deliveredOfSent = sent > 0 ? Double(r.pushes.delivered) / Double(sent) : nil
        intervalP50Millis = Self.intervalMillis(whole, at: 50)
        scheduledRate = rate
        speed = recordedSpeed
        notSendableShare = share
        self.requests = r.engine.sent
        let requests = Double(max(1, r.engine.sent))
        overloadShares = Dictionary(uniqueKeysWithValues: overloadReasons.map { reason in
            (reason, Double((r.pushes.rejected[reason]?.count ?? 0) + (r.engine.retries[reason] ?? 0)) / requests)
        })
        windowSeconds = window
        streamEnded = ended
        self.window = r.configuration.transport.window
        engineCPU = Double(r.engine.busiestEngineCPUMillis > 0 ? r.engine.busiestEngineCPUMillis
                                                               : r.engine.engineCPUMillis / max(1, r.configuration.transport.workers)) / 1000 / window
        if r.engine.producerCPUMillis > 0 { producerCPU = Double(r.engine.producerCPUMillis) / 1000 / window }
        let scheduled = sent + notSendable
        if scheduled > 0 { producerLateShare = Double(r.engine.producerLatePushes) / Double(scheduled) }
        windowFilled = r.engine.peakInFlight >= r.configuration.transport.window
        takeWindowAndServiceTime(r)
    }

    /// p50 and p99.9 over the measured window (the whole run's when it holds no deliveries).
    private mutating func takeLadder(_ measured: [RunReport.TimelineEntry], _ r: RunReport) {
        let ladder = Self.percentilesMillis(measured, [50, 99.9])
        p50Millis = ladder?[0] ?? Double(r.latency.responseTime.p50) / 1000
        p999Millis = ladder?[1] ?? Double(r.latency.responseTime.p999) / 1000
    }

    /// The window's factors and the service time, for the limiter.
    private mutating func takeWindowAndServiceTime(_ r: RunReport) {
        connections = r.configuration.transport.connections
        streamsPerConnection = r.configuration.transport.streams
        if let wait = r.simulator?[Self.capacityWaitKey], let requests = r.simulator?["requests"], requests > 0 {
            targetQueueMillis = Double(wait) / Double(requests)
        }
        if let capacity = Self.number(r.configuration.simulator.effectiveSettings?["faults"]?["capacity"]?["per_connection_per_second"]), capacity > 0 {
            targetBusyShare = achievedRate / Double(max(1, r.configuration.transport.connections)) / capacity
        }
        if r.latency.serviceTime.count > 0 {
            serviceMeanMillis = r.latency.serviceTime.mean / 1000
            serviceP50Millis = Double(r.latency.serviceTime.p50) / 1000
        }
    }

    static func number(_ v: ConfigValue?) -> Double? {
        switch v {
        case let .int(i)?: return Double(i)
        case let .double(d)?: return d
        default: return nil
        }
    }

    /// The warm-up a step of `stepSeconds` leaves out: a fifth of it, at least one interval, at most 5 s.
    public static func warmup(stepSeconds: Double, interval: Double) -> Double {
        min(5, max(interval, (stepSeconds / 5 / interval).rounded(.up) * interval))
    }

    /// Each interval's percentile of its deliveries, ms, in order (intervals with deliveries).
    static func intervalMillis(_ entries: [RunReport.TimelineEntry], at percentile: Double) -> [Double] {
        entries.compactMap { e in e.responseTime.flatMap { EncodedPercentiles.values($0, at: [percentile])?.first }.map { Double($0) / 1000 } }
    }

    /// The `percentiles` of the deliveries in `entries`, their per-interval histograms added up, ms; nil when
    /// they hold none.
    static func percentilesMillis(_ entries: [RunReport.TimelineEntry], _ percentiles: [Double]) -> [Double]? {
        var sum: Histogram<UInt64>?
        for e in entries {
            guard let text = e.responseTime, let h = try? EncodedHistogram.decode(text) else { continue }
            if sum == nil { sum = h } else { sum!.add(h) }
        }
        guard let sum, sum.totalCount > 0 else { return nil }
        return percentiles.map { Double(sum.valueAtPercentile($0)) / 1000 }
    }
}
