import APNsCore
import APNsSimulator
import ArgumentParser
import Dispatch
import Foundation
import Yams

/// `apnsbench simulate`: the APNs simulator on its own, for any client to point at.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the APNs simulator standalone until SIGINT or SIGTERM, then print its counters.",
        discussion: """
            Serves HTTP/2 over TLS (ALPN h2, or HTTP/2 with prior knowledge without ALPN) with a CA made at start, \
            whose certificate path is printed: clients trust that file. With --h2c it serves plaintext HTTP/2 instead. \
            Provider tokens verify against the keys given with --key-path/--key-id/--team-id (repeatable, matched in \
            order); with none, a demo key is made and written beside the CA with a ready bearer token. Binds loopback \
            unless told otherwise. The same simulator runs in-process for `apnsbench run`.
            """)

    @Option(name: .long, help: "Address to bind.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "Port to bind (0: a free one).")
    var port: Int = 2197

    @Flag(name: .long, help: "Plaintext HTTP/2 with prior knowledge (h2c) instead of TLS.")
    var h2c = false

    @Flag(name: .long, help: "Answer every request 200 with prebuilt headers and no validation (benchmarks the client).")
    var fast = false

    @Option(name: .long, help: ArgumentHelp("Simulator configuration (YAML or JSON): limits, device registry, faults.", valueName: "FILE"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("A provider key AuthKey_<KEYID>.p8 whose tokens verify (repeatable).", valueName: "PATH"))
    var keyPath: [String] = []

    @Option(name: .long, help: ArgumentHelp("Key id of the --key-path at the same position.", valueName: "ID"))
    var keyId: [String] = []

    @Option(name: .long, help: ArgumentHelp("Team id of the --key-path at the same position.", valueName: "ID"))
    var teamId: [String] = []

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

    func validate() throws {
        guard keyPath.count == keyId.count, keyPath.count == teamId.count else {
            throw ValidationError("--key-path, --key-id and --team-id go together: got \(keyPath.count), \(keyId.count) and \(teamId.count)")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) must be 0-65535") }
        if let threads, !(1...64).contains(threads) { throw ValidationError("--threads \(threads) must be 1-64") }
        if let config, !FileManager.default.isReadableFile(atPath: config) { throw ValidationError("--config \(config) cannot be read") }
    }

    func run() throws {
        var c = SimulatorConfiguration()
        c.port = port
        if let config {
            let text = try String(contentsOfFile: config, encoding: .utf8)
            let tree: Any?
            do { tree = try Yams.load(yaml: text) } catch { throw ValidationError("--config \(config): not valid YAML: \(error)") }
            try SimulatorConfigFile.apply(tree ?? [String: Any](), file: config, to: &c)
        }
        // The command line wins over the file.
        c.host = host
        c.port = port
        if h2c { c.h2c = true }
        if fast { c.fast = true }
        if let environment { c.environment = environment }
        if let threads { c.threads = threads }
        if let seed { c.seed = seed }

        let folder = caOut.map { ($0 as NSString).deletingLastPathComponent } ?? NSTemporaryDirectory()
        var demo: SigningKey?
        for i in keyPath.indices {
            let key = try SigningKey(p8Path: keyPath[i], keyID: keyId[i], teamID: teamId[i])
            c.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
        }
        if c.keys.isEmpty && !c.fast {
            let key = SigningKey.generate(keyID: "DEMOKEY001", teamID: "DEMOTEAM01")
            c.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
            demo = key
        }
        if !bundleId.isEmpty {
            for team in Set(c.keys.values.map(\.teamID)) { c.topicsByTeam[team, default: []].formUnion(bundleId) }
        }

        let simulator = try APNsSimulator(configuration: c)
        try simulator.start()

        var lines = ["apnsbench simulate: listening on \(simulator.url) (\(c.h2c ? "h2c, prior knowledge" : "TLS 1.2+, ALPN h2 or prior knowledge"); \(c.fast ? "fast mode: 200 for everything, no validation" : "validating, \(c.environment.rawValue)"))"]
        lines.append("url: \(simulator.url)")
        if let certificates = simulator.certificates {
            let caPath = caOut ?? (folder as NSString).appendingPathComponent("apnsbench-simulator-ca-\(simulator.port).pem")
            try Data(certificates.caPEM.utf8).write(to: URL(fileURLWithPath: caPath))
            lines.append("ca: \(caPath)")
        }
        if let demo {
            let p8 = (folder as NSString).appendingPathComponent("AuthKey_\(demo.keyID).p8")
            try Data(demo.privateKey.pemRepresentation.utf8).write(to: URL(fileURLWithPath: p8))
            lines.append("demo key: \(p8) key id \(demo.keyID) team id \(demo.teamID)")
            lines.append("token: bearer \(ProviderTokenCache.makeJWT(key: demo, issuedAt: Int(Date().timeIntervalSince1970)))")
        }
        for key in c.keys.values.sorted(by: { $0.keyID < $1.keyID }) where key.keyID != demo?.keyID {
            lines.append("key: \(key.keyID) team \(key.teamID)")
        }
        lines.append("ready; stop with Ctrl-C (SIGINT) or SIGTERM")
        print(lines.joined(separator: "\n"))
        fflush(stdout)

        waitForTermination()
        simulator.stop()
        print("apnsbench simulate: stopped\n" + simulator.counterSnapshot.text)
        fflush(stdout)
    }

    /// Blocks until SIGINT or SIGTERM arrives (DispatchSource signal sources, not a C handler).
    private func waitForTermination() {
        let done = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { done.signal() }
            source.resume()
            sources.append(source)
        }
        done.wait()
        sources.forEach { $0.cancel() }
    }
}

extension SimulatorConfiguration.Environment: ExpressibleByArgument {}
