import APNsCore
import APNsEngine
import APNsSimulator
import Foundation
import Reporting

extension SimulatorRecording {
    /// What the report says beside the recorded requests.
    public struct ReportInputs {
        /// The simulator's own counters at its stop (connections, verifications, per connection).
        public var counters: SimulatorCounters
        /// The Live Activity priority-10 budget per token per hour the simulator applied (nil: none).
        public var budgetPerHour: Int?
        public var startedAt: Date
        public var durationSeconds: Double
        /// The simulator's configuration file (`--config`), named in the report as its profile.
        public var configPath: String?
        /// What stopped it: `SIGINT`, `SIGTERM`, `--duration`, `POST /stop`.
        public var stopReason: String
        /// The simulator's configuration as it answered (the report carries it by value); nil: not known.
        public var simulator: SimulatorConfiguration?

        public init(counters: SimulatorCounters, budgetPerHour: Int?, startedAt: Date, durationSeconds: Double, configPath: String?, stopReason: String,
                    simulator: SimulatorConfiguration? = nil) {
            self.simulator = simulator
            self.counters = counters
            self.budgetPerHour = budgetPerHour
            self.startedAt = startedAt
            self.durationSeconds = durationSeconds
            self.configPath = configPath
            self.stopReason = stopReason
        }
    }

    /// The report of what was received, in the run report's schema (``RunReport/Received`` says how its
    /// fields read from the server's side). Call once the simulator has stopped.
    public func report(_ inputs: ReportInputs) -> RunReport {
        let (recorder, events, classes, perToken, sends) = merged()
        var workload = RunConfig.Workload(name: "sender", stream: "-", recipe: "-", bundleID: "-")
        workload.recipe = nil
        workload.activityModel = modelFile
        // The push type most requested names the workload's (the report's latency by push type, when one was delivered).
        let byType = Dictionary(classes.map { ($0.key.pushType, $0.value) }, uniquingKeysWith: +)
        if let top = byType.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }), let type = PushType(rawValue: top.key) {
            workload.pushType = type
        }
        var configuration = RunConfig(name: "simulate", profilePath: inputs.configPath ?? "-", workload: workload)
        configuration.liveActivityBudget = inputs.budgetPerHour
        configuration.simulator.effective = inputs.simulator.map(SimulatorKeys.effectiveValues)
        configuration.simulator.fast = inputs.simulator?.fast ?? false
        let c = inputs.counters
        var engine = EngineCounters()
        engine.sent = recorder.planned
        engine.connectionsOpened = c.connectionsOpened
        engine.providerTokenSignings = c.tokenVerifications
        let curl = LibcurlInfo.loaded()
        var received = Self.received(classes: classes, perToken: perToken, inputs: inputs)
        received.connections.mostOpenStreams = mostOpenStreams
        let contract = self.contract
        // The latency by push type is of one push type only: delivered pushes of several are not told apart.
        let deliveredTypes = Set(classes.filter { $0.key.answer == "200" }.map(\.key.pushType))
        let facts = RunReport.RunFacts(stopReason: inputs.stopReason, contract: contract?.findings, device: deviceSection(), sends: sends.section,
                                       received: received, wouldNotDecode: contract?.delivered, latencyByPushType: deliveredTypes.count <= 1)
        return recorder.makeReport(configuration: configuration, events: events,
                                   environment: .current(libcurl: curl.version, ssl: curl.ssl, nghttp2: curl.nghttp2),
                                   engine: engine, simulator: c.flattened, startedAt: inputs.startedAt,
                                   durationSeconds: inputs.durationSeconds, facts: facts)
    }

    static func received(classes: [RequestKey: Int], perToken: [Substring: TokenCount], inputs: ReportInputs) -> RunReport.Received {
        let rows = classes.map { RunReport.Received.RequestClass(pushType: $0.key.pushType, topic: $0.key.topic, priority: $0.key.priority,
                                                                 answer: $0.key.answer, count: $0.value) }
            .sorted { ($1.count, $0.pushType, $0.topic, $0.priority, $0.answer) < ($0.count, $1.pushType, $1.topic, $1.priority, $1.answer) }
        func answered(_ reasons: Set<String>) -> Int { rows.filter { reasons.contains($0.answer) }.reduce(0) { $0 + $1.count } }
        let c = inputs.counters
        let tokens = RunReport.Received.ProviderTokens(
            verified: c.tokenVerifications, tooManyUpdates: answered(["TooManyProviderTokenUpdates"]), expired: answered(["ExpiredProviderToken"]),
            invalidOrMissing: answered(["InvalidProviderToken", "MissingProviderToken"]))
        let connections = RunReport.Received.Connections(opened: c.connectionsOpened, closed: c.connectionsClosed,
                                                         requestsPerConnection: c.connections.map(\.requests))
        var budget: RunReport.Received.BudgetPerToken?
        if !perToken.isEmpty {
            budget = .init(perHour: inputs.budgetPerHour ?? 0, tokens: perToken.count, mostPerToken: perToken.values.map(\.pushes).max() ?? 0,
                           tokensOverBudget: perToken.values.filter { $0.overruns > 0 }.count,
                           overruns: perToken.values.reduce(0) { $0 + $1.overruns })
        }
        return RunReport.Received(requests: rows, providerTokens: tokens, connections: connections, liveActivityBudget: budget)
    }
}
