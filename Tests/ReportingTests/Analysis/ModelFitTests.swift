import APNsCore
import Foundation
@testable import Reporting
import XCTest

/// The model fit recovers a known model: a round trip plus a lognormal server time, from the three
/// quantiles of the measured service times, and the shares of error answers from the counts.
final class ModelFitTests: XCTestCase {
    /// Exact quantiles of R + lognormal(p50, p99).
    func quantiles(roundTrip r: Double, p50: Double, p99: Double) -> (Double, Double, Double) {
        let sigma = log(p99 / p50) / APNsLatencyModelFit.z99
        return (r + p50 * exp(-sigma * APNsLatencyModelFit.z90), r + p50, r + p99)
    }

    func testTheRoundTripIsTheShiftThatMakesTheSpreadsAgree() {
        for (r, p50, p99) in [(20.0, 5.0, 40.0), (180, 10, 300), (0.5, 40, 200), (50, 50, 1500), (0, 40, 200)] {
            let q = quantiles(roundTrip: r, p50: p50, p99: p99)
            let fitted = APNsLatencyModelFit.roundTrip(p10: q.0, p50: q.1, p99: q.2)
            XCTAssertEqual(fitted, r, accuracy: max(0.01, r * 0.001), "R \(r), p50 \(p50), p99 \(p99)")
        }
        // Quantiles spread more below the median than a lognormal's: no shift to find.
        XCTAssertEqual(APNsLatencyModelFit.roundTrip(p10: 1, p50: 20, p99: 30), 0)
    }

    /// A report whose delivered pushes took R + lognormal service times (a seeded sample), with the error
    /// answers and connection events given.
    func report(roundTrip r: Double, p50: Double, p99: Double, pushes: Int = 20_000,
                rejected503: Int = 0, retried503: Int = 0, rejected429: Int = 0, reconnects: Int = 0) -> RunReport {
        let recorder = RunRecorder()
        recorder.start(atNanos: Fixtures.t0)
        let sigma = log(p99 / p50) / APNsLatencyModelFit.z99
        var rng = SplitMix64(seed: 7)
        for i in 0..<pushes {
            // Box-Muller from two uniforms.
            let z = sqrt(-2 * log(rng.unitAboveZero())) * cos(2 * .pi * rng.unitAboveZero())
            let ms = r + p50 * exp(sigma * z)
            let sent = Fixtures.t0 + UInt64(i) * 100_000
            recorder.record(.delivered, priority: .immediate, intended: sent, sent: sent, completed: sent + UInt64(ms * 1e6))
        }
        for _ in 0..<rejected503 { Fixtures.send(recorder, .rejected(.serviceUnavailable)) }
        for _ in 0..<rejected429 { Fixtures.send(recorder, .rejected(.tooManyRequests)) }
        var engine = EngineCounters()
        engine.sent = pushes + rejected503 + rejected429 + retried503
        engine.retries = retried503 > 0 ? ["ServiceUnavailable": retried503] : [:]
        engine.retriesTotal = retried503
        engine.reconnects = reconnects
        return recorder.makeReport(configuration: Fixtures.configuration, events: Fixtures.matchingEvents(recorder),
                                   environment: Fixtures.environment, engine: engine, startedAt: Fixtures.startedAt, durationSeconds: 10)
    }

    func testAReportOfAKnownModelGivesItsParametersBack() throws {
        for (r, p50, p99) in [(20.0, 5.0, 40.0), (180, 10, 300), (20, 50, 1500)] {
            let fit = try APNsLatencyModelFit.fit(report(roundTrip: r, p50: p50, p99: p99, rejected503: 200, retried503: 200, rejected429: 100, reconnects: 10))
            XCTAssertEqual(fit.roundTripMillis, r, accuracy: r * 0.1, "round trip of \(r)/\(p50)/\(p99): \(fit.table)")
            XCTAssertEqual(fit.serverP50Millis, p50, accuracy: p50 * 0.1, fit.table)
            XCTAssertEqual(fit.serverP99Millis, p99, accuracy: p99 * 0.1, fit.table)
            // 400 answers 503 (200 final, 200 resent) and 100 answers 429 of 20,500 requests.
            XCTAssertEqual(fit.serviceUnavailableShare, 400.0 / 20_500, accuracy: 1e-9)
            XCTAssertEqual(fit.tooManyRequestsShare, 100.0 / 20_500, accuracy: 1e-9)
            XCTAssertEqual(fit.connectionResetShare, 10.0 / 20_500, accuracy: 1e-9)
            XCTAssertNil(fit.goAwayAfterRequests)
            XCTAssertEqual(fit.warnings, [])
        }
    }

    func testWhatCannotBeFittedIsRefusedAndDoubtIsSaid() throws {
        let empty = Fixtures.report(from: RunRecorder())
        XCTAssertThrowsError(try APNsLatencyModelFit.fit(empty)) { e in
            XCTAssertTrue("\(e)".contains("no service-time histogram"), "\(e)")
        }
        XCTAssertEqual(try APNsLatencyModelFit.fit(report(roundTrip: 20, p50: 5, p99: 40, pushes: 500)).warnings.count, 1, "few answers: a warning only")
        var queued = report(roundTrip: 20, p50: 5, p99: 40, pushes: 500)
        queued.engine.peakInFlight = queued.configuration.transport.window
        XCTAssertThrowsError(try APNsLatencyModelFit.fit(queued)) { e in
            XCTAssertTrue("\(e)".contains("refusing to fit: the in-flight window (\(queued.configuration.transport.window)) filled"), "\(e)")
            XCTAssertTrue("\(e)".contains("Measure again at a low fixed rate, about"), "\(e)")
        }
        let fit = try APNsLatencyModelFit.fit(queued, force: true)
        XCTAssertEqual(fit.warnings.count, 2, "\(fit.warnings)")
        XCTAssertTrue(fit.warnings.contains { $0.contains("only 500 delivered") })
        XCTAssertTrue(fit.warnings.contains { $0.contains("window") })
    }

    /// A run whose pushes waited before they were sent (the response time's median far above the service
    /// time's), or whose quantiles leave no round trip, is refused with the reason.
    func testSendsBehindTheScheduleOrNoRoundTripAreRefused() throws {
        var behind = report(roundTrip: 20, p50: 5, p99: 40)
        behind.latency.responseTime.p50 = behind.latency.serviceTime.p50 + 40_000
        XCTAssertThrowsError(try APNsLatencyModelFit.fit(behind)) { e in
            XCTAssertTrue("\(e)".contains("the sends fell behind the schedule (response time p50"), "\(e)")
        }
        // Service times spread more below the median than above (queueing): the round trip comes out 0.
        XCTAssertEqual(APNsLatencyModelFit.roundTrip(p10: 1, p50: 20, p99: 30), 0)
        let clean = report(roundTrip: 20, p50: 5, p99: 40)
        XCTAssertEqual(APNsLatencyModelFit.refusals(clean, roundTrip: 20, serviceMeanMillis: 30), [])
        XCTAssertEqual(APNsLatencyModelFit.refusals(clean, roundTrip: 0, serviceMeanMillis: 30).count, 1)
        XCTAssertTrue(APNsLatencyModelFit.refusals(clean, roundTrip: 0, serviceMeanMillis: 30)[0].contains("round trip at 0 ms or below"))
    }
}

extension SplitMix64 {
    /// Uniform in (0, 1]: never 0, so its logarithm is finite.
    mutating func unitAboveZero() -> Double { Double(next() >> 11 &+ 1) / Double(1 << 53) }
}
