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
            token (a fresh key against the simulator), replays the stream and writes DIR/report.json and \
            DIR/summary.md. Exits 0 when the run completed, whatever APNs answered; non-zero on bad input or a \
            setup failure, with the cause named.
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
        "Engine threads, each with its own libcurl multi handle, share of --connections (at least one each) and provider token; pushes to one device token always go to the same worker, so per-token order holds (overrides the profile; 1-\(ReplayRun.workerLimit) here: 4 per core).",
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

    @Option(name: .long, help: ArgumentHelp("Provider key file AuthKey_<KEYID>.p8 (or APNS_KEY_PATH).", valueName: "PATH"))
    var keyPath: String?

    @Option(name: .long, help: ArgumentHelp("Key id, 10 characters (or APNS_KEY_ID).", valueName: "ID"))
    var keyId: String?

    @Option(name: .long, help: ArgumentHelp("Team id, 10 characters (or APNS_TEAM_ID).", valueName: "ID"))
    var teamId: String?

    func validate() throws {
        guard Target(argument: target) != nil else {
            throw ValidationError("--target '\(target)' must be simulator, sandbox, production or an https:// URL")
        }
        if let priority, Priority(rawValue: priority) == nil {
            throw ValidationError("--priority \(priority) must be 1, 5 or 10")
        }
        if let connections, !(1...64).contains(connections) { throw ValidationError("--connections \(connections) must be 1-64") }
        if let streams, !(1...1000).contains(streams) { throw ValidationError("--streams \(streams) must be 1-1000") }
        if let workers {
            let limit = ReplayRun.workerLimit
            guard (1...limit).contains(workers) else {
                throw ValidationError("--workers \(workers) must be 1-\(limit) (4 per core on this machine, at most 64)")
            }
            if let connections, connections < workers {
                throw ValidationError("--workers \(workers) needs --connections \(workers) or more: each worker has its own connections, and --connections is the total")
            }
        }
        if let expiration, !(0...(86_400 * 30)).contains(expiration) { throw ValidationError("--expiration \(expiration) must be 0 to 2592000 seconds (30 days)") }
        if let collapseId, collapseId.isEmpty || collapseId.utf8.count > 64 {
            throw ValidationError("--collapse-id must be 1 to 64 bytes (APNs answers BadCollapseId otherwise), found \(collapseId.utf8.count)")
        }
        if let retryAttempts, !(1...100).contains(retryAttempts) { throw ValidationError("--retry-attempts \(retryAttempts) must be 1-100") }
        if fastSimulator && Target(argument: target) != .simulator { throw ValidationError("--fast-simulator applies to --target simulator only") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        let chosen = [speed != nil, rate != nil, ramp != nil, closedLoop].filter { $0 }.count
        if chosen > 1 { throw ValidationError("choose one of --speed, --rate, --ramp and --closed-loop") }
        _ = try schedule()
        if let coalesce, coalesce != "0", DurationText.millis(coalesce) == nil {
            throw ValidationError("--coalesce '\(coalesce)' must be a duration like 250ms or 1s (0 turns it off)")
        }
    }

    /// The schedule the flags ask for, or nil to keep the profile's.
    func schedule() throws -> Schedule? {
        do {
            if let speed { let s = Schedule.recorded(speed: speed); try s.validate(); return s }
            if let rate { let s = Schedule.fixedRate(perSecond: rate); try s.validate(); return s }
            if let ramp { return try Schedule.parseRamp(ramp) }
        } catch {
            throw ValidationError("\(error)")
        }
        return closedLoop ? .closedLoop : nil
    }

    func run() throws {
        let env = ProcessInfo.processInfo.environment
        var options = RunOptions(profilePath: profile)
        options.outDirectory = out
        options.target = Target(argument: target)!
        options.connections = connections
        options.streams = streams
        options.workers = workers
        options.priority = priority.flatMap(Priority.init(rawValue:))
        options.durationLimit = duration
        options.expirationSeconds = expiration
        options.collapseID = collapseId
        options.retryAttempts = retryAttempts
        options.fastSimulator = fastSimulator
        options.schedule = try schedule()
        options.coalesceMillis = coalesce.map { $0 == "0" ? 0 : DurationText.millis($0) ?? 0 }
        options.credentials = Credentials(
            keyPath: keyPath ?? env["APNS_KEY_PATH"], keyID: keyId ?? env["APNS_KEY_ID"], teamID: teamId ?? env["APNS_TEAM_ID"])

        let result = try ReplayRun.execute(options)
        print(SummaryText.console(result.report))
        print("report: \(result.reportPaths.joined(separator: ", "))")
        if let stop = result.stoppedAt {
            FileHandle.standardError.write(Data("apnsbench: stopped at a bad stream line (bad_lines: stop): \(stop)\n".utf8))
            throw ExitCode(3)
        }
    }
}
