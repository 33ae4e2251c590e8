import APNsCore
import Foundation
@testable import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// `model fit` against the embedded simulator configured with a model chosen here: the fit gives the model
/// back, and a sweep against the fitted model finds the knee the chosen model gives.
final class ModelFitEndToEndTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// ksr-cranes (alerts) with a simulator section, paths made absolute.
    func profile(_ dir: URL, simulator: String, connections: Int, streams: Int) throws -> String {
        let profiles = Self.repo.appendingPathComponent("profiles").path
        let text = try String(contentsOfFile: profiles + "/ksr-cranes.yaml", encoding: .utf8)
            .replacingOccurrences(of: "stream: streams/", with: "stream: \(profiles)/streams/")
            .replacingOccurrences(of: "recipe: recipes/", with: "recipe: \(profiles)/recipes/")
            .replacingOccurrences(of: "connections: 2", with: "connections: \(connections)")
            .replacingOccurrences(of: "streams: 100", with: "streams: \(streams)")
            + "\nsimulator:\n" + simulator
        let path = dir.appendingPathComponent("p-\(UUID().uuidString.prefix(8)).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The fitted server p50 that gives the chosen 20 ms back: 10% below, 25% above (other work only adds time).
    static let serverP50 = 18.0...25.0
    static let serverP99 = 108.0...150.0

    /// A fit whose server p50 and p99 are the model's, within the ranges above.
    static func servedAsModelled(_ fit: APNsLatencyModelFit) -> Bool {
        serverP50.contains(fit.serverP50Millis) && serverP99.contains(fit.serverP99Millis)
    }

    func testTheFitGivesTheModelBackAndTheSameKnee() throws {
        let dir = try ScratchFolder.make("fit")
        defer { ScratchFolder.remove(dir) }
        let chosen = """
              faults:
                round_trip: 30ms
                latency: { lognormal_ms: { p50: 20, p99: 120 } }
                service_unavailable_fraction: 0.02
                too_many_requests_fraction: 0.01

            """
        // The measurement: a low fixed rate, nothing queueing. 200/s rather than more: the client, the
        // simulator and the suite's other tests share 2 cores, and at 500/s their CPU shows in the service
        // time (a fitted server p50 of 27 ms for 20 was seen with the suite running beside it).
        var run = RunRequest(profilePath: try profile(dir, simulator: chosen, connections: 2, streams: 100))
        run.overrides.schedule = .fixedRate(perSecond: 200)
        run.overrides.duration = .seconds(12)
        run.overrides.loopRecording = true
        // Other work on the 2 cores only ever adds time to what is measured: a measurement whose fitted server
        // p50 is off, or that the fit refuses (with two CPU hogs beside the suite, the client's own delays made
        // the service times look like queueing: "the round trip at 0 ms or below", or a filled window), is
        // measured again, up to 3 times, and the last one is judged (its server p99 too: one tail of 235 ms for 120 was
        // seen with the suite's other worker and two background builds on the 2 cores, its p50 in range). When all 3 were off and other processes
        // took the CPU during each (the sweep's HostLoad.disturbed: half a core or more to other work, under
        // half a core idle), the host was too busy to measure on, and the test is skipped saying so; off on a
        // host that was not that busy, it fails. (ModelFitTests check the fit itself on reports made in memory.)
        var measured: RunReport
        var attemptFit: APNsLatencyModelFit?
        var refusal = ""
        var attempt = 0
        var disturbed: [String] = []
        repeat {
            attempt += 1
            run.outDirectory = dir.appendingPathComponent("measured-\(attempt)").path
            let host = HostSampler()
            measured = try ReplayRun.execute(run, log: { _ in }).report
            if let load = host.load(), load.disturbed { disturbed.append(load.summary) }
            do {
                attemptFit = try APNsLatencyModelFit.fit(measured)
                print(attemptFit!.table)
            } catch let error as APNsLatencyModelFit.FitError {
                attemptFit = nil
                refusal = error.description
                print("measurement \(attempt): \(refusal)")
            }
        } while attempt < 3 && !(attemptFit.map(Self.servedAsModelled) ?? false)
        let good = attemptFit.map(Self.servedAsModelled) ?? false
        if !good && disturbed.count == attempt {
            throw XCTSkip("the host was too busy to measure on: \(attempt) measurements off or refused, other work beside each ("
                + disturbed.joined(separator: "; ") + "); the last: " + (attemptFit?.table ?? refusal))
        }
        let fit = try XCTUnwrap(attemptFit, refusal)
        // Within 10% below and 25% above: loopback and the simulator's own work add about a millisecond the model
        // does not hold, and the suite's other worker on the same 2 cores only ever adds time (a fitted round trip
        // of 33.2 ms for 30 and a server p50 of 22.1 ms for 20 were seen with it beside).
        XCTAssertTrue((27...37.5).contains(fit.roundTripMillis), "round trip \(fit.roundTripMillis) ms for 30\n" + fit.table)
        XCTAssertTrue(Self.serverP50.contains(fit.serverP50Millis), "server p50 \(fit.serverP50Millis) ms for 20\n" + fit.table)
        XCTAssertTrue(Self.serverP99.contains(fit.serverP99Millis), "server p99 \(fit.serverP99Millis) ms for 120\n" + fit.table)
        XCTAssertEqual(fit.serviceUnavailableShare, 0.02, accuracy: 0.01, fit.table)
        XCTAssertEqual(fit.tooManyRequestsShare, 0.01, accuracy: 0.01, fit.table)
        let modelFile = dir.appendingPathComponent("model.yaml").path
        try fit.file(report: measured, reportPath: run.outDirectory + "/report.json").write(toFile: modelFile, atomically: true, encoding: .utf8)

        // The knee of a small window (1 connection x 8 streams: about 8 / 55 ms ≈ 145/s) against the chosen
        // model and against the fitted one, and what limited it when a disturbed host did.
        func knee(_ simulator: String, model: String?) throws -> (rate: Double, disturbed: String?) {
            var sweep = RateSweep.Request(profilePath: try profile(dir, simulator: simulator, connections: 1, streams: 8), low: 50, high: 400)
            sweep.overrides.apnsModel = model
            sweep.overrides.sloMinDelivered = 0.9
            // 429s hold their token for a back-off, which the corrected p99 counts: the knee is the window's.
            sweep.overrides.sloP99 = .milliseconds(10_000)
            sweep.stepSeconds = 3
            sweep.cooldownSeconds = 0
            // The search's default: its last bracket is within 5%, a third of the 15% the knees may differ by.
            sweep.precision = 0.05
            sweep.repeats = 0
            sweep.remeasureDisturbed = false
            sweep.outDirectory = dir.appendingPathComponent("sweep-\(model == nil ? "chosen" : "fitted")").path
            let outcome = try RateSweep.execute(sweep) { _ in }
            print(RateSweep.markdown(outcome))
            // A model without a capacity at a small window: the client's window is the limit, named with its
            // ceiling (8 ÷ about 55 ms) and the setting to raise.
            let limit = try XCTUnwrap(outcome.kneeLimit?.limiter, RateSweep.markdown(outcome))
            if limit.kind != .undecided {
                XCTAssertEqual(limit.kind, .clientWindow, RateSweep.markdown(outcome))
                XCTAssertEqual(try XCTUnwrap(limit.ceiling), 8 / 0.055, accuracy: 8 / 0.055 * 0.25, limit.line)
                XCTAssertTrue(limit.fix?.contains("--streams (now 8)") ?? false, limit.line)
            }
            return (try XCTUnwrap(outcome.knee, RateSweep.markdown(outcome)), limit.kind == .undecided ? limit.line : nil)
        }
        let (original, originalDisturbed) = try knee(chosen, model: nil)
        let (fitted, fittedDisturbed) = try knee("  fast: false\n", model: modelFile)
        print("knee: chosen model \(original)/s, fitted model \(fitted)/s")
        // A knee that a step failed by a disturbed host decided is the host's, not the model's (with other work
        // taking 1.9 of the 2 cores through every step, 90/s against the fitted model's 74/s was seen): knees
        // further apart than allowed are then not judged, and the test says so.
        if abs(fitted - original) > original * 0.15, let why = originalDisturbed ?? fittedDisturbed {
            throw XCTSkip("the knees (chosen model \(original)/s, fitted \(fitted)/s) are not compared: \(why)")
        }
        // Two sweeps, each a search over 3 s steps on a shared machine: their knees differ by a few percent
        // between runs of one model (131 to 137/s measured), and each search stops within its 5% precision,
        // so the check allows 15%. A fit that missed the
        // round trip by half would move the knee by about a third.
        XCTAssertEqual(fitted, original, accuracy: original * 0.15)
    }
}
