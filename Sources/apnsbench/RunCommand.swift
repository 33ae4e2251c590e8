import APNsCore
import ArgumentParser
import Foundation
import Harness
import Replay
import Reporting

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
            one is missed. Flags override the profile's values; every value is checked once, and an error \
            names the flag or the profile's key and line it came from.

            \(ExitCodes.help)
            """)

    @Argument(help: "The run profile (YAML).")
    var profile: String = "profiles/leave-requests.yaml"

    @Option(name: .long, help: ArgumentHelp("Report folder.", valueName: "DIR"))
    var out: String = "reports/latest"

    @Option(name: .long, help: ArgumentHelp("simulator, sandbox, production, or https://host:port (http:// for h2c).", valueName: "TARGET"))
    var target: String = "simulator"

    @Option(name: .long, help: "HTTP/2 connections (overrides the profile; 1-64).")
    var connections: Int?

    @Option(name: .long, help: "Concurrent streams per connection (overrides the profile; 1-1000).")
    var streams: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Engine threads, each with its own libcurl multi handle, share of --connections (at least one each) and provider token; pushes to one device token always go to the same worker, so per-token order holds (overrides the profile; 1-\(RunConfig.Transport.workerLimit()) here: 4 per core).",
        valueName: "N"))
    var workers: Int?

    @Option(name: .long, help: "apns-priority for every push: 1, 5 or 10 (overrides the profile).")
    var priority: Int?

    @Option(name: .long, help: "Open loop at the recorded times, X times faster (e.g. 60: an hour in a minute).")
    var speed: Double?

    @Option(name: .long, help: "Open loop at a fixed rate of R pushes a second.")
    var rate: Double?

    @Option(name: .long, help: ArgumentHelp("Open loop at a rate rising from FROM to TO pushes a second over SECONDS.", valueName: "FROM:TO:SECONDS"))
    var ramp: String?

    @Option(name: .long, help: ArgumentHelp("Collapse Live Activity updates to the same token within this window (e.g. 250ms) to the latest; 0 turns it off.", valueName: "DURATION"))
    var coalesce: String?

    @Option(name: .long, help: ArgumentHelp("apns-expiration: SECONDS after the run's start (0: deliver now or never; overrides the profile).", valueName: "SECONDS"))
    var expiration: Int?

    @Option(name: .long, help: ArgumentHelp("apns-collapse-id on every push, 1-64 bytes (overrides the profile).", valueName: "ID"))
    var collapseId: String?

    @Option(name: .long, help: ArgumentHelp("Attempts per push in all, 1 = never retry (default 10: 5xx, 429 and transport errors back off 1, 2, 4, 8 s ... within 5 minutes).", valueName: "N"))
    var retryAttempts: Int?

    @Flag(name: .long, help: "Run the embedded simulator in fast mode: 200 for everything, no validation, so the numbers are the client's.")
    var fastSimulator = false

    @Flag(name: .long, help: "Closed loop: as fast as the in-flight window (connections x streams) allows.")
    var closedLoop = false

    @Option(name: .long, help: "Stop sending after this many seconds; what was not sent is counted as not sent.")
    var duration: Double?

    @Flag(name: .long, help: "With --duration: replay the recording again, time-shifted, each time it runs out before the duration ends (the same tokens and payloads; profile key loop_recording).")
    var loop = false

    @Option(name: .long, help: ArgumentHelp("SLO: p99 response time at most MS milliseconds (overrides the profile's slo_p99_ms).", valueName: "MS"))
    var sloP99Ms: Int?

    @Option(name: .long, help: ArgumentHelp("SLO: at least this share (0-1) of planned pushes delivered (overrides slo_min_delivered).", valueName: "SHARE"))
    var sloMinDelivered: Double?

    @Option(name: .long, help: ArgumentHelp(
        "SLO: at most this share (0-1) of planned pushes in a class: rejected, failed, timed_out, not_sent or errors (the first three together); repeat for several (laid over slo_max_error_share).",
        valueName: "CLASS=SHARE"))
    var sloMaxErrorShare: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "SLO: at most this share (0-1) of delivered pushes the device would not decode, checked against the profile's activity_model (overrides slo_max_would_not_decode).",
        valueName: "SHARE"))
    var sloMaxWouldNotDecode: Double?

    @Option(name: .long, help: ArgumentHelp("The report timeline's interval in whole seconds, 1-3600 (default 1; overrides report_interval).", valueName: "SECONDS"))
    var reportInterval: Int?

    @Option(name: .long, help: ArgumentHelp("While no request to the target has ever been answered, give up after SECONDS of connect, DNS, TLS or ALPN failures and exit 1 naming the cause (1-600, default 10; overrides fail_fast).", valueName: "SECONDS"))
    var failFast: Double?

    @Option(name: .long, help: ArgumentHelp("The stall watchdog: when pushes on a connection have moved no byte for SECONDS, give the connection up and retry its pushes by the retry policy; the report counts the stalls (1-600 and shorter than the push timeout, default 10, 0 turns it off; overrides stall_timeout).", valueName: "SECONDS"))
    var stallTimeout: Int?

    @Option(name: .long, help: ArgumentHelp("The Live Activity budget the report judges the recording by: priority-10 updates one activity may get per rolling hour of recorded time before iOS throttles (an assumption, Apple does not publish it; default 10, 0 counts nothing; overrides live_activity_budget).", valueName: "N"))
    var liveActivityBudget: Int?

    @Option(name: .long, help: ArgumentHelp("A named APNs model for the embedded simulator: near, far or overloaded (latency, round trip, per-connection capacity with queueing, shedding; assumptions, not Apple's figures; README, \"APNs models\"). The profile's simulator: keys go over it.", valueName: "NAME"))
    var apnsModel: String?

    @Option(name: .long, help: ArgumentHelp("After SIGINT or SIGTERM, how long pushes in flight get to be answered before they count as not sent (interrupted); 0-600, default 5.", valueName: "SECONDS"))
    var drain: Double = 5

    @Flag(name: .long, help: "Allow more than 100 pushes/s to production APNs (also closed-loop and recorded-time schedules, whose rate is unbounded). Real devices receive them; without this flag such a run is refused. Sandbox needs no flag.")
    var allowProductionLoad = false

    @Option(name: .long, help: ArgumentHelp("device: one push per device following a store (the default); broadcast: one push per store's broadcast channel (iOS 18+; order-changes): the run creates one channel per store its recording subscribes activities to (input_push_channel), and deletes them at its end (overrides delivery).", valueName: "MODE"))
    var delivery: String?

    @Flag(name: .long, help: "Broadcast delivery: keep the channels the run created instead of deleting them at its end (keep_channels).")
    var keepChannels = false

    @Flag(name: .long, help: "No start line and no live progress (on a terminal a line redrawn in place, otherwise a line every 5 s); the summary is still printed.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("Trust exactly this CA certificate (PEM) for the target instead of the system's: a standalone `apnsbench simulate` (it prints its CA's path) or a company proxy. Verification stays on. Only with --target sandbox, production or a URL. Default: APNS_CA_CERT if set.", valueName: "PATH"))
    var caCert: String?

    @OptionGroup(title: "Provider key")
    var credentials: CredentialOptions

    @OptionGroup(title: "Shards and live metrics")
    var distributed: ShardOptions

    /// --ca-cert, or APNS_CA_CERT.
    var caCertificatePath: String? { caCert ?? ProcessInfo.processInfo.environment["APNS_CA_CERT"].flatMap { $0.isEmpty ? nil : $0 } }

    /// Checks only what the command line alone decides (the schedule flags exclude each other, values
    /// parse); every range is the configuration's own rule, checked once after the profile is read.
    func validate() throws {
        guard Target(argument: target) != nil else {
            throw ValidationError("--target '\(target)' must be simulator, sandbox, production or an https:// URL")
        }
        if let priority, Priority(rawValue: priority) == nil {
            throw ValidationError("--priority \(priority) must be 1, 5 or 10")
        }
        let chosen = [speed != nil, rate != nil, ramp != nil, closedLoop].filter { $0 }.count
        if chosen > 1 { throw ValidationError("choose one of --speed, --rate, --ramp and --closed-loop") }
        _ = try schedule()
        _ = try coalesceMillis()
        _ = try errorShares()
        if let delivery, RunConfig.Delivery(rawValue: delivery) == nil {
            throw ValidationError("--delivery '\(delivery)' must be device or broadcast")
        }
        guard drain >= 0, drain <= 600 else { throw ValidationError("--drain \(drain) must be between 0 and 600 seconds") }
        if let ca = caCertificatePath, Target(argument: target) == .simulator {
            throw ValidationError("--ca-cert \(ca)\(caCert == nil ? " (from APNS_CA_CERT)" : "") goes with --target sandbox, production or a URL; the embedded simulator's CA is trusted already")
        }
    }

    /// `--slo-max-error-share rejected=0.01 ...` as classes and shares (the classes are the configuration's to check).
    func errorShares() throws -> [String: Double]? {
        guard !sloMaxErrorShare.isEmpty else { return nil }
        var shares: [String: Double] = [:]
        for item in sloMaxErrorShare {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let share = Double(parts[1]) else {
                throw ValidationError("--slo-max-error-share '\(item)' must be CLASS=SHARE, like rejected=0.01")
            }
            shares[parts[0]] = share
        }
        return shares
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

    /// `--coalesce` in ms (0: off), or nil to keep the profile's.
    func coalesceMillis() throws -> Int64? {
        guard let coalesce else { return nil }
        if coalesce == "0" { return 0 }
        guard let ms = DurationText.millis(coalesce) else {
            throw ValidationError("--coalesce '\(coalesce)' must be a duration like 250ms or 1s (0 turns it off)")
        }
        return ms
    }

    func run() throws {
        var request = RunRequest(profilePath: profile)
        request.outDirectory = out
        request.credentials = try credentials.single()
        request.caCertificatePath = caCertificatePath
        var o = RunConfigOverrides()
        o.target = Target(argument: target)
        o.connections = connections
        o.streams = streams
        o.workers = workers
        o.priority = priority.flatMap(Priority.init(rawValue:))
        o.schedule = try schedule()
        o.durationSeconds = duration
        if loop { o.loopRecording = true }
        o.coalesceMillis = try coalesceMillis()
        o.expirationSeconds = expiration
        o.collapseID = collapseId
        o.retryAttempts = retryAttempts
        o.fastSimulator = fastSimulator ? true : nil
        o.sloP99Millis = sloP99Ms
        o.sloMinDelivered = sloMinDelivered
        o.sloMaxErrorShare = try errorShares()
        o.sloMaxWouldNotDecode = sloMaxWouldNotDecode
        o.reportIntervalSeconds = reportInterval
        o.failFastSeconds = failFast
        o.stallTimeoutSeconds = stallTimeout
        o.liveActivityBudget = liveActivityBudget
        o.apnsModel = apnsModel
        o.allowProductionLoad = allowProductionLoad ? true : nil
        o.shard = try distributed.resolvedShard()
        o.delivery = delivery.flatMap(RunConfig.Delivery.init(rawValue:))
        o.keepChannels = keepChannels ? true : nil
        request.overrides = o
        request.runID = try distributed.resolvedRunID()
        request.startAt = try distributed.startTime()
        request.metricsListen = distributed.metricsListen
        request.metricsLingerSeconds = distributed.metricsLinger
        request.progress = quiet ? nil : RunProgress.forStandardOutput()
        let signals = SignalStop(drainSeconds: drain)
        request.stop = signals.stop

        let result: RunResult
        do { result = try ReplayRun.execute(request, log: quiet ? { _ in } : { RunProgress.standardOutput($0 + "\n") }) } catch let e as RunConfigFlagError {
            // A flag's value broke one of the configuration's rules: a usage error, shown with run's usage.
            FileHandle.standardError.write(Data("Error: \(e)\nUsage: apnsbench run [<options>] [<profile>]\n  See 'apnsbench run --help' for more information.\n".utf8))
            throw ExitCodes.usage
        }
        print(SummaryText.console(result.report))
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
