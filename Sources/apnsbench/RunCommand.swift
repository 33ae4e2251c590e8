import APNsCore
import ArgumentParser
import Foundation
import Harness
import Replay
import Reporting
import RunOptions

/// `apnsbench run [PROFILE]`: parses, then hands everything to `Harness.ReplayRun`.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay a profile's recorded stream as APNs pushes and write a report.",
        discussion: """
            Starts the embedded APNs simulator on a free loopback port (HTTP/2 over TLS, with a certificate made \
            for this run and trusted by the engine alone) unless --target says otherwise, signs an ES256 provider \
            token (a fresh key against the simulator), replays the stream and writes DIR/report.json, \
            DIR/summary.md, DIR/latency.hlog and DIR/report.html (self-contained, opens offline). Progress shows \
            as it goes (--quiet: none). The SLO (profile keys slo_p99_ms, slo_min_delivered, slo_max_error_share, \
            slo_max_would_not_decode, or the --slo-* flags) is checked once the report is written: one ✓/✗ line per rule, and exit 99 when \
            one is missed (--junit FILE: the same rules as JUnit XML, one testcase each). Flags override the profile's values; every value is checked once, \
            and an error \
            names the flag or the profile's key and line it came from.

            \(ExitCodes.help)
            """)

    @Argument(help: "The run profile (YAML).")
    var profile: String = "profiles/leave-requests.yaml"

    @Option(name: .long, help: ArgumentHelp(
        "Report folder (default reports/latest, replaced by every run). A folder named here that already holds a report is refused unless --force; "
            + "one that is or holds an input of the run (the profile, recording, recipe, ...) is refused always.",
        valueName: "DIR"))
    var out: String?

    @Flag(name: .long, help: ArgumentHelp(
        "Replace the report already in the --out folder (its report.json, sweep.json or matrix.json); without --force such a folder is refused."))
    var force = false

    @OptionGroup(title: "Run settings (shared with sweep)")
    var settings: RunSettingOptions

    @Flag(name: .setting(.schedule), help: .setting(.schedule))
    var closedLoop = false

    @Option(name: .setting(.speed), help: .setting(.speed))
    var speed: Double?

    @Option(name: .setting(.rate), help: .setting(.rate))
    var rate: Double?

    @Option(name: .setting(.ramp), help: .setting(.ramp))
    var ramp: String?

    @Option(name: .setting(.duration), help: .setting(.duration))
    var duration: Duration?

    @Flag(name: .setting(.loopRecording), help: .setting(.loopRecording))
    var loop = false

    @Option(name: .long, help: ArgumentHelp(
        "After SIGINT or SIGTERM, how long pushes in flight get to be answered before they count as not sent (interrupted); 0 to 600s, default 5s.",
        valueName: "DURATION"))
    var drain: Duration = .seconds(5)

    @Option(name: .long, help: ArgumentHelp(
        "Also write the SLO as JUnit XML here: one testcase per rule, a failure per rule missed (for CI test reports); written whatever the exit code.",
        valueName: "FILE"))
    var junit: String?

    @Flag(name: .long, help: ArgumentHelp(
        "No start line and no live progress (on a terminal a line redrawn in place, otherwise a line every 5 s); the summary is still printed."))
    var quiet = false

    @OptionGroup(title: "Shards and live metrics")
    var distributed: ShardOptions

    /// Checks only what the command line alone decides (the schedule flags exclude each other, values
    /// parse); every range is the configuration's own rule, checked once after the profile is read.
    func validate() throws {
        let chosen = [speed != nil, rate != nil, ramp != nil, closedLoop].filter { $0 }.count
        if chosen > 1 { throw ValidationError("choose one of --speed, --rate, --ramp and --closed-loop") }
        _ = try schedule()
        if duration == .zero { throw ValidationError("--duration must be above 0") }
        guard drain <= .seconds(600) else { throw ValidationError("--drain \(DurationText.text(drain)) must be at most 600s") }
    }

    /// The schedule the flags ask for, or nil to keep the profile's.
    func schedule() throws -> Schedule? {
        if let speed { return .recorded(speed: speed) }
        if let rate { return .fixedRate(perSecond: rate) }
        if let ramp {
            do { return try Schedule.parseRamp(ramp) } catch { throw ValidationError("--ramp: \(error)") }
        }
        return closedLoop ? .closedLoop : nil
    }

    /// What the command line asks for: the profile, the flags laid over it, the key, where to write.
    func request() throws -> RunRequest {
        var request = RunRequest(profilePath: profile)
        request.outDirectory = out ?? request.outDirectory
        request.credentials = try settings.credentials.single()
        request.caCertificatePath = settings.caCertificatePath
        var o = try settings.overrides()
        o.schedule = try schedule()
        o.duration = duration
        if loop { o.loopRecording = true }
        o.shard = try distributed.resolvedShard()
        request.overrides = o
        request.runID = try distributed.resolvedRunID()
        request.startAt = try distributed.startTime()
        request.metricsListen = distributed.metricsListen
        request.metricsLingerSeconds = distributed.lingerSeconds()
        return request
    }

    func run() throws {
        for line in settings.deprecations { FileHandle.standardError.write(Data("apnsbench: \(line)\n".utf8)) }
        var request = try request()
        if let out { try refusingOutput { try OutputPath.refuseReplacingReport(out, force: force) } }
        request.progress = quiet ? nil : RunProgress.forStandardOutput()
        let signals = SignalStop(drainSeconds: drain.secondsValue)
        request.stop = signals.stop

        let result: RunResult
        do {
            try checkOutputs()
            result = try ReplayRun.execute(request, log: quiet ? { _ in } : { RunProgress.standardOutput($0 + "\n") })
        } catch let e as OutputPath.Refusal {
            throw ValidationError(e.description)
        } catch let e as RunConfigFlagError {
            // A flag's value broke one of the configuration's rules: a usage error, shown with run's usage.
            throw ValidationError(RunSettingFlags.message(e.error))
        }
        print(SummaryText.console(result.report))
        if let junit {
            do { try Data(SLOJUnit.render(result.report).utf8).write(to: URL(fileURLWithPath: junit), options: .atomic) } catch {
                throw CommandError("cannot write --junit \(junit): \(error.localizedDescription)")
            }
        }
        print("report: \(result.reportPaths.joined(separator: ", "))")
        if let stop = result.stoppedAt {
            FileHandle.standardError.write(Data("apnsbench: stopped at a bad stream line (bad_lines: stop): \(stop)\n".utf8))
            throw ExitCodes.stoppedAtBadLine
        }
        // A signal stopped the run: its report is written; exit 130 (SIGINT) or 143 (SIGTERM).
        if result.interrupted, let code = signals.exitCode { throw ExitCode(code) }
        // Checked after the report is written: a missed SLO still leaves the whole report behind.
        if SLOCheck.checks(result.report).contains(where: { !$0.met }) { throw ExitCodes.sloMissed }
    }
}

extension RunCommand: WritingCommand {
    static let writes: [Writes<Self>] = [
        .init("--out", .folder(writes: ReportWriter.fileNames)) { $0.out ?? RunRequest(profilePath: "").outDirectory },
        .init("--junit", .file) { $0.junit },
    ]
    static let reads = ["<profile>", "--key-path", "--ca-cert", "--apns-model"]

    /// The profile and every file it names (recordings, recipes, dead-token lists, models), the key and the CA.
    func inputFiles() throws -> [OutputPath.Input] {
        let request = try request()
        return ReplayRun.inputFiles(try ReplayRun.configuration(request), request)
    }
}
