import APNsCore
import APNsSimulator
import Foundation

/// `apnsbench simulate` without its command line: options in, a started simulator and the lines to print
/// out. It reads the configuration file (strictly, `SimulatorConfigFile`), lays the options over it,
/// registers the provider keys, makes a demo key when there is none, starts the simulator and writes the
/// CA certificate and the demo key's .p8.
///
/// What it prints and writes: the URL, the CA's path, each registered key's id and team, and for the
/// demo key its .p8's path and one ready `bearer` token (made for a key that exists only for this run).
/// It never prints a token of a key it was given, nor any key's contents.
public struct SimulatorLaunch {
    /// A provider key whose tokens verify: `AuthKey_<KEYID>.p8` with its ids.
    public struct KeyFile: Sendable, Equatable {
        public var path: String
        public var keyID: String
        public var teamID: String

        public init(path: String, keyID: String, teamID: String) {
            self.path = path
            self.keyID = keyID
            self.teamID = teamID
        }
    }

    /// What the command line gives. The options win over the configuration file.
    public struct Options: Sendable {
        /// Address to bind. Default loopback.
        public var host = "127.0.0.1"
        /// Port to bind; 0 picks a free one. Default 2197.
        public var port = 2197
        /// Plaintext HTTP/2 with prior knowledge. Default off (or as the file says).
        public var h2c = false
        /// 200 for everything, no validation. Default off (or as the file says).
        public var fast = false
        /// A simulator configuration file (`SimulatorConfigFile`). Default none.
        public var configPath: String?
        /// Provider keys whose tokens verify. Default none: a demo key is made (validating mode).
        public var keys: [KeyFile] = []
        /// Bundle ids the keys' teams may push to. Default none: any.
        public var bundleIDs: [String] = []
        /// Overrides the file's environment. Default: the file's, or sandbox.
        public var environment: SimulatorConfiguration.Environment?
        /// Overrides the file's event-loop threads.
        public var threads: Int?
        /// Overrides the file's seed.
        public var seed: UInt64?
        /// DNS names the server certificate covers beside localhost, 127.0.0.1 and ::1.
        public var tlsNames: [String] = []
        /// Where to write the CA certificate. Default: `apnsbench-simulator-ca-<port>.pem` in the temporary
        /// folder. The demo key's .p8 goes to the same folder.
        public var caOut: String?
        /// A folder that keeps the CA, the server certificate and its key across restarts (read if there,
        /// else made and written); nil: fresh ones each start.
        public var tlsDirectory: String?

        /// Told every answered push (`simulate --report`: a ``SimulatorRecording``); nil: nothing recorded.
        public var requestObserver: RequestObserver?
        public init() {}
    }

    /// Whether `host` is a loopback address or name (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        return h == "localhost" || h == "::1" || h == "[::1]" || h.hasPrefix("127.")
    }

    /// The key made when no key was given (validating mode only); its .p8 is written beside the CA.
    public static let demoKeyID = "DEMOKEY001", demoTeamID = "DEMOTEAM01"

    /// The running simulator.
    public let simulator: APNsSimulator
    /// Where the CA certificate was written (nil in h2c mode).
    public let caPath: String?
    /// Where the demo key's .p8 was written (nil when keys were given, or in fast mode).
    public let demoKeyPath: String?
    /// What `apnsbench simulate` prints once it listens, the last line `ready; …`.
    public let lines: [String]

    /// The configuration the options and the file give, and the demo key if one was made.
    public static func configuration(_ options: Options) throws -> (SimulatorConfiguration, demo: SigningKey?) {
        var c = SimulatorConfiguration()
        c.port = options.port
        if let path = options.configPath { try SimulatorConfigFile.load(path: path, into: &c) }
        // The command line wins over the file.
        c.host = options.host
        c.port = options.port
        if options.h2c { c.h2c = true }
        if options.fast { c.fast = true }
        if let environment = options.environment { c.environment = environment }
        if let threads = options.threads { c.threads = threads }
        if let seed = options.seed { c.seed = seed }

        var demo: SigningKey?
        for k in options.keys {
            let key = try SigningKey(p8Path: k.path, keyID: k.keyID, teamID: k.teamID)
            c.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
        }
        if c.keys.isEmpty && !c.fast {
            let key = SigningKey.generate(keyID: demoKeyID, teamID: demoTeamID)
            c.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
            demo = key
        }
        if !options.bundleIDs.isEmpty {
            for team in Set(c.keys.values.map(\.teamID)) { c.topicsByTeam[team, default: []].formUnion(options.bundleIDs) }
        }
        return (c, demo)
    }

    /// Builds the configuration, starts the simulator and writes the CA and the demo key. The caller stops
    /// the simulator.
    public static func start(_ options: Options) throws -> SimulatorLaunch {
        let (c, demo) = try configuration(options)
        let certificates: SimulatorCertificates?
        if c.h2c {
            certificates = nil
        } else if let dir = options.tlsDirectory {
            certificates = try SimulatorCertificates.kept(in: dir, extraDNSNames: options.tlsNames)
        } else {
            certificates = options.tlsNames.isEmpty ? nil : try SimulatorCertificates.generate(extraDNSNames: options.tlsNames)
        }
        let simulator = try APNsSimulator(configuration: c, certificates: certificates)
        (options.requestObserver as? SimulatorRecording)?.deviceModel = c.device
        simulator.requestObserver = options.requestObserver
        try simulator.start()
        do {
            return try SimulatorLaunch(simulator: simulator, configuration: c, demo: demo, caOut: options.caOut)
        } catch {
            simulator.stop()
            throw error
        }
    }

    private init(simulator: APNsSimulator, configuration c: SimulatorConfiguration, demo: SigningKey?, caOut: String?) throws {
        self.simulator = simulator
        let folder = caOut.map { ($0 as NSString).deletingLastPathComponent } ?? NSTemporaryDirectory()
        let transport = c.h2c ? "h2c, prior knowledge" : "TLS 1.2+, ALPN h2 or prior knowledge"
        let checking = c.fast ? "fast mode: 200 for everything, no validation" : "validating, \(c.environment.rawValue)"
        var lines = ["apnsbench simulate: listening on \(simulator.url) (\(transport); \(checking))"]
        lines.append("url: \(simulator.url)")
        var caPath: String?
        if let certificates = simulator.certificates {
            let path = caOut ?? (folder as NSString).appendingPathComponent("apnsbench-simulator-ca-\(simulator.port).pem")
            try Data(certificates.caPEM.utf8).write(to: URL(fileURLWithPath: path))
            lines.append("ca: \(path)")
            caPath = path
        }
        var demoKeyPath: String?
        if let demo {
            let p8 = (folder as NSString).appendingPathComponent("AuthKey_\(demo.keyID).p8")
            try Data(demo.privateKey.pkcs8PEM.utf8).write(to: URL(fileURLWithPath: p8))
            lines.append("demo key: \(p8) key id \(demo.keyID) team id \(demo.teamID)")
            // No provider token is printed, not even the demo key's: a JWT in a log is a credential in a log.
            // Clients sign their own with the key file above (apnsbench run --key-path ... does).
            demoKeyPath = p8
        }
        for key in c.keys.values.sorted(by: { $0.keyID < $1.keyID }) where key.keyID != demo?.keyID {
            lines.append("key: \(key.keyID) team \(key.teamID)")
        }
        lines.append("ready; stop with Ctrl-C (SIGINT) or SIGTERM")
        self.caPath = caPath
        self.demoKeyPath = demoKeyPath
        self.lines = lines
    }
}
