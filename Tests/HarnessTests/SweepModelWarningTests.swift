import APNsCore
@testable import Harness
import TestSupport
import XCTest

/// The sweep's "no APNs model" warning: said when the embedded simulator answers at once, never when a preset,
/// a model file (fitted or written by hand) or the profile's section gives it a latency, round trip or capacity.
final class SweepModelWarningTests: XCTestCase {
    private let warning = "sweep: warning: no APNs model (--apns-model, or the profile's simulator: section): the embedded simulator answers at once, "
        + "so the knee is this machine's loopback, not a path to APNs"

    private func config(model: String?) throws -> RunConfig {
        var run = RunRequest(profilePath: RepoFiles.path("profiles/order-changes.yaml"))
        run.overrides.apnsModel = model
        return try ReplayRun.configuration(run)
    }

    private func modelFile(_ name: String, _ faults: String) throws -> String {
        let dir = try ScratchFolder.make("sweep-model-warning") { addTeardownBlock($0) }
        let path = dir.appendingPathComponent(name).path
        try ("simulator:\n  faults:\n" + faults).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testNoModelIsWarnedOf() throws {
        XCTAssertEqual(RateSweep.modelWarning(try config(model: nil)), warning)
    }

    func testAPresetOrAModelFileIsAModel() throws {
        XCTAssertNil(RateSweep.modelWarning(try config(model: "near")))
        // As `model fit` writes it: a latency and a round trip.
        let fitted = try modelFile("fitted.yaml", "    latency:\n      lognormal_ms: {p50: 5, p99: 40}\n    round_trip_ms: 20\n")
        XCTAssertNil(RateSweep.modelWarning(try config(model: fitted)))
        // Written by hand: a capacity alone still answers as a path would.
        XCTAssertNil(RateSweep.modelWarning(try config(model: try modelFile("capacity.yaml", "    capacity:\n      per_connection_per_second: 300\n"))))
        // A model file of faults that make no path (a share of 503s only) is no APNs model.
        XCTAssertEqual(RateSweep.modelWarning(try config(model: try modelFile("errors.yaml", "    service_unavailable_fraction: 0.01\n"))), warning)
    }
}
