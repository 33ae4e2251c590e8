import APNsCore
import Foundation

/// Reading `report.json` schema 1, as builds before schema 2 wrote it, into the current ``RunReport``.
///
/// Schema 1 had the same events, pushes, latency, throughput, timeline, simulator and coalescing sections
/// (without the fields added since, all optional now), but flattened copies of the configuration
/// (`RunSettings`: strings and numbers) and of the engine's counters (`EngineSummary`, with a nested
/// `resilience`). Those two are mapped back: every value schema 1 kept is kept; what it never recorded
/// (the template path, the retry policy's numbers but its attempts) takes the default, and the
/// configuration's `description` says the report was converted. The result is a schema-2 report.
extension RunReport {
    static func decodeV1(_ data: Data, path: String) throws -> RunReport {
        let v1: V1
        do { v1 = try JSONDecoder().decode(V1.self, from: data) } catch let error as DecodingError {
            throw ReportLoadError.malformed(path: path, reason: "schema 1: " + explain(error))
        }
        // The sections schema 1 did not read are nil; the generator is this build's, which converted it.
        return RunReport(
            generator: Generator(), startedAt: v1.startedAt, durationSeconds: v1.durationSeconds,
            configuration: try v1.configuration.runConfig(path: path), environment: v1.environment, events: v1.events, pushes: v1.pushes,
            latency: v1.latency, throughput: v1.throughput, timeline: v1.timeline, engine: v1.engine.counters(sent: v1.throughput.sent),
            simulator: v1.simulator, coalescing: v1.coalescing, stopReason: nil, openDescriptors: nil, liveActivityBudget: nil, runID: nil,
            broadcast: nil, merged: nil, device: nil, priorityOverride: nil, received: nil, pushKinds: nil, sends: nil)
    }

    /// A schedule as schema 1 spelled it (``Schedule/description``), or nil.
    static func v1Schedule(_ text: String) -> Schedule? { Settings.schedule(text) }

    private struct V1: Decodable {
        var startedAt: String
        var durationSeconds: Double
        var configuration: Settings
        var environment: EnvironmentInfo
        var events: Events
        var pushes: Pushes
        var latency: Latency
        var throughput: Throughput
        var timeline: [TimelineEntry]
        var engine: Engine
        var simulator: [String: Int]?
        var coalescing: Coalescing?
    }

    /// Schema 1's `configuration`.
    private struct Settings: Decodable {
        var profile: String
        var workload: String
        var stream: String
        var target: String
        var pushType: String
        var topic: String
        var priority: String
        var expirationSeconds: Int?
        var connections: Int
        var streams: Int
        var tokenRefreshSeconds: Int
        var pushTimeoutMillis: Int
        var badLinePolicy: String
        var durationLimitSeconds: Double?
        var schedule: String?
        var coalesceMillis: Int?
        var workers: Int?
        var collapseID: String?
        var retry: String?
        var simulatorMode: String?
        var slo: SLO?

        struct SLO: Decodable {
            var p99Millis: Int?
            var minDelivered: Double?
        }

        func runConfig(path: String) throws -> RunConfig {
            func bad(_ field: String, _ value: String) -> ReportLoadError {
                .malformed(path: path, reason: "schema 1: configuration.\(field) '\(value)' is not one this build knows")
            }
            guard let type = PushType(rawValue: pushType) else { throw bad("pushType", pushType) }
            let suffix = ".push-type." + type.rawValue
            let bundleID = topic.hasSuffix(suffix) ? String(topic.dropLast(suffix.count)) : topic
            var workload = RunConfig.Workload(name: workload, stream: stream, recipe: "", bundleID: bundleID)
            workload.pushType = type
            guard let policy = RunConfig.Workload.BadLinePolicy(rawValue: badLinePolicy) else { throw bad("badLinePolicy", badLinePolicy) }
            workload.badLines = policy
            var c = RunConfig(name: ((profile as NSString).lastPathComponent as NSString).deletingPathExtension,
                              profilePath: profile, workload: workload)
            c.description = "converted from a schema 1 report (its template path and retry timings were not recorded)"
            guard let target = Target(argument: target) else { throw bad("target", target) }
            c.target = target
            // "10", or "per-event (default 10)" when each event chose.
            guard let digits = priority.split(whereSeparator: { !$0.isNumber }).last, let p = Int(digits),
                  let priority = Priority(rawValue: p) else { throw bad("priority", priority) }
            c.payload.priority = priority
            c.payload.expirationSeconds = expirationSeconds
            c.payload.collapseID = collapseID
            c.transport.connections = connections
            c.transport.streams = streams
            c.transport.workers = workers ?? 1
            c.transport.pushTimeoutMillis = pushTimeoutMillis
            c.auth.tokenRefreshMinutes = Double(tokenRefreshSeconds) / 60
            if let schedule {
                guard let mode = Self.schedule(schedule) else { throw bad("schedule", schedule) }
                c.schedule.mode = mode
            }
            c.schedule.durationSeconds = durationLimitSeconds
            c.coalescing.windowMillis = coalesceMillis.map(Int64.init)
            if let retry, let attempts = retry.split(separator: " ").first.flatMap({ Int($0) }) { c.retry.attempts = attempts }
            c.simulator.fast = simulatorMode == "fast"
            c.slo.p99Millis = slo?.p99Millis
            c.slo.minDelivered = slo?.minDelivered
            return c
        }

        /// `closed-loop`, `recorded x60`, `rate 2000/s`, `ramp 1000->20000/s over 60 s` (``Schedule/description``).
        static func schedule(_ text: String) -> Schedule? {
            let words = text.split(separator: " ").map(String.init)
            func number(_ s: String) -> Double? { Double(s) }
            switch words.first {
            case "closed-loop": return .closedLoop
            case "recorded":
                guard words.count == 2, words[1].hasPrefix("x"), let speed = number(String(words[1].dropFirst())) else { return nil }
                return .recorded(speed: speed)
            case "rate":
                guard words.count == 2, words[1].hasSuffix("/s"), let r = number(String(words[1].dropLast(2))) else { return nil }
                return .fixedRate(perSecond: r)
            case "ramp":
                // ramp FROM->TO/s over SECONDS s
                guard words.count == 5, words[2] == "over", words[1].hasSuffix("/s") else { return nil }
                let rates = words[1].dropLast(2).components(separatedBy: "->")
                guard rates.count == 2, let a = number(rates[0]), let b = number(rates[1]), let s = number(words[3]) else { return nil }
                return .ramp(from: a, to: b, seconds: s)
            default: return nil
            }
        }
    }

    /// Schema 1's `engine`.
    private struct Engine: Decodable {
        var connectionsOpened: Int
        var providerTokenSignings: Int
        var peakInFlight: Int
        var resilience: Resilience?

        struct Resilience: Decodable {
            var retries: [String: Int]
            var retriesTotal: Int
            var tokenBackoffs: Int
            var deadTokens: Int
            var providerTokenRefreshes: Int
            var reconnects: Int
            var reconnectHolds: Int
            var pings: Int
        }

        func counters(sent: Int) -> EngineCounters {
            var e = EngineCounters()
            e.sent = sent
            e.connectionsOpened = connectionsOpened
            e.providerTokenSignings = providerTokenSignings
            e.peakInFlight = peakInFlight
            if let r = resilience {
                e.retries = r.retries
                e.retriesTotal = r.retriesTotal
                e.tokenBackoffs = r.tokenBackoffs
                e.deadTokens = r.deadTokens
                e.providerTokenRefreshes = r.providerTokenRefreshes
                e.reconnects = r.reconnects
                e.reconnectHolds = r.reconnectHolds
                e.pings = r.pings
            }
            return e
        }
    }
}
