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

    func testTheKneeIsTheModelsCapacityWithin5PercentAndTheFirstFailureIsNamed() throws {
        let dir = try ScratchFolder.make("sweep")
        defer { ScratchFolder.remove(dir) }
        let profiles = Self.repo.appendingPathComponent("profiles").path
        let capacity = 100.0
        let profile = try String(contentsOfFile: profiles + "/order-changes.yaml", encoding: .utf8)
            .replacingOccurrences(of: "stream: streams/", with: "stream: \(profiles)/streams/")
            .replacingOccurrences(of: "dead_tokens: streams/", with: "dead_tokens: \(profiles)/streams/")
            .replacingOccurrences(of: "recipe: recipes/", with: "recipe: \(profiles)/recipes/")
            .replacingOccurrences(of: "activity_model: models/", with: "activity_model: \(profiles)/models/")
            + "\nsimulator:\n  faults:\n    round_trip_ms: 5\n    capacity: { per_connection_per_second: \(Int(capacity)) }\n"
        let path = dir.appendingPathComponent("sweep.yaml").path
        try profile.write(toFile: path, atomically: true, encoding: .utf8)

        var request = RateSweep.Request(profilePath: path, low: 25, high: 400)
        request.overrides.connections = 1
        request.stepSeconds = 4
        request.cooldownSeconds = 0
        request.outDirectory = dir.appendingPathComponent("out").path
        let outcome = try RateSweep.execute(request) { _ in }

        let knee = try XCTUnwrap(outcome.knee, RateSweep.markdown(outcome))
        XCTAssertEqual(knee, capacity, accuracy: capacity * 0.05, RateSweep.markdown(outcome))
        let firstFailure = try XCTUnwrap(outcome.steps.first { !$0.passed })
        XCTAssertFalse(firstFailure.failures.isEmpty)
        XCTAssertTrue(firstFailure.failures.allSatisfy { $0.contains("p99") || $0.contains("p50") || $0.contains("window") }, "\(firstFailure.failures)")
        for step in outcome.steps {
            XCTAssertTrue(FileManager.default.fileExists(atPath: step.directory + "/report.json"), step.directory)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: request.outDirectory + "/sweep.md"))
        XCTAssertNil(outcome.ceiling, "the window, not the client, held the overloaded steps back")
    }
}
