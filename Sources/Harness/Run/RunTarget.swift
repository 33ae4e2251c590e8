import APNsCore
import APNsSimulator

/// Where a run's pushes go: the embedded simulator, started for the run on a free loopback port with a
/// certificate only the engine trusts, or a URL (APNs, or any APNs-like server).
final class RunTarget {
    /// `https://host:port` (or `http://` for h2c).
    let baseURL: String
    /// The one CA the engine trusts (the embedded simulator's); nil for the system's trust store.
    let trustedCertificatePEM: String?
    /// The embedded simulator, when the target is the simulator.
    let simulator: APNsSimulator?

    init(_ config: RunConfig, inputs: RunInputs) throws {
        guard config.target == .simulator else {
            baseURL = config.target.baseURL!
            trustedCertificatePEM = inputs.trustedCertificatePEM
            simulator = nil
            return
        }
        var s = SimulatorConfiguration()
        // The profile's APNs model and faults first; what the run itself needs goes over them.
        if let settings = config.simulator.effectiveSettings {
            try SimulatorConfigFile.apply(settings: settings, profile: config.profilePath, to: &s)
        }
        let key = inputs.key
        s.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
        for part in config.workload.parts { s.topicsByTeam[key.teamID, default: []].insert(part.bundleID) }
        for token in inputs.deadTokens { s.deviceRegistry.kill(token: token) }
        s.fast = config.simulator.fast
        let sim = try APNsSimulator(configuration: s)
        try sim.start()
        simulator = sim
        baseURL = sim.url
        trustedCertificatePEM = sim.certificates?.caPEM
    }

    /// How people read it in the start line.
    var description: String { simulator.map { "the embedded simulator at \($0.url)" } ?? baseURL }

    /// The simulator's counters, for the report.
    var simulatorCounters: [String: Int]? { simulator?.counterSnapshot.flattened }

    /// `config` as the report embeds it: with the embedded simulator's configuration by value
    /// (`simulator.effective`), so that compare tells two simulators apart.
    func reported(_ config: RunConfig) -> RunConfig {
        var out = config
        out.simulator.effective = simulator.map { SimulatorKeys.effectiveValues(of: $0.configuration) }
        return out
    }

    func stop() { simulator?.stop() }
}
