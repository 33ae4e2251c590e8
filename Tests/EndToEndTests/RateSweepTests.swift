import APNsCore
import Foundation
import Harness
import Reporting
import TestSupport
import XCTest

/// `apnsbench sweep` end to end against the embedded simulator with a capacity model whose knee is known:
/// one connection served at C requests a second, answers paced evenly (the pacer) and served one at a
/// time, so below C nothing queues and above it the queue grows by (R − C) a second. The knee is C.
final class RateSweepTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testTheKneeIsTheModelsCapacityAndTheFirstFailureIsNamed() throws {
        let dir = try ScratchFolder.make("sweep")
        defer { ScratchFolder.remove(dir) }
        let profiles = Self.repo.appendingPathComponent("profiles").path
        let capacity = 100.0
        let profile = try String(contentsOfFile: profiles + "/order-changes.yaml", encoding: .utf8)
            .replacingOccurrences(of: "stream: streams/", with: "stream: \(profiles)/streams/")
            .replacingOccurrences(of: "dead_tokens: streams/", with: "dead_tokens: \(profiles)/streams/")
            .replacingOccurrences(of: "recipe: recipes/", with: "recipe: \(profiles)/recipes/")
            .replacingOccurrences(of: "activity_model: models/", with: "activity_model: \(profiles)/models/")
            + "\nsimulator:\n  faults:\n    round_trip: 5ms\n    capacity: { per_connection_per_second: \(Int(capacity)) }\n"
        let path = dir.appendingPathComponent("sweep.yaml").path
        try profile.write(toFile: path, atomically: true, encoding: .utf8)

        var request = RateSweep.Request(profilePath: path, low: 25, high: 400)
        request.overrides.connections = 1
        request.stepSeconds = 4
        request.cooldownSeconds = 0
        // One repeat of each deciding rate (two would add another 8 s to the suite).
        request.repeats = 1
        // The suite's other workers share the cores: a re-measurement of every undecided step would double
        // the time, and the knee is checked against the model anyway.
        request.remeasureDisturbed = false
        request.outDirectory = dir.appendingPathComponent("out").path
        let outcome = try RateSweep.execute(request) { _ in }

        // A knee out of the model's range that a busy host decided is the host's, not the model's: when the lowest
        // rate that failed above it (or, with no knee, the lowest step) failed while other work left the host under
        // half a core idle, the test says so and is skipped (with other builds taking 1.9 of the 2 cores, 50/s
        // failed, and once 100/s, for a knee of 50/s). A knee in range, or one a quiet step decided, is judged.
        let failedAbove = outcome.steps.filter { !$0.passed && ($0.result.scheduledRate ?? 0) > (outcome.knee ?? 0) }
        let deciding = failedAbove.compactMap { $0.result.scheduledRate }.min()
        let inRange = outcome.knee.map { (capacity * 0.9...capacity * 1.05).contains($0) } ?? false
        if !inRange, failedAbove.contains(where: { $0.result.scheduledRate == deciding && $0.result.host?.disturbed == true }) {
            throw XCTSkip("the knee (\(outcome.knee.map { "\($0)/s" } ?? "none")) is not judged: the rate above it failed on a busy host\n"
                + RateSweep.markdown(outcome))
        }
        let knee = try XCTUnwrap(outcome.knee, RateSweep.markdown(outcome))
        // At most 5% over the capacity; at most 10% under it: a rate at the capacity itself passes or fails by
        // chance, and when its repeat fails the knee is the next rate that passes reliably (94/s seen once).
        XCTAssertLessThanOrEqual(knee, capacity * 1.05, RateSweep.markdown(outcome))
        XCTAssertGreaterThanOrEqual(knee, capacity * 0.9, RateSweep.markdown(outcome))
        // The knee and the failing rate above it were repeated after the search, and the bracket says how they fared.
        let verdict = try XCTUnwrap(outcome.verdict)
        XCTAssertEqual(verdict.kneeRepeats, 1, RateSweep.markdown(outcome))
        XCTAssertEqual(verdict.kneeRepeatsPassed, 1)
        XCTAssertGreaterThanOrEqual(verdict.aboveRepeats, 1)
        XCTAssertTrue(outcome.steps.contains { $0.purpose == .repeated && $0.result.scheduledRate == verdict.knee })
        XCTAssertTrue(RateSweep.markdown(outcome).contains("between "), RateSweep.markdown(outcome))
        let firstFailure = try XCTUnwrap(outcome.steps.first { !$0.passed })
        XCTAssertFalse(firstFailure.failures.isEmpty)
        XCTAssertTrue(firstFailure.failures.allSatisfy { $0.contains("p99") || $0.contains("p50") || $0.contains("window") }, "\(firstFailure.failures)")
        for step in outcome.steps {
            XCTAssertTrue(FileManager.default.fileExists(atPath: step.directory + "/report.json"), step.directory)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: request.outDirectory + "/sweep.md"))
        XCTAssertNil(outcome.ceiling, "the window, not the client, held the overloaded steps back")
        // A model with a capacity is the target's limit: its service time rises with the offered rate.
        let limit = try XCTUnwrap(outcome.kneeLimit?.limiter, RateSweep.markdown(outcome))
        let limitStep = try XCTUnwrap(outcome.steps.first { $0.index == outcome.kneeLimit?.step })
        if limit.kind == .undecided {
            // Only when every failure at that rate was measured on a host short of CPU.
            XCTAssertEqual(limitStep.result.host?.short, true)
        } else {
            XCTAssertEqual(limit.kind, .target, RateSweep.markdown(outcome))
        }
    }
}
