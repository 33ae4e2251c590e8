import APNsCore
import APNsEngine
import Foundation
import Reporting

/// `apnsbench sweep`: open-loop steps at rising rates, each a full run with its own report under
/// `DIR/step-NN/`, judged by ``KneeCriteria``; the rates come from a ``RateSearch``. The knee is the highest
/// rate that passed; the ceiling, where the achieved rate stopped tracking the offered one.
public enum RateSweep {
    public struct Request {
        public var profilePath: String
        /// Laid over the profile for every step (the schedule and duration are the sweep's).
        public var overrides = RunConfigOverrides()
        public var credentials = Credentials()
        /// The CA certificate to trust for a URL, sandbox or production target (``RunRequest/caCertificatePath``).
        public var caCertificatePath: String?
        public var low: Double
        public var high: Double
        public var mode: RateSearch.Mode = .exponential
        /// How close the bisection brings the highest pass and the lowest failure (relative).
        public var precision = 0.05
        public var stepSeconds: Double = 30
        public var cooldownSeconds: Double = 5
        public var outDirectory = "reports/sweep"
        /// A stop another thread may request (a signal): the step under way is abandoned (its own report is
        /// still written, marked interrupted), no further step runs, and the steps measured are written.
        public var stop: RunStop?

        public init(profilePath: String, low: Double, high: Double) {
            self.profilePath = profilePath
            self.low = low
            self.high = high
        }
    }

    public struct Step: Codable {
        public var index: Int
        public var directory: String
        public var result: SweepStep
        /// The criteria it failed; empty: it passed.
        public var failures: [String]
        /// Why its sends fell short of the offered rate, when they did.
        public var shortfall: KneeCriteria.Shortfall?
        public var passed: Bool { failures.isEmpty }
    }

    public struct Outcome: Codable {
        public var criteria: KneeCriteria
        /// In the order they ran.
        public var steps: [Step]
        /// The highest offered rate that passed.
        public var knee: Double?
        /// The most a step sent whose client could not keep up (an engine thread near a full core, or the
        /// producer behind), if any could not.
        public var ceiling: Double?
        /// What limits the knee: the first failed step above it, and whether its failure was the client's.
        public var kneeLimit: KneeLimit?
        /// Set when the search stopped because the recording could not fill a step (looping off).
        public var recordingLimit: String?
        /// The recording's own rate at x1 (``RecordingPeak``), for the headroom; nil when it could not be walked.
        public var recordedPeak: RecordingPeak?
        /// Set when a signal stopped the sweep: which one, and the step it abandoned. The steps above are the
        /// ones measured before it.
        public var interrupted: String?

        /// The knee over the recording's sustained peak (its busiest minute), at x1.
        public var headroom: Double? {
            guard let knee, let peak = recordedPeak?.peakMinutePerSecond, peak > 0 else { return nil }
            return knee / peak
        }
    }

    /// What stopped the rates above the knee.
    public struct KneeLimit: Codable, Equatable {
        /// The step that failed just above the knee.
        public var step: Int
        public var offeredRate: Double
        /// True when it failed because the client could not keep up; false when the target (or the SLO) did.
        public var client: Bool
        public var failures: [String]
        /// That step's busiest engine thread, share of a core.
        public var engineCPU: Double?
    }

    /// Runs the sweep; `log` gets a line per step as it ends.
    public static func execute(_ request: Request, log: (String) -> Void) throws -> Outcome {
        var request = request
        let profile = try ReplayRun.configuration(RunRequest(profilePath: request.profilePath)).overlaying(request.overrides)
        // Broadcast channels are made for one pass over the recording.
        if profile.deliveryMode == .broadcast { request.overrides.loopRecording = nil }
        var search = RateSearch(low: request.low, high: request.high, mode: request.mode)
        search.precision = request.precision
        var recordingLimit: String?
        var steps: [Step] = []
        var points: [SweepStepPoint] = []
        var criteria: KneeCriteria?
        try FileManager.default.createDirectory(atPath: request.outDirectory, withIntermediateDirectories: true)
        var interrupted: String?
        while let rate = search.next() {
            if !steps.isEmpty, request.cooldownSeconds > 0 { cool(request.cooldownSeconds, stop: request.stop) }
            let index = steps.count + 1
            if let stop = request.stop, stop.isRequested {
                interrupted = "\(stop.reason ?? "stopped") after \(steps.count) step(s), before step \(index)"
                break
            }
            let run = stepRun(request, rate: rate, index: index)
            let cpuBefore = processCPUSeconds(), wallBefore = Date()
            let executed = try ReplayRun.execute(run, log: { _ in })
            if executed.interrupted {
                // Cut short, it measures nothing the criteria could judge: left out, its report kept.
                interrupted = "\(executed.report.stopReason ?? "stopped") during step \(index) at \(Int(rate))/s: abandoned (its report, "
                    + "marked interrupted, is in \(run.outDirectory)); \(steps.count) step(s) measured before it"
                log("sweep: " + interrupted!)
                break
            }
            let report = executed.report
            let cpu = (processCPUSeconds() - cpuBefore) / max(0.001, Date().timeIntervalSince(wallBefore))
            let c = criteria ?? KneeCriteria(sloP99Millis: Double(report.configuration.slo.p99Millis ?? 1000),
                                             minDelivered: report.configuration.slo.minDelivered ?? 0.99)
            criteria = c
            let step = judged(report, rate: rate, index: index, directory: run.outDirectory, stepSeconds: request.stepSeconds, cpu: cpu,
                              criteria: c, first: steps.first)
            steps.append(step)
            points.append(point(step, report: report))
            log(line(step))
            if step.result.streamEnded {
                // Not the target's failure, and no higher rate can be judged either: the search ends here.
                recordingLimit = recordingLimitNote(report, rate: rate, result: step.result, stepSeconds: request.stepSeconds)
                log("sweep: " + recordingLimit!)
                break
            }
            search.record(rate, passed: step.failures.isEmpty)
        }
        var outcome = conclusion(steps, criteria: criteria)
        outcome.recordingLimit = recordingLimit
        outcome.interrupted = interrupted
        // A stopped sweep writes what it measured at once; the recording is not walked again.
        if interrupted == nil { outcome.recordedPeak = try? RecordingPeak.measure(profile) }
        try write(outcome, points: points, request: request)
        return outcome
    }

    /// Step `index`'s run: the profile at `rate` for the step's seconds, into its own folder.
    private static func stepRun(_ request: Request, rate: Double, index: Int) -> RunRequest {
        var run = RunRequest(profilePath: request.profilePath)
        run.overrides = request.overrides
        run.overrides.schedule = .fixedRate(perSecond: rate)
        run.overrides.durationSeconds = request.stepSeconds
        run.credentials = request.credentials
        run.caCertificatePath = request.caCertificatePath
        run.outDirectory = (request.outDirectory as NSString).appendingPathComponent(String(format: "step-%02d", index))
        run.stop = request.stop
        return run
    }

    /// A step's report judged by the criteria (against the first step, for the latency's growth).
    private static func judged(_ report: RunReport, rate: Double, index: Int, directory: String, stepSeconds: Double, cpu: Double,
                               criteria c: KneeCriteria, first: Step?) -> Step {
        let result = SweepStep(report: report, offeredRate: rate, stepSeconds: stepSeconds, processCPU: cpu)
        let failures = c.failures(of: result, first: first?.result)
        return Step(index: index, directory: directory, result: result, failures: failures, shortfall: c.shortfall(of: result))
    }

    /// The step as sweep.html plots it.
    private static func point(_ step: Step, report: RunReport) -> SweepStepPoint {
        let r = report.latency.responseTime
        return SweepStepPoint(offered: step.result.offeredRate, achieved: step.result.achievedRate, p50Millis: Double(r.p50) / 1000,
                              p99Millis: Double(r.p99) / 1000, p999Millis: Double(r.p999) / 1000, passed: step.failures.isEmpty,
                              verdict: step.failures.isEmpty ? "pass" : "fail: " + step.failures.joined(separator: "; "))
    }

    /// Why the search ended at a step whose recording ran out, and what would let it go higher.
    private static func recordingLimitNote(_ report: RunReport, rate: Double, result: SweepStep, stepSeconds: Double) -> String {
        let pushes = report.pushes.planned - report.pushes.notSentTotal
            + report.pushes.notSent.filter { SweepStep.notSendableCauses.contains($0.key) }.values.reduce(0, +)
        return String(format: "the recording holds %d pushes to send: at %.0f/s it ran out after %.0f s of the %.0f-s step, so the steps above %.0f/s would need more (loop it: the default; or record a longer stream, or shorten --step-seconds)",
                      pushes, rate, result.windowSeconds ?? 0, stepSeconds, Double(pushes) / stepSeconds)
    }

    /// The knee (the highest rate that passed), the ceiling a saturated client reached, and what limited the
    /// first failing step above the knee.
    private static func conclusion(_ steps: [Step], criteria: KneeCriteria?) -> Outcome {
        let knee = steps.filter(\.passed).map(\.result.offeredRate).max()
        let byRate = steps.sorted { $0.result.offeredRate < $1.result.offeredRate }
        // Past saturation the sent rate can fall (a backlog's catch-up costs more), so the ceiling is the most
        // a saturated step sent.
        let ceiling = byRate.filter { $0.shortfall == .engineSaturated || $0.shortfall == .producerBehind }.map(\.result.achievedRate).max()
        var outcome = Outcome(criteria: criteria ?? KneeCriteria(sloP99Millis: 1000, minDelivered: 0.99), steps: steps, knee: knee, ceiling: ceiling)
        if let limit = byRate.first(where: { !$0.passed && !$0.result.streamEnded && $0.result.offeredRate > (knee ?? 0) }) {
            // The client's, when that step's sends fell short on its account, or when it failed another
            // criterion with an engine or producer thread saturated (its latency then is the client's too).
            let saturated = (limit.result.engineCPU ?? 0) >= KneeCriteria.saturatedCPU || (limit.result.producerCPU ?? 0) >= KneeCriteria.saturatedCPU
            outcome.kneeLimit = KneeLimit(step: limit.index, offeredRate: limit.result.offeredRate,
                                          client: limit.shortfall == .engineSaturated || limit.shortfall == .producerBehind || saturated,
                                          failures: limit.failures, engineCPU: limit.result.engineCPU)
        }
        return outcome
    }

    /// sweep.json, sweep.md and sweep.html in the sweep's folder.
    private static func write(_ outcome: Outcome, points: [SweepStepPoint], request: Request) throws {
        let dir = request.outDirectory as NSString
        try JSONEncoder.sortedPretty.encode(outcome).write(to: URL(fileURLWithPath: dir.appendingPathComponent("sweep.json")))
        try markdown(outcome).write(toFile: dir.appendingPathComponent("sweep.md"), atomically: true, encoding: .utf8)
        let page = SweepHtml.render(steps: points, knee: outcome.knee, sloP99Millis: outcome.criteria.sloP99Millis,
                                    title: "Rate sweep: \((request.profilePath as NSString).lastPathComponent)")
        try page.write(toFile: dir.appendingPathComponent(SweepHtml.fileName), atomically: true, encoding: .utf8)
    }

    static func line(_ s: Step) -> String {
        let r = s.result
        return String(format: "step %02d  schedule %7.0f/s  offered %7.0f/s  sent %7.0f/s  p99 %8.1f ms  delivered %6.2f%%  ", s.index,
                      r.scheduledRate ?? r.offeredRate, r.offeredRate, r.achievedRate, r.p99Millis, r.deliveredShare * 100)
            + (s.passed ? "pass" : "FAIL: " + s.failures.joined(separator: "; "))
    }

    /// The table, the knee and the ceiling, for a PR comment or a terminal.
    public static func markdown(_ o: Outcome) -> String {
        var out = "# Rate sweep\n\n"
        out += String(format: "Criteria: sent ≥ %.0f%% of offered; p99 ≤ %.0f ms; delivered ≥ %.2f%% and no new 429/5xx class; p50 not rising within a step (late third ≤ %.1f× early third).\n\n",
                      o.criteria.minSendShare * 100, o.criteria.sloP99Millis, o.criteria.minDelivered * 100, o.criteria.trendFactor)
        out += "Offered and sent count the pushes that could be sent: the schedule's rate less the pushes no target could take (tokens already answered 410, channels gone).\n\n"
        out += "| step | schedule/s | offered/s | sent/s | not sendable | p99 ms | delivered | engine thread CPU | producer CPU | process CPU | verdict |\n| --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |\n"
        let percent: (Double?) -> String = { $0.map { String(format: "%.0f%%", $0 * 100) } ?? "-" }
        for s in o.steps {
            let r = s.result
            out += String(format: "| %d | %.0f | %.0f | %.0f | %.1f%% | %.1f | %.2f%% | %@ | %@ | %@ | %@ |\n", s.index, r.scheduledRate ?? r.offeredRate,
                          r.offeredRate, r.achievedRate, r.notSendableShare * 100, r.p99Millis, r.deliveredShare * 100,
                          percent(r.engineCPU), percent(r.producerCPU), percent(r.processCPU),
                          s.passed ? "pass" : "fail: " + s.failures.joined(separator: "; "))
        }
        out += "\n"
        out += o.knee.map { String(format: "**Knee: %.0f pushes/s**, the highest offered rate that passed", $0) }
            ?? "**No step passed**: the lowest rate already fails (see its verdict)"
        if o.knee != nil, let limit = o.kneeLimit {
            out += String(format: "; limited by the **%@**: step %d at %.0f/s failed: %@%@.\n", limit.client ? "client" : "target",
                          limit.step, limit.offeredRate, limit.failures.joined(separator: "; "),
                          limit.engineCPU.map { String(format: " (engine thread %.0f%% of a core)", $0 * 100) } ?? "")
        } else {
            out += o.knee == nil ? ".\n" : "; no step above it failed (raise the search's high bound to find the limit).\n"
        }
        if let limit = o.recordingLimit { out += "The search ended early: \(limit).\n" }
        if let why = o.interrupted { out += "**Stopped by a signal**: \(why). The knee above is of the steps measured.\n" }
        out += o.ceiling.map { String(format: "Client ceiling: %.0f pushes/s, where the sent rate stopped tracking the offered rate with an engine or producer thread saturated: past it the harness, not the target, is the limit.\n", $0) }
            ?? "The client kept up at every step (no engine or producer thread saturated).\n"
        if let peak = o.recordedPeak {
            out += String(format: "Recorded peak %.1f pushes/s (its busiest minute, at x1; busiest second %d)", peak.peakMinutePerSecond, peak.peakSecond)
            out += o.headroom.map { String(format: ", knee %.0f/s: **%.1f× headroom** over the recording's own peak.\n", o.knee ?? 0, $0) } ?? ".\n"
        }
        return out
    }

    /// Waits `seconds` between steps, or less when a stop is requested.
    static func cool(_ seconds: Double, stop: RunStop?) {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until, !(stop?.isRequested ?? false) { usleep(50_000) }
    }

    /// CPU seconds this process has used (user and system).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
