import APNsCore
import APNsSimulator
import ArgumentParser
import Dispatch
import Foundation
import Harness
import Reporting
import RunOptions

/// `apnsbench simulate`: the APNs simulator on its own, for any client to point at.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the APNs simulator standalone until SIGINT or SIGTERM, then print its counters.",
        discussion: """
            Serves HTTP/2 over TLS (ALPN h2, or HTTP/2 with prior knowledge without ALPN) with a CA made at start \
            (or kept in --tls-dir, so a restart keeps it), whose certificate path is printed: clients trust that file. \
            With --h2c it serves plaintext HTTP/2 instead. \
            Provider tokens verify against the keys given with --key-path/--key-id/--team-id (repeatable, matched in \
            order); with none, a demo key is made and written beside the CA with a ready bearer token. Binds loopback \
            unless told otherwise. On SIGINT or SIGTERM it stops as a server taken down for maintenance does: it stops \
            accepting, sends every connection GOAWAY, answers what it had taken (up to 2 s), closes, and prints its \
            counters. With --report DIR it also writes what it received as a run report when it stops (SIGINT, SIGTERM, \
            --duration, or POST /stop on --control-listen): a sender's own pushes, in any language, gated with \
            `apnsbench compare` like a run. The same simulator runs in-process for `apnsbench run`.

            The --config file's keys (YAML or JSON), each optional unless it says required; a run profile's `simulator:` section and an \
            APNs model file's take the same. An unknown key, or a value of the wrong type or range, is an error naming \
            the file, the line and the key path:
            \(SimulatorKeys.helpText)

            \(ExitCodes.help)
            """)

    @Option(name: .long, help: "Address to bind (loopback unless --allow-remote).")
    var host: String = "127.0.0.1"

    @Flag(name: .long, help: ArgumentHelp(
        "Allow --host to be an address other hosts can reach (0.0.0.0, a pod's address): the simulator as a cluster service. "
            + "Without it only loopback is bound."))
    var allowRemote = false

    @Option(name: .long, help: ArgumentHelp(
        "A DNS name the server certificate also covers, beside localhost, 127.0.0.1 and ::1 (repeatable): the name clients reach it by, "
            + "such as a Kubernetes Service.",
        valueName: "NAME"))
    var tlsName: [String] = []

    @Option(name: .long, help: "Port to bind (0: a free one).")
    var port: Int = 2197

    @Flag(name: .long, help: "Plaintext HTTP/2 with prior knowledge (h2c) instead of TLS.")
    var h2c = false

    @Flag(name: .long, help: "Answer every request 200 with prebuilt headers and no validation (benchmarks the client).")
    var fast = false

    @Option(name: .long, help: ArgumentHelp("Simulator configuration (YAML or JSON): limits, device registry, faults.", valueName: "FILE"))
    var config: String?

    @OptionGroup(title: "Provider keys whose tokens verify")
    var credentials: CredentialOptions

    @Option(name: .long, help: ArgumentHelp("A bundle id the keys' teams may push to (repeatable; default: any).", valueName: "BUNDLE"))
    var bundleId: [String] = []

    @Option(name: .long, help: "sandbox (adds apns-unique-id to 200s) or production.")
    var environment: SimulatorConfiguration.Environment?

    @Option(name: .long, help: "Event-loop threads (1 when the simulator is pinned to one core).")
    var threads: Int?

    @Option(name: .long, help: "Seed of fault injection and dead-token fractions.")
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("Where to write the CA certificate (default: a file in the temporary folder).", valueName: "PATH"))
    var caOut: String?

    @Option(name: .long, help: ArgumentHelp(
        "Keep the CA, the server certificate and its key in this folder: read when it holds them, else made and written there. "
            + "A restarted simulator is then the same server to clients that trust its CA.",
        valueName: "DIR"))
    var tlsDir: String?

    @Option(name: .long, help: ArgumentHelp(
        "On stop, write what the simulator received here as a run report (report.json, summary.md, latency.hlog, report.html): every request by push type, "
            + "topic, priority and answer, server time, the timeline, connections, provider tokens, the Live Activity budget per token. `report`, "
            + "`compare` and `merge` read it.",
        valueName: "DIR"))
    var report: String?

    @Flag(name: .long, help: "With --report: replace the report a folder already holds.")
    var force = false

    @Option(name: .long, help: ArgumentHelp("Stop by itself after DURATION (30s, 5m; as SIGTERM would), at most 24h.", valueName: "DURATION"))
    var duration: Duration?

    /// `--duration` in seconds, nil when not given.
    func durationSeconds() -> Double? { duration?.secondsValue }

    @Option(name: .long, help: ArgumentHelp(
        "Serve POST /stop over HTTP/1.1 here (e.g. 127.0.0.1:0): stops the simulator as SIGTERM would, for CI steps that cannot signal it. "
            + "The address is printed as `control: http://HOST:PORT/stop`.",
        valueName: "ADDR:PORT"))
    var controlListen: String?

    @Option(name: .long, help: ArgumentHelp(
        "With --report: the app's ActivityKit model (a Swift file); each Live Activity payload received is checked against it, "
            + "and the report counts those the device would not decode, by field.",
        valueName: "FILE"))
    var activityModel: String?

    @Option(name: .long, help: ArgumentHelp(
        "With --activity-model: the attributes struct's name (default: the one declaring ActivityAttributes).",
        valueName: "NAME"))
    var activityModelType: String?

    func validate() throws {
        if report != nil, fast { throw ValidationError("--report counts the requests the validating simulator reads; --fast reads none") }
        // Every output (--report, --ca-out, --tls-dir) is checked before the simulator serves: see ``WritingCommand``.
        try checkOutputs()
        if let report { try refusingOutput { try OutputPath.refuseReplacingReport(report, flag: "--report", force: force) } }
        if force, report == nil { throw ValidationError("--force goes with --report") }
        if activityModel != nil, report == nil { throw ValidationError("--activity-model goes with --report (the verdicts are in the report)") }
        if activityModelType != nil, activityModel == nil { throw ValidationError("--activity-model-type goes with --activity-model") }
        if let activityModel, !FileManager.default.isReadableFile(atPath: activityModel) {
            throw ValidationError("--activity-model \(activityModel) cannot be read")
        }
        if let duration, duration == .zero || duration > .seconds(86_400) {
            throw ValidationError("--duration \(DurationText.text(duration)) must be above 0 and at most 24h")
        }
        if let controlListen {
            guard let (host, _) = MetricsServer.parse(controlListen) else {
                throw ValidationError("--control-listen '\(controlListen)' must be HOST:PORT, like 127.0.0.1:0")
            }
            if !allowRemote, !SimulatorLaunch.isLoopback(host) {
                throw ValidationError("--control-listen \(controlListen) is not a loopback address; say --allow-remote to serve other hosts")
            }
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) must be 0-65535") }
        if let threads, !(1...64).contains(threads) { throw ValidationError("--threads \(threads) must be 1-64") }
        if let config, !FileManager.default.isReadableFile(atPath: config) { throw ValidationError("--config \(config) cannot be read") }
        if !allowRemote, !SimulatorLaunch.isLoopback(host) {
            throw ValidationError("--host \(host) is not a loopback address: other hosts could reach the simulator; say --allow-remote to serve them")
        }
        if h2c, !tlsName.isEmpty { throw ValidationError("--tls-name goes with TLS; --h2c serves no certificate") }
        if h2c, let tlsDir { throw ValidationError("--tls-dir \(tlsDir) goes with TLS; --h2c serves no certificate") }
    }

    func run() throws {
        var options = SimulatorLaunch.Options()
        options.host = host
        options.tlsNames = tlsName
        options.port = port
        options.h2c = h2c
        options.fast = fast
        options.configPath = config
        options.keys = try credentials.all.map { key in
            guard let path = key.keyPath, let keyID = key.keyID, let teamID = key.teamID else {
                throw ValidationError("--key-path needs --key-id and --team-id (or APNS_KEY_ID and APNS_TEAM_ID)")
            }
            return SimulatorLaunch.KeyFile(path: path, keyID: keyID, teamID: teamID)
        }
        options.bundleIDs = bundleId
        options.environment = environment
        options.threads = threads
        options.seed = seed
        options.caOut = caOut
        options.tlsDirectory = tlsDir
        let recording = try report.map { _ in
            try activityModel.map { try SimulatorRecording(activityModel: $0, attributesType: activityModelType) } ?? SimulatorRecording(check: nil)
        }
        options.requestObserver = recording
        let started = Date()
        // Signals are taken over before `ready` is printed: a client that stops the simulator as soon as it
        // reads `ready` must not find SIGTERM ignored with nothing listening yet (it would be lost).
        let signals = SignalStop(.simulator)
        let launch = try SimulatorLaunch.start(options)
        let control: StopEndpoint?
        do { control = try controlListen.map { try StopEndpoint(listen: $0) } } catch {
            launch.simulator.stop()
            throw error
        }
        var lines = launch.lines
        if let control { lines.insert("control: http://\(control.address)/stop", at: max(0, lines.count - 1)) }
        print(lines.joined(separator: "\n"))
        fflush(nil)  // all C streams; Swift 6 refuses the global `stdout`

        let reason = waitForStop(signals, control)
        // As a server taken down for maintenance: GOAWAY on every connection, what was taken answered.
        launch.simulator.stopGracefully(graceSeconds: 2)
        control?.close()
        // A signal's sender knows what it sent; a stop it did not send itself is named.
        let how = reason.hasPrefix("SIG") ? "" : " (\(reason))"
        print("apnsbench simulate: stopped\(how)\n" + launch.simulator.counterSnapshot.text)
        if let recording, let report {
            let inputs = SimulatorRecording.ReportInputs(
                counters: launch.simulator.counterSnapshot, budgetPerHour: launch.simulator.configuration.liveActivity.priority10Budget,
                startedAt: started, durationSeconds: Date().timeIntervalSince(started), configPath: config, stopReason: reason,
                simulator: launch.simulator.configuration)
            do { print("report: " + (try ReportWriter.write(recording.report(inputs), to: report)).joined(separator: ", ")) } catch {
                throw CommandError("cannot write the report to \(report): \(error.localizedDescription)")
            }
        }
        fflush(nil)  // all C streams; Swift 6 refuses the global `stdout`
        withExtendedLifetime(signals) {}  // in place until the counters are out: a second signal exits saying so
    }

    /// Waits for SIGINT or SIGTERM, `--duration`, or `POST /stop`, and says which came.
    private func waitForStop(_ signals: SignalStop, _ control: StopEndpoint?) -> String {
        let deadline = durationSeconds().map { Date().addingTimeInterval($0) }
        while true {
            if signals.wait(timeout: 0.1) { return signals.received == SIGINT ? "SIGINT" : "SIGTERM" }
            if control?.stopRequested == true { return "POST /stop" }
            if let deadline, Date() >= deadline { return "--duration \(duration.map(DurationText.text) ?? "")" }
        }
    }
}

extension SimulatorConfiguration.Environment: ExpressibleByArgument {}

extension SimulateCommand: WritingCommand {
    static let writes: [Writes<Self>] = [
        .init("--report", .folder(writes: ReportWriter.fileNames)) { $0.report },
        .init("--ca-out", .file) { $0.caOut },
        // A folder that holds its three files already is only read (it may be mounted read-only).
        .init("--tls-dir", .folder(writes: SimulateCommand.certificateFiles)) { c in
            c.tlsDir.flatMap { dir in
                certificateFiles.allSatisfy { FileManager.default.fileExists(atPath: (dir as NSString).appendingPathComponent($0)) } ? nil : dir
            }
        },
    ]
    static let certificateFiles = ["ca.pem", "server.pem", "server-key.pem"]
    static let reads = ["--config", "--key-path", "--activity-model"]

    func inputFiles() throws -> [OutputPath.Input] {
        [config.map { OutputPath.Input("the simulator's configuration", $0) }, activityModel.map { OutputPath.Input("the ActivityKit model", $0) }]
            .compactMap { $0 } + credentials.all.compactMap { $0.keyPath.map { OutputPath.Input("the provider key", $0) } }
    }
}
