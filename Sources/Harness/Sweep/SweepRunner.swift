import APNsCore
import Foundation
import Reporting

/// The steps of one rate sweep as they run: the search (an undecided failing step measured again at once),
/// then the repeats of the deciding rates (``KneeVerdict``). Stops at a signal or when the recording ran out.
struct SweepRunner {
    let request: RateSweep.Request
    let log: (String) -> Void
    private(set) var steps: [RateSweep.Step] = []
    private(set) var points: [SweepStepPoint] = []
    private(set) var criteria: KneeCriteria?
    private(set) var recordingLimit: String?
    private(set) var interrupted: String?
    /// Repeat steps at most this many times the repeats asked for (a knee that keeps moving down).
    static let repeatBudget = 4

    init(request: RateSweep.Request, log: @escaping (String) -> Void) {
        self.request = request
        self.log = log
    }

    /// The rate search; a failing step whose limiter is undecided (the host was busy) is measured once more, and
    /// the search goes by that.
    mutating func search() throws {
        var search = RateSearch(low: request.low, high: request.high, mode: request.mode)
        search.precision = request.precision
        while let rate = search.next() {
            guard var step = try measure(rate, purpose: .search) else { return }
            if step.result.streamEnded { return }
            if request.remeasureDisturbed, step.limiter?.kind == .undecided, let host = step.result.host {
                log(String(format: "sweep: step %02d failed and its limiter is undecided: the host was busy (%@): measuring it again", step.index, host.split))
                guard let again = try measure(rate, purpose: .remeasure) else { return }
                steps[steps.count - 2].remeasuredBy = again.index
                step = again
                if step.result.streamEnded { return }
            }
            search.record(rate, passed: step.passed)
        }
    }

    /// Repeats the knee and the failing rate above it until their repeats decide them; when the repeats
    /// moved the knee and left its bracket wider than the search's precision, the rate between is measured
    /// and the new deciding rates repeated in turn.
    mutating func confirm() throws {
        guard interrupted == nil, recordingLimit == nil, request.repeats > 0 else { return }
        var budget = Self.repeatBudget * request.repeats * 2
        while budget > 0, let (rate, kind) = KneeVerdict.next(measurements, wanted: request.repeats, precision: request.precision) {
            budget -= 1
            guard let step = try measure(rate, purpose: kind), !step.result.streamEnded else { return }
        }
    }

    /// Every step as the knee's verdict reads it, by the schedule's rate.
    var measurements: [KneeVerdict.Measurement] {
        steps.map { KneeVerdict.Measurement(rate: $0.result.searchValue, passed: $0.passed,
                                            kind: $0.purpose ?? .search, recordingEnded: $0.result.streamEnded) }
    }

    /// Runs one step at `rate` after the cooldown; nil when a signal stopped the sweep before or during it.
    private mutating func measure(_ rate: Double, purpose: KneeVerdict.Measurement.Kind) throws -> RateSweep.Step? {
        if !steps.isEmpty, request.cooldownSeconds > 0 { RateSweep.cool(request.cooldownSeconds, stop: request.stop) }
        let index = steps.count + 1
        if let stop = request.stop, stop.isRequested {
            interrupted = "\(stop.reason ?? "stopped") after \(steps.count) step(s), before step \(index)"
            return nil
        }
        if purpose != .search {
            let what = request.pace == .speed ? String(format: "x%g", rate) : String(format: "%.0f/s", rate)
            log(String(format: "sweep: step %02d: %@ of %@", index, purpose.rawValue, what))
        }
        let run = RateSweep.stepRun(request, rate: rate, index: index)
        let sampler = HostSampler()
        let executed = try ReplayRun.execute(run, log: { _ in })
        if executed.interrupted {
            // Cut short, it measures nothing the criteria could judge: left out, its report kept.
            interrupted = "\(executed.report.stopReason ?? "stopped") during step \(index) at \(Int(rate))/s: abandoned (its report, "
                + "marked interrupted, is in \(run.outDirectory)); \(steps.count) step(s) measured before it"
            log("sweep: " + interrupted!)
            return nil
        }
        let report = executed.report
        let host = sampler.load(engineAndProducerCPU: Double(report.engine.engineCPUMillis + report.engine.producerCPUMillis) / 1000)
        let cpu = host?.ownCores ?? (HostSampler.processCPUSeconds() - sampler.ownCPU) / max(0.001, Date().timeIntervalSince(sampler.at))
        let c = criteria ?? KneeCriteria(sloP99Millis: Double(report.configuration.slo.p99?.millis ?? 1000),
                                         minDelivered: report.configuration.slo.minDelivered ?? 0.99)
        criteria = c
        var step = RateSweep.judged(report, rate: rate, index: index, directory: run.outDirectory, stepSeconds: request.stepSeconds,
                                    cpu: cpu, host: host, criteria: c, first: RateSweep.baseline(steps, judging: rate), pace: request.pace)
        step.purpose = purpose
        steps.append(step)
        points.append(RateSweep.point(step))
        log(RateSweep.line(step))
        if step.result.streamEnded {
            // Not the target's failure, and no higher rate can be judged either: the search ends here.
            recordingLimit = RateSweep.recordingLimitNote(report, rate: rate, result: step.result, stepSeconds: request.stepSeconds)
            log("sweep: " + recordingLimit!)
        }
        return step
    }
}
