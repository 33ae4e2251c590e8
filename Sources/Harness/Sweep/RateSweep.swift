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
        /// The bounds: pushes a second, or recorded-pace multiples (``pace``).
        public var low: Double
        public var high: Double
        /// What the search varies: a fixed rate, or the recorded pace's multiple (`--speed LOW..HIGH`).
        public var pace = Pace.rate
        public var mode: RateSearch.Mode = .exponential
        /// How close the bisection brings the highest pass and the lowest failure (relative).
        public var precision = 0.05
        public var stepSeconds: Double = 30
        public var cooldownSeconds: Double = 5
        public var outDirectory = "reports/sweep"
        /// A stop another thread may request (a signal): the step under way is abandoned (its own report is
        /// still written, marked interrupted), no further step runs, and the steps measured are written.
        public var stop: RunStop?
        /// How many times the deciding rates (the knee and the failing rate above it) are repeated before the
        /// knee is named; 0: not at all.
        public var repeats = 2
        /// Measure a failing step again at once when its limiter is undecided (the host was busy).
        public var remeasureDisturbed = true
        /// The production peak the knee is set against and must carry, pushes a second (`--peak`; else the
        /// profile's `capacity_peak_per_second`).
        public var peak: Double?
        /// The headroom over the peak the knee must carry (`--min-headroom`; else the profile's
        /// `capacity_min_headroom`; else 1).
        public var minHeadroom: Double?
        /// Progress inside each step (a run's progress line); nil: none.
        public var progress: RunProgress?

        public init(profilePath: String, low: Double, high: Double) {
            self.profilePath = profilePath
            self.low = low
            self.high = high
        }
    }

    public enum Pace: String, Codable, Sendable {
        /// Fixed rates, pushes a second.
        case rate
        /// Multiples of the recorded pace: the recording's own shape of traffic.
        case speed
    }

    public struct Step: Codable {
        public var index: Int
        public var directory: String
        public var result: SweepStep
        /// The criteria it failed; empty: it passed.
        public var failures: [String]
        /// Why its sends fell short of the offered rate, when they did.
        public var shortfall: KneeCriteria.Shortfall?
        /// What limited it, when it failed: named from its own numbers (``StepLimiter``).
        public var limiter: StepLimiter?
        /// Why it ran: the search, a re-measurement of an undecided failing step, or a repeat of a deciding
        /// rate. Nil in sweeps recorded before it existed (the search).
        public var purpose: KneeVerdict.Measurement.Kind?
        /// The step that measured this rate again because this one failed undecided (the host was busy).
        public var remeasuredBy: Int?
        public var passed: Bool { failures.isEmpty }
    }

    /// The step a new measurement at `rate` is judged against: the first rate's first measurement on an
    /// undisturbed host, so that a disturbed first step measured again is the baseline by its re-measurement,
    /// not by the service time and answers other work inflated. While the first rate has no such measurement, a
    /// new one of it is judged as the first step is (against nothing), and another rate against the first step.
    static func baseline(_ steps: [Step], judging rate: Double) -> Step? {
        guard let first = steps.first else { return nil }
        let firstRate = first.result.searchValue
        if let quiet = steps.first(where: { $0.result.searchValue == firstRate && $0.result.host?.disturbed != true }) { return quiet }
        return rate == firstRate ? nil : first
    }

    public struct Outcome: Codable {
        public var criteria: KneeCriteria
        /// In the order they ran.
        public var steps: [Step]
        /// The highest offered rate that passed.
        public var knee: Double?
        /// The most a step sent whose client could not keep up (its limiter the client's CPU, an engine thread
        /// near a full core, or the producer behind), if any could not.
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

        /// The knee against the recording's busiest second and minute and the given peak.
        public var headroom: Headroom?
        /// With `--speed LOW..HIGH`: the knee as a multiple of the recorded pace (``knee`` is the rate it offered).
        public var kneeSpeed: Double?
        /// The knee's bracket and the repeats that decided it.
        public var verdict: KneeVerdict?
        /// The knee held to the given peak times the minimum headroom, when a peak was given: unmet, the sweep
        /// exits 99 as a missed SLO does.
        public var requirement: PeakRequirement?
        /// sweep.json's layout: 2 since steps carry their limiter, host load and purpose, the knee its
        /// bracket, and the delivered share is the reports' one (absent: 1).
        public var schemaVersion: Int? = RateSweep.schemaVersion
    }

    public static let schemaVersion = 2

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
        /// What limited that step (client CPU, client window, target, recording, undecided).
        public var limiter: StepLimiter?
    }

    /// Runs the sweep; `log` gets a line per step as it ends.
    public static func execute(_ request: Request, log: @escaping (String) -> Void) throws -> Outcome {
        var request = request
        // Validated with the flags laid over it, as a step's run is: `--apns-model FILE` reads the model file.
        var first = stepRun(request, rate: request.low, index: 1)
        first.overrides.loopRecording = nil
        let profile = try ReplayRun.configuration(first)
        // Broadcast channels are made for one pass over the recording.
        if profile.deliveryMode == .broadcast { request.overrides.loopRecording = nil }
        try FileManager.default.createDirectory(atPath: request.outDirectory, withIntermediateDirectories: true)
        if let warning = modelWarning(profile) { log(warning) }
        var runner = SweepRunner(request: request, log: log)
        try runner.search()
        try runner.confirm()
        var outcome = conclusion(runner.steps, criteria: runner.criteria)
        outcome.recordingLimit = runner.recordingLimit
        outcome.interrupted = runner.interrupted
        // A stopped sweep writes what it measured at once; the recording is not walked again.
        if runner.interrupted == nil { outcome.recordedPeak = try? RecordingPeak.measure(profile) }
        let peak = request.peak ?? profile.slo.capacityPeakPerSecond
        outcome.headroom = Headroom(knee: outcome.knee, atLeast: outcome.kneeLimit == nil,
                                    busiestSecond: outcome.recordedPeak.map { Double($0.peakSecond) },
                                    busiestMinute: outcome.recordedPeak?.peakMinutePerSecond, givenPeak: peak,
                                    recordedPace: outcome.kneeSpeed.flatMap { s in outcome.knee.map { $0 / s } })
        if let peak, runner.interrupted == nil {
            outcome.requirement = PeakRequirement(peak: peak, minHeadroom: request.minHeadroom ?? profile.slo.capacityMinHeadroom ?? 1,
                                                  knee: outcome.knee, atLeast: outcome.knee != nil && outcome.kneeLimit == nil)
        }
        try write(outcome, points: runner.points, request: request)
        return outcome
    }

    /// The simulator's keys that make it answer as a path to APNs would, rather than at once.
    static let modelKeys = ["latency", "round_trip", "round_trip_ms", "capacity", "latency_spike"]

    /// A warning when the embedded simulator has no APNs model (no preset, no model file, no section with a
    /// latency, round trip or capacity): it answers at once and the knee is the machine's loopback. Nil otherwise.
    static func modelWarning(_ config: RunConfig) -> String? {
        guard config.target == .simulator else { return nil }
        let faults = config.simulator.effectiveSettings?["faults"]
        guard !modelKeys.contains(where: { faults?[$0] != nil }) else { return nil }
        return "sweep: warning: no APNs model (--apns-model, or the profile's simulator: section): the embedded simulator answers at once, "
            + "so the knee is this machine's loopback, not a path to APNs"
    }

    /// Step `index`'s run: the profile at `rate` for the step's seconds, into its own folder.
    static func stepRun(_ request: Request, rate: Double, index: Int) -> RunRequest {
        var run = RunRequest(profilePath: request.profilePath)
        run.overrides = request.overrides
        run.overrides.schedule = request.pace == .speed ? .recorded(speed: rate) : .fixedRate(perSecond: rate)
        run.overrides.duration = .secondsRounded(request.stepSeconds)
        run.credentials = request.credentials
        run.caCertificatePath = request.caCertificatePath
        run.outDirectory = (request.outDirectory as NSString).appendingPathComponent(String(format: "step-%02d", index))
        run.stop = request.stop
        run.progress = request.progress
        return run
    }

    /// A step's report judged by the criteria (against the first step, for the latency's growth).
    static func judged(_ report: RunReport, rate: Double, index: Int, directory: String, stepSeconds: Double, cpu: Double,
                       host: HostLoad?, criteria c: KneeCriteria, first: Step?, pace: Pace = .rate) -> Step {
        var result = SweepStep(report: report, offeredRate: rate, stepSeconds: stepSeconds, processCPU: cpu, recordedSpeed: pace == .speed ? rate : nil)
        result.host = host
        let failures = c.failures(of: result, first: first?.result)
        return Step(index: index, directory: directory, result: result, failures: failures, shortfall: c.shortfall(of: result),
                    limiter: StepLimiter.classify(result, first: first?.result, criteria: c))
    }

    /// The step as sweep.html plots it.
    /// Its latencies are the step's own, over the window its verdict judged (the warm-up left out), so that
    /// sweep.html's p99 is sweep.md's and sweep.json's.
    static func point(_ step: Step) -> SweepStepPoint {
        let r = step.result
        return SweepStepPoint(offered: r.offeredRate, achieved: r.achievedRate, p50Millis: r.p50Millis ?? r.p99Millis,
                              p99Millis: r.p99Millis, p999Millis: r.p999Millis ?? r.p99Millis, passed: step.failures.isEmpty,
                              verdict: (step.failures.isEmpty ? "pass" : "fail: " + step.failures.joined(separator: "; "))
                                  + (step.purpose.flatMap { $0 == .search ? nil : " (\($0.rawValue))" } ?? ""),
                              limiter: step.limiter?.line)
    }

    /// Why the search ended at a step whose recording ran out, and what would let it go higher.
    static func recordingLimitNote(_ report: RunReport, rate: Double, result: SweepStep, stepSeconds: Double) -> String {
        let pushes = report.pushes.planned - report.pushes.notSentTotal
            + report.pushes.notSent.filter { SweepStep.notSendableCauses.contains($0.key) }.values.reduce(0, +)
        return String(format: "the recording holds %d pushes to send: at %.0f/s it ran out after %.0f s of the %.0f-s step, "
            + "so the steps above %.0f/s would need more (loop it: the default; or record a longer stream, or shorten --step-seconds)",
                      pushes, rate, result.windowSeconds ?? 0, stepSeconds, Double(pushes) / stepSeconds)
    }

    /// The knee (the highest rate that passed), the ceiling a saturated client reached, and what limited the
    /// first failing step above the knee.
    static func conclusion(_ steps: [Step], criteria: KneeCriteria?) -> Outcome {
        let schedule: (Step) -> Double = { $0.result.searchValue }
        let verdict = KneeVerdict.judge(steps.map {
            KneeVerdict.Measurement(rate: schedule($0), passed: $0.passed, kind: $0.purpose ?? .search, recordingEnded: $0.result.streamEnded)
        })
        // The knee in offered pushes (the schedule's rate less the not sendable), as its passing steps offered it.
        let knee = verdict.knee.flatMap { k in steps.last { schedule($0) == k && $0.passed }?.result.offeredRate ?? k }
        let byRate = steps.sorted { $0.result.offeredRate < $1.result.offeredRate }
        // Past saturation the sent rate can fall (a backlog's catch-up costs more), so the ceiling is the most
        // a saturated step sent.
        let ceiling = byRate.filter { $0.limiter?.kind == .clientCPU || $0.shortfall == .engineSaturated || $0.shortfall == .producerBehind }
            .map(\.result.achievedRate).max()
        var outcome = Outcome(criteria: criteria ?? KneeCriteria(sloP99Millis: 1000, minDelivered: 0.99), steps: steps, knee: knee, ceiling: ceiling)
        outcome.verdict = verdict
        if knee != nil, steps.contains(where: { $0.result.speed != nil }) { outcome.kneeSpeed = verdict.knee }
        // The failing rate above the knee speaks through its latest decided failure (an undecided one only when
        // every failure there was).
        let failing = steps.filter { !$0.passed && !$0.result.streamEnded && schedule($0) == verdict.above }
        if let limit = failing.last(where: { $0.limiter?.kind != .undecided }) ?? failing.last {
            let kind = limit.limiter?.kind
            outcome.kneeLimit = KneeLimit(step: limit.index, offeredRate: limit.result.offeredRate,
                                          client: kind == .clientCPU || kind == .clientWindow,
                                          failures: limit.failures, engineCPU: limit.result.engineCPU, limiter: limit.limiter)
        }
        return outcome
    }

    /// sweep.json, sweep.md and sweep.html in the sweep's folder.
    private static func write(_ outcome: Outcome, points: [SweepStepPoint], request: Request) throws {
        let dir = request.outDirectory as NSString
        try JSONEncoder.sortedPretty.encode(outcome).write(to: URL(fileURLWithPath: dir.appendingPathComponent("sweep.json")))
        try markdown(outcome).write(toFile: dir.appendingPathComponent("sweep.md"), atomically: true, encoding: .utf8)
        let page = SweepHtml.render(steps: points, knee: outcome.knee, sloP99Millis: outcome.criteria.sloP99Millis,
                                    title: "Rate sweep: \((request.profilePath as NSString).lastPathComponent)", conclusion: conclusionLines(outcome),
                                    requirement: outcome.requirement)
        try page.write(toFile: dir.appendingPathComponent(SweepHtml.fileName), atomically: true, encoding: .utf8)
    }

    /// Waits `seconds` between steps, or less when a stop is requested.
    static func cool(_ seconds: Double, stop: RunStop?) {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until, !(stop?.isRequested ?? false) { usleep(50_000) }
    }
}
