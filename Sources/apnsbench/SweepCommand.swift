import APNsCore
import ArgumentParser
import Foundation
import Harness
import Reporting
import RunOptions

/// `apnsbench sweep`: the capacity planner's knee. Only parses and wires; `RateSweep` does the work.
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Find the knee (--rate LOW..HIGH), or set settings side by side (--vary KEY=V1,V2).",
        discussion: """
            Each step replays the profile at a fixed rate for --step and writes a full report under \
            DIR/step-NN/. A step passes when the client sent at least 99% of the offered rate (else it says the \
            client saturated, with the process's CPU), the corrected p99 is within slo_p99_ms (default 1000), the \
            delivered share meets slo_min_delivered (default 0.99) with no new 429 or 5xx class, and p50 does not \
            rise within the step; each step's first fifth (1-5 s) is warm-up, left out. A failing step names its \
            limiter from its own numbers: client CPU, client window (with window ÷ service time and the setting to \
            raise), target, recording, or "undecided: the host was busy" (under half a core idle, not taken by the \
            client's own threads: such a step is measured again; run the simulator out of process to decide, \
            docs/capacity.md). Before the knee is named, it and the failing rate above it are repeated (--repeats, \
            default 2) and judged by the repeats: "between X and Y pushes/s (2 of 2 repeats passed at X)". The \
            headroom sets the knee against the recording's busiest second and minute and --peak RATE. --search exponential doubles from the low bound until a \
            step fails, then bisects \
            to within 5%; binary bisects the bounds; steps:N tries N evenly spaced rates. Against the embedded \
            simulator give it an APNs model (--apns-model, or the profile's simulator: section), or the knee is \
            this machine's. Writes DIR/sweep.md and DIR/sweep.json.

            Example:  apnsbench sweep profiles/order-changes.yaml --rate 500..20000 --apns-model near --out reports/sweep

            --speed LOW..HIGH searches recorded-pace multiples instead of fixed rates: each step replays the \
            recording at X times its pace, bursts and lulls as recorded, and the knee is a multiple (with the rate \
            it offered).

            With --vary KEY=V1,V2 (repeatable) it replays the same recording once per combination of the values \
            instead (delivery, connections, streams, workers, priority, coalesce), each a full run under \
            DIR/NN-key=value/, at the profile's schedule, --speed X or --rate R, and sets them side by side: pushes \
            sent, devices reached, connections, p50/p99 response time, budget-throttled updates and channel-API \
            calls (DIR/matrix.md, DIR/matrix.json). For delivery=device,broadcast it adds the ratio of device pushes \
            to broadcasts.

            Example:  apnsbench sweep profiles/order-changes-broadcast.yaml --speed 60 --vary delivery=device,broadcast

            The run settings (--target, --ca-cert, the provider key, --connections, --apns-model, the SLO, ...) are \
            run's, with the same meaning, laid over the profile for every step or --vary run; sweep --target \
            https://host:port --ca-cert CA.pem sweeps a standalone `apnsbench simulate`.

            SIGINT or SIGTERM stops a sweep gracefully: the step (or --vary run) under way is abandoned, its own \
            report written and marked interrupted, and sweep.json, sweep.md and sweep.html (or the matrix files) are \
            written for the steps measured before it; the exit code is then 130 or 143. A second signal exits at once.

            Exit codes: 0 a knee was found (or every --vary run completed), 1 bad input or a failed step run, 64 \
            usage, 99 no step passed or the knee is under --peak (times --min-headroom), 130/143 stopped by SIGINT/SIGTERM \
            (the steps measured written).
            """)

    @Argument(help: "The profile (YAML).")
    var profile: String

    @Option(name: .long, help: ArgumentHelp("The rates to search, pushes a second: LOW..HIGH (with --vary: one fixed rate R).", valueName: "LOW..HIGH"))
    var rate: String?

    @Option(name: .long, help: ArgumentHelp(
        "Run every combination of these values side by side instead of searching for the knee (repeatable; "
            + "keys: \(TuningMatrix.keys.joined(separator: ", "))).",
        valueName: "KEY=V1,V2"))
    var vary: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "With --vary: replay at X times the recorded pace. Without it: search the knee over recorded-pace multiples LOW..HIGH (the recording's own shape of "
            + "traffic) instead of fixed rates.",
        valueName: "X|LOW..HIGH"))
    var speed: String?

    @Option(name: .long, help: ArgumentHelp(
        "How the knee is searched: exponential doubles from LOW until a step fails, then bisects to within 5%; binary bisects the bounds; "
            + "steps:N tries N (2-100) evenly spaced rates.",
        valueName: "MODE"))
    var search: RateSearch.Mode = .exponential

    @Option(name: .long, help: ArgumentHelp("Each step's length, 3s to 1h (default 30s).", valueName: "DURATION"))
    var step: Duration?

    /// The flag's former name, a number of seconds; still read, with a notice (``deprecations``).
    @Option(name: .customLong("step-seconds"), help: .hidden)
    var stepSeconds: Double?

    /// Each step's length: `--step`, or its former name `--step-seconds`, or 30 s.
    var stepLength: Duration { step ?? stepSeconds.map(Duration.secondsRounded) ?? .seconds(30) }

    /// One line for each flag given by its former name, which named its unit: `--step-seconds is deprecated: write --step 10s`.
    var deprecations: [String] {
        guard stepSeconds != nil else { return settings.deprecations }
        return settings.deprecations + ["--step-seconds is deprecated: write --step \(DurationText.text(stepLength))"]
    }

    @Option(name: .long, help: ArgumentHelp("Pause between steps or --vary runs, 0 to 600s (default 5s for the knee, 2s with --vary).", valueName: "DURATION"))
    var cooldown: Duration?

    /// `--cooldown` in seconds, nil when not given.
    func cooldownSeconds() -> Double? { cooldown?.secondsValue }

    @Option(name: .long, help: ArgumentHelp(
        "Where the runs' reports and the sweep's table go (default reports/sweep for the knee, reports/matrix with --vary).",
        valueName: "DIR"))
    var out: String?

    @Option(name: .long, help: ArgumentHelp(
        "Repeat the knee and the failing rate above it this many times each before naming the knee, 0-10.",
        valueName: "N"))
    var repeats = 2

    @Option(name: .long, help: ArgumentHelp(
        "The production peak the knee must carry, pushes a second, above 0 (or the profile's capacity_peak_per_second); a knee under it "
            + "(times --min-headroom) prints a ✗ line and exits 99, as a missed SLO does.",
        valueName: "RATE"))
    var peak: Double?

    @Option(name: .long, help: ArgumentHelp(
        "The headroom over the peak the knee must carry, 1-1000 (default 1, or the profile's capacity_min_headroom): a knee under peak × X "
            + "prints a ✗ line and exits 99.",
        valueName: "X"))
    var minHeadroom: Double?

    @Flag(name: .long, help: ArgumentHelp(
        "Replace the report already in the --out folder (its report.json, sweep.json or matrix.json); without --force such a folder is refused."))
    var force = false

    @Flag(name: .long, help: ArgumentHelp(
        "Do not replay the recording again when a step outlasts it: the search then ends at the rate the recording can sustain for a whole step."))
    var noLoop = false

    @OptionGroup(title: "Run settings (shared with run)")
    var settings: RunSettingOptions

    func bounds() throws -> (Double, Double) {
        if let speed {
            guard let (lo, hi) = Self.range(speed) else {
                throw ValidationError("--speed '\(speed)' must be LOW..HIGH recorded-pace multiples, 0 < LOW <= HIGH, like 10..500")
            }
            return (lo, hi)
        }
        guard let rate else { throw ValidationError("give --rate LOW..HIGH or --speed LOW..HIGH (the knee), or --vary KEY=V1,V2 (side by side)") }
        guard let (lo, hi) = Self.range(rate) else {
            throw ValidationError("--rate '\(rate)' must be LOW..HIGH pushes a second, 0 < LOW <= HIGH, like 500..20000")
        }
        return (lo, hi)
    }

    /// `LOW..HIGH` with 0 < LOW <= HIGH.
    static func range(_ text: String) -> (Double, Double)? {
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let lo = Double(parts[0]), let hi = Double(parts[1]), lo > 0, hi >= lo, hi.isFinite else { return nil }
        return (lo, hi)
    }

    func validate() throws {
        if let cooldown, cooldown > .seconds(600) { throw ValidationError("--cooldown \(DurationText.text(cooldown)) must be at most 600s") }
        if !vary.isEmpty {
            switch TuningMatrix.parse(all: vary) {
            case .failure(let e): throw ValidationError(e.description)
            case .success(let axes):
                for axis in axes {
                    for value in axis.values {
                        var scratch = RunConfigOverrides()
                        do { try TuningMatrix.apply(axis.key, value, to: &scratch) } catch let e as RunError { throw ValidationError(e.description) }
                    }
                }
            }
            if speed != nil, rate != nil { throw ValidationError("choose one of --speed and --rate") }
            if let speed, !((Double(speed) ?? 0) > 0) { throw ValidationError("--speed '\(speed)' with --vary must be one multiple X of the recorded "
                + "pace, above 0") }
            if let rate, Double(rate) == nil { throw ValidationError("--rate '\(rate)' with --vary must be one rate R (pushes a second)") }
            if noLoop { throw ValidationError("--no-loop goes with the knee search (--rate LOW..HIGH); each --vary run replays the recording once") }
            if search != .exponential { throw ValidationError("--search goes with the knee search (--rate LOW..HIGH), not with --vary") }
            return
        }
        if speed != nil, rate != nil { throw ValidationError("choose one of --rate LOW..HIGH (fixed rates) and --speed LOW..HIGH (recorded-pace multiples)") }
        guard (0...10).contains(repeats) else { throw ValidationError("--repeats \(repeats) must be between 0 and 10") }
        if let peak, !(peak > 0 && peak.isFinite) { throw ValidationError("--peak \(peak) must be a rate above 0 (pushes a second)") }
        if let minHeadroom, !(1...1000).contains(minHeadroom) { throw ValidationError("--min-headroom \(minHeadroom) must be between 1 and 1000") }
        _ = try bounds()
        if step != nil, stepSeconds != nil { throw ValidationError("choose one of --step and its former name --step-seconds") }
        if let s = stepSeconds, !(s >= 3 && s <= 3600) { throw ValidationError("--step-seconds \(s) must be between 3 and 3600") }
        if let step, !(Duration.seconds(3) ... .seconds(3600)).contains(step) {
            throw ValidationError("--step \(DurationText.text(step)) must be between 3s and 1h")
        }
    }

    func runMatrix() throws {
        if let out { try refusingOutput { try OutputPath.refuseReplacingReport(out, force: force) } }
        var request = TuningMatrix.Request(profilePath: profile)
        request.vary = try TuningMatrix.parse(all: vary).get()
        request.outDirectory = out ?? "reports/matrix"
        request.cooldownSeconds = cooldownSeconds() ?? 2
        request.overrides = try settings.overrides()
        request.credentials = try settings.credentials.single()
        request.caCertificatePath = settings.caCertificatePath
        if let speed {
            guard let x = Double(speed), x > 0, x.isFinite else { throw ValidationError("--speed '\(speed)' with --vary must be one multiple X of the recorded "
                + "pace, above 0") }
            request.overrides.schedule = .recorded(speed: x)
        }
        if let r = rate.flatMap(Double.init) { request.overrides.schedule = .fixedRate(perSecond: r) }
        let signals = SignalStop(drainSeconds: 5)  // run's default drain for the step under way
        request.stop = signals.stop
        let outcome: TuningMatrix.Outcome
        do {
            try checkOutputs()
            outcome = try TuningMatrix.execute(request) { print($0); fflush(nil) }
        } catch let e as RunConfigFlagError {
            throw usage(RunSettingFlags.message(e.error))
        } catch let e as TuningMatrix.ValueError {
            throw usage(e.description)
        } catch let e as OutputPath.Refusal {
            throw usage(e.description)
        }
        print("")
        print(TuningMatrix.markdown(outcome.cells, fit: outcome.fit))
        print("matrix: \(request.outDirectory)/matrix.md, \(request.outDirectory)/matrix.html, \(request.outDirectory)/matrix.json, "
            + "runs in \(request.outDirectory)/NN-*/")
        if let why = outcome.interrupted, let code = signals.exitCode {
            print("matrix: stopped: \(why)")
            throw ExitCode(code)
        }
    }

    /// A usage error found once the profile is read (a flag's or a `--vary` value out of range): said as
    /// the parser says one, exit 64.
    func usage(_ message: String) -> ExitCode {
        let form = vary.isEmpty ? "--rate LOW..HIGH" : "--vary KEY=V1,V2"
        FileHandle.standardError.write(Data("Error: \(message)\nUsage: apnsbench sweep <profile> \(form) [<options>]\n".utf8))
        return ExitCodes.usage
    }

    func run() throws {
        for line in deprecations { FileHandle.standardError.write(Data("apnsbench: \(line)\n".utf8)) }
        if !vary.isEmpty { return try runMatrix() }
        let (lo, hi) = try bounds()
        var request = RateSweep.Request(profilePath: profile, low: lo, high: hi)
        request.mode = search
        request.pace = speed == nil ? .rate : .speed
        request.stepSeconds = stepLength.secondsValue
        request.cooldownSeconds = cooldownSeconds() ?? 5
        request.outDirectory = out ?? "reports/sweep"
        if let out { try refusingOutput { try OutputPath.refuseReplacingReport(out, force: force) } }
        request.overrides = try settings.overrides()
        request.credentials = try settings.credentials.single()
        request.caCertificatePath = settings.caCertificatePath
        request.overrides.loopRecording = !noLoop
        request.repeats = repeats
        request.peak = peak
        request.minHeadroom = minHeadroom
        request.progress = RunProgress(mode: isatty(STDOUT_FILENO) == 1 ? .terminal : .plain, plainEvery: max(5, stepLength.secondsValue / 3))
        let signals = SignalStop(drainSeconds: 5)  // run's default drain for the step under way
        request.stop = signals.stop
        let outcome: RateSweep.Outcome
        do {
            var first = RunRequest(profilePath: profile)
            first.overrides = request.overrides
            first.overrides.loopRecording = nil  // each step sets its own length
            first.credentials = request.credentials
            first.caCertificatePath = request.caCertificatePath
            let config = try ReplayRun.configuration(first)
            if (minHeadroom ?? config.slo.capacityMinHeadroom) != nil, peak == nil, config.slo.capacityPeakPerSecond == nil {
                throw usage("--min-headroom (or capacity_min_headroom) is a headroom over the peak: give --peak RATE (or the profile's "
                    + "capacity_peak_per_second)")
            }
            try checkOutputs()
            outcome = try RateSweep.execute(request) { print($0); fflush(nil) }
        } catch let e as RunConfigFlagError {
            throw usage(RunSettingFlags.message(e.error))
        } catch let e as OutputPath.Refusal {
            throw usage(e.description)
        }
        print("")
        print(RateSweep.markdown(outcome))
        let dir = request.outDirectory
        print("sweep: \(dir)/sweep.md, \(dir)/sweep.html, \(dir)/sweep.json, steps in \(dir)/step-NN/")
        if let why = outcome.interrupted, let code = signals.exitCode {
            print("sweep: stopped: \(why)")
            throw ExitCode(code)
        }
        if outcome.knee == nil || outcome.requirement?.met == false { throw ExitCodes.sloMissed }
    }
}

extension SweepCommand: WritingCommand {
    static let writes: [Writes<Self>] = [
        .init("--out", .folder(writes: ["sweep.json", "sweep.md", "sweep.html", "matrix.json", "matrix.md", "matrix.html"])) {
            $0.out ?? ($0.vary.isEmpty ? "reports/sweep" : "reports/matrix")
        },
    ]
    static let reads = ["<profile>", "--key-path", "--ca-cert", "--apns-model"]

    /// The profile and every file it names, the key and the CA, as each step's run reads them.
    func inputFiles() throws -> [OutputPath.Input] {
        var first = RunRequest(profilePath: profile)
        first.overrides = try settings.overrides()
        first.credentials = try settings.credentials.single()
        first.caCertificatePath = settings.caCertificatePath
        return ReplayRun.inputFiles(try ReplayRun.configuration(first), first)
    }
}
