import APNsCore
import Foundation

/// What the live metrics endpoint serves at one moment: the run's outcomes so far by class and reason,
/// delivered pushes' response-time buckets by priority, pushes in flight, connections open and provider
/// tokens signed. Built from the workers' progress during the run and from the report at its end, so the
/// last values served are the report's. Never holds a device token.
public struct MetricsSample: Equatable, Sendable {
    /// One `apnsbench_pushes_total` series.
    public struct OutcomeKey: Hashable, Sendable, Comparable {
        /// `delivered`, `rejected`, `failed`, `timed_out` or `not_sent`.
        public var outcome: String
        /// The APNs reason (rejected), transport error (failed) or cause (not sent); nil for the others.
        public var reason: String?
        public init(_ outcome: String, _ reason: String? = nil) {
            self.outcome = outcome
            self.reason = reason
        }
        public static func < (a: OutcomeKey, b: OutcomeKey) -> Bool {
            (a.outcome, a.reason ?? "") < (b.outcome, b.reason ?? "")
        }
    }

    public var outcomes: [OutcomeKey: Int] = [:]
    /// By `apns-priority`.
    public var responseTime: [Int: OutcomeDetail.BucketCounts] = [:]
    public var inFlight = 0
    public var connections = 0
    public var providerTokenSignings = 0

    public init() {}

    /// The sample of a progress snapshot: `outcomes` (with its detail) and the engine's counts. Not-sent
    /// pushes counted by another sink (the producer's) come in `extraNotSent`.
    public init(outcomes o: OutcomeProgress, extraNotSent: [String: Int] = [:], inFlight: Int, providerTokenSignings: Int) {
        self.init()
        let d = o.detail ?? OutcomeDetail()
        outcomes[OutcomeKey("delivered")] = o.delivered
        outcomes[OutcomeKey("timed_out")] = o.timedOut
        for (reason, n) in d.rejected { outcomes[OutcomeKey("rejected", reason)] = n }
        for (key, n) in d.failed { outcomes[OutcomeKey("failed", key)] = n }
        for (cause, n) in d.notSent.merging(extraNotSent, uniquingKeysWith: +) { outcomes[OutcomeKey("not_sent", cause)] = n }
        responseTime = d.responseTime
        self.inFlight = inFlight
        connections = d.connectionsOpen
        self.providerTokenSignings = providerTokenSignings
    }

    /// The sample of a finished run: its report's totals, nothing in flight, no connection open.
    public init(report r: RunReport) {
        self.init()
        let p = r.pushes
        outcomes[OutcomeKey("delivered")] = p.delivered
        outcomes[OutcomeKey("timed_out")] = p.timedOut
        for (reason, rejection) in p.rejected { outcomes[OutcomeKey("rejected", reason)] = rejection.count }
        for (key, n) in p.failed { outcomes[OutcomeKey("failed", key)] = n }
        for (cause, n) in p.notSent { outcomes[OutcomeKey("not_sent", cause)] = n }
        for (priority, pair) in r.latency.histograms?.byPriority ?? [:] {
            guard let value = Int(priority), let h = try? EncodedHistogram.decode(pair.responseTime) else { continue }
            responseTime[value] = OutcomeDetail.BucketCounts(h)
        }
        providerTokenSignings = r.engine.providerTokenSignings
    }
}

/// The OpenMetrics 1.0 text of a ``MetricsSample`` (what Prometheus scrapes): every series carries
/// `run_id` and `shard`.
public enum OpenMetricsText {
    public static let contentType = "application/openmetrics-text; version=1.0.0; charset=utf-8"

    public static func render(_ s: MetricsSample, runID: String, shard: Int) -> String {
        let base = "run_id=\"\(escape(runID))\",shard=\"\(shard)\""
        var out = ""
        out += "# TYPE apnsbench_pushes counter\n"
        out += "# HELP apnsbench_pushes Planned pushes that ended, by outcome and reason (APNs reason, transport error or not-sent cause).\n"
        for (key, n) in s.outcomes.sorted(by: { $0.key < $1.key }) {
            let reason = key.reason.map { ",reason=\"\(escape($0))\"" } ?? ""
            out += "apnsbench_pushes_total{\(base),outcome=\"\(key.outcome)\"\(reason)} \(n)\n"
        }
        out += "# TYPE apnsbench_response_time_seconds histogram\n"
        out += "# UNIT apnsbench_response_time_seconds seconds\n"
        out += "# HELP apnsbench_response_time_seconds Delivered pushes' response time (from the intended send to the answer), by apns-priority.\n"
        for (priority, b) in s.responseTime.sorted(by: { $0.key < $1.key }) {
            let labels = "\(base),priority=\"\(priority)\""
            for (i, bound) in OutcomeDetail.BucketCounts.boundsMicros.enumerated() {
                out += "apnsbench_response_time_seconds_bucket{\(labels),le=\"\(seconds(bound))\"} \(b.cumulative[i])\n"
            }
            out += "apnsbench_response_time_seconds_bucket{\(labels),le=\"+Inf\"} \(b.count)\n"
            out += "apnsbench_response_time_seconds_count{\(labels)} \(b.count)\n"
            out += "apnsbench_response_time_seconds_sum{\(labels)} \(b.sumMicros / 1e6)\n"
        }
        out += "# TYPE apnsbench_in_flight gauge\n"
        out += "# HELP apnsbench_in_flight Pushes sent and not yet answered.\n"
        out += "apnsbench_in_flight{\(base)} \(s.inFlight)\n"
        out += "# TYPE apnsbench_connections gauge\n"
        out += "# HELP apnsbench_connections HTTP/2 connections open.\n"
        out += "apnsbench_connections{\(base)} \(s.connections)\n"
        out += "# TYPE apnsbench_provider_token_signings counter\n"
        out += "# HELP apnsbench_provider_token_signings Provider tokens (JWTs) signed.\n"
        out += "apnsbench_provider_token_signings_total{\(base)} \(s.providerTokenSignings)\n"
        out += "# EOF\n"
        return out
    }

    /// µs as seconds, the shortest exact decimal (`0.001`, `2.5`, `30.0`).
    static func seconds(_ micros: UInt64) -> String {
        let whole = micros / 1_000_000, frac = micros % 1_000_000
        guard frac != 0 else { return "\(whole).0" }
        var digits = String(frac)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// A label value: backslash, double quote and line feed escaped.
    static func escape(_ v: String) -> String {
        v.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
