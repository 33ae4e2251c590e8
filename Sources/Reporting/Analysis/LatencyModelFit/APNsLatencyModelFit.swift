import APNsCore
import Foundation

/// An APNs model fitted to a measured run: what `apnsbench model fit` reads from a report of a run against
/// the user's own path to APNs (sandbox, at a low fixed rate), in the simulator's own keys.
///
/// The service time (send to answer) is taken as a fixed round trip plus a lognormal server time, the
/// simulator's latency model. Its three parameters come from three quantiles of the measured service
/// time: the round trip R is the shift at which the lognormal's spread seen from the median up (p50 to p99)
/// equals its spread seen from the median down (p10 to p50); then the server time's p50 and p99 are the
/// measured ones less R. A run whose in-flight window filled queued on the client, and its service times
/// then hold waiting too: ``warnings`` says so.
///
/// Error answers are shares of the requests sent (first sends and resends): 503 ServiceUnavailable and
/// 429 TooManyRequests answers, whether resent or final. Connections the server reset are the
/// reconnections beyond the GOAWAYs; GOAWAYs become a count of requests a connection serves before one.
public struct APNsLatencyModelFit: Codable, Sendable, Equatable {
    /// Measured service time quantiles, ms.
    public var serviceP10Millis: Double
    public var serviceP50Millis: Double
    public var serviceP99Millis: Double
    /// The fitted round trip and server-time lognormal, ms.
    public var roundTripMillis: Double
    public var serverP50Millis: Double
    public var serverP99Millis: Double
    /// Requests sent (first sends and resends) and answered.
    public var requests: Int
    public var serviceUnavailableShare: Double
    public var tooManyRequestsShare: Double
    public var connectionResetShare: Double
    /// Requests a connection served, on average, before the server sent GOAWAY; nil when none did.
    public var goAwayAfterRequests: Int?
    /// What makes the fit doubtful (a full window, few answers).
    public var warnings: [String]

    public struct FitError: Error, CustomStringConvertible {
        public let description: String
    }

    static let z99 = 2.326_347_874
    static let z90 = 1.281_551_566

    /// Fits the model to `report`'s delivered pushes' service times and its answers.
    /// `force` fits a run ``refusals(_:roundTrip:serviceMeanMillis:)`` would refuse, its reasons then warnings.
    public static func fit(_ report: RunReport, force: Bool = false) throws -> APNsLatencyModelFit {
        guard let encoded = report.latency.histograms?.overall.serviceTime,
              let q = EncodedPercentiles.values(encoded, at: [10, 50, 99]), q.count == 3 else {
            throw FitError(description: "the report has no service-time histogram of delivered pushes to fit (nothing was delivered, "
                + "or it was written before histograms were kept)")
        }
        let (p10, p50, p99) = (Double(q[0]) / 1000, Double(q[1]) / 1000, Double(q[2]) / 1000)
        guard p10 > 0, p50 > p10, p99 > p50 else {
            throw FitError(description: String(format: "the service times have no spread to fit (p10 %.3f ms, p50 %.3f ms, p99 %.3f ms)", p10, p50, p99))
        }
        let r = roundTrip(p10: p10, p50: p50, p99: p99)
        let problems = refusals(report, roundTrip: r, serviceMeanMillis: report.latency.serviceTime.mean / 1000)
        if !problems.isEmpty, !force {
            throw FitError(description: "refusing to fit: " + problems.joined(separator: "; ") + ". " + suggestion(report)
                + " (--force fits it anyway, with these as warnings)")
        }
        var warnings: [String] = problems
        let delivered = report.latency.serviceTime.count
        if delivered < 2000 {
            warnings.append("only \(delivered) delivered pushes: p99 rests on few of them (measure at least 2,000)")
        }
        let requests = max(1, report.engine.sent)
        func answers(_ reason: String) -> Int {
            (report.pushes.rejected[reason]?.count ?? 0) + (report.engine.retries[reason] ?? 0)
        }
        let goAways = report.timeline.reduce(0) { $0 + ($1.goAways ?? 0) }
        let resets = max(0, report.engine.reconnects - goAways)
        return APNsLatencyModelFit(
            serviceP10Millis: p10, serviceP50Millis: p50, serviceP99Millis: p99,
            roundTripMillis: r, serverP50Millis: p50 - r, serverP99Millis: p99 - r,
            requests: report.engine.sent,
            serviceUnavailableShare: Double(answers(Reason.serviceUnavailable.rawValue)) / Double(requests),
            tooManyRequestsShare: Double(answers(Reason.tooManyRequests.rawValue)) / Double(requests),
            connectionResetShare: Double(resets) / Double(requests),
            goAwayAfterRequests: goAways > 0 ? requests / goAways : nil,
            warnings: warnings)
    }

    /// The shift R in [0, p10) at which ln((p99−R)/(p50−R))/z99 = ln((p50−R)/(p10−R))/z90; 0 when the
    /// quantiles show no shift (the spread up is already no wider than the spread down).
    static func roundTrip(p10: Double, p50: Double, p99: Double) -> Double {
        func gap(_ r: Double) -> Double { log((p99 - r) / (p50 - r)) / z99 - log((p50 - r) / (p10 - r)) / z90 }
        guard gap(0) > 0 else { return 0 }
        var lo = 0.0, hi = p10 * (1 - 1e-9)
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if gap(mid) > 0 { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// `v` rounded to `places` decimals: the model file's figures.
    public static func rounded(_ v: Double, places: Int = 3) -> Double {
        let f = pow(10, Double(places))
        return (v * f).rounded() / f
    }

    /// Why the run cannot be fitted: its in-flight window filled (the service times hold the client's
    /// queueing), its sends fell behind the schedule (pushes waited before they were sent: the response
    /// time's median well above the service time's, pushes due and never sent, or 1% handed over late), or
    /// its quantiles put the round trip at 0 or below. Empty when it can.
    static func refusals(_ report: RunReport, roundTrip r: Double, serviceMeanMillis: Double) -> [String] {
        var out: [String] = []
        let window = report.configuration.transport.window
        if report.engine.peakInFlight >= window {
            out.append("the in-flight window (\(window)) filled, so the service times hold the client's queueing")
        }
        let response = Double(report.latency.responseTime.p50) / 1000, service = Double(report.latency.serviceTime.p50) / 1000
        let lost = report.pushes.notSent[NotSentCause.runStopped.rawValue] ?? 0
        let handed = report.pushes.delivered + report.pushes.rejectedTotal + report.pushes.failedTotal + report.pushes.timedOut + lost
        let lateShare = handed > 0 ? Double(report.engine.producerLatePushes) / Double(handed) : 0
        if response - service > max(5, service / 2) || lost > 0 || lateShare >= 0.01 {
            var why = String(format: "response time p50 %.2f ms against service time p50 %.2f ms", response, service)
            if lost > 0 { why += ", \(lost) pushes due and never sent" }
            if lateShare >= 0.01 { why += String(format: ", %.1f%% of pushes handed to the engine late", lateShare * 100) }
            out.append("the sends fell behind the schedule (\(why))")
        }
        if r <= 0 {
            out.append("the service time quantiles put the round trip at 0 ms or below (the spread above the median is no wider than below it: queueing, "
                + "not a path)")
        }
        _ = serviceMeanMillis
        return out
    }

    /// Pushes sent a second over the run's sending window.
    static func sentRate(_ report: RunReport) -> Double? {
        report.throughput.pushesPerSecond > 0 ? report.throughput.pushesPerSecond : nil
    }

    /// `Measure again at about 140 pushes/s or less`: a tenth of what the window carries at the measured mean
    /// service time (Little's law), and no more than a quarter of what the run sent.
    static func suggestion(_ report: RunReport) -> String {
        let mean = max(0.001, report.latency.serviceTime.mean / 1_000_000)
        var rate = Double(report.configuration.transport.window) / mean / 10
        if let sent = sentRate(report) { rate = min(rate, sent / 4) }
        let shown = rate >= 10 ? (rate / 10).rounded(.down) * 10 : max(1, rate.rounded(.down))
        return String(format: "Measure again at a low fixed rate, about %.0f pushes/s or less (run --rate %.0f)", shown, shown)
    }
}
