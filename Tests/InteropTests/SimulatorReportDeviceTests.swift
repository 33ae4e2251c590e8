import Foundation
import TestSupport
import XCTest

/// `simulate --report` with a device model: the pushes it accepted from a sender that is not apnsbench, as the
/// devices would have them, on the wall clock of their arrival.
extension SimulatorReportTests {
    /// The Python sender's 300 pushes (each to its own token): 147 alerts at priority 5 and 144 Live Activity
    /// updates at priority 10 are accepted; every accepted push has one device outcome, the updates shown at
    /// once and the alerts at a later opportunistic wake.
    func testTheDeviceSectionOfASendersPushes() throws {
        let probe = try runChild("/usr/bin/env", ["python3", "-c", "import h2"])
        guard probe.status == 0 else { throw InteropError("the Python package h2 is not installed: run scripts/install-deps.sh --test") }
        let dir = try ScratchFolder.make("simreport-device", removedBy: addTeardownBlock)
        let config = try configuration(in: dir, pushes: 300, deadEvery: 50)
        try (String(contentsOfFile: config, encoding: .utf8) + "device: {}\n").write(toFile: config, atomically: true, encoding: .utf8)
        let report = try receive(into: dir.appendingPathComponent("r").path, config: config, h2c: true) { try python($0, pushes: 300, planted: false) }
        let pushes = try XCTUnwrap(report["pushes"] as? [String: Any])
        let device = try XCTUnwrap(report["device"] as? [String: Any], "\(report.keys)")
        XCTAssertEqual(device["pushes"] as? Int, pushes["delivered"] as? Int)
        XCTAssertEqual(device["pushes"] as? Int, 291)
        let outcomes = try XCTUnwrap(device["outcomes"] as? [String: Int])
        XCTAssertEqual(outcomes.values.reduce(0, +), 291, "\(outcomes)")
        let byPriority = try XCTUnwrap((device["timeToDevice"] as? [String: Any])?["byPriority"] as? [String: [String: Any]])
        XCTAssertEqual(byPriority["10"]?["count"] as? Int, 144)
        XCTAssertEqual(byPriority["5"]?["count"] as? Int, 147)
        XCTAssertEqual(byPriority["10"]?["max"] as? Int, 0, "priority 10 is shown at once")
        XCTAssertGreaterThan(byPriority["5"]?["p50"] as? Int ?? 0, 1_000, "priority 5 waits for a wake")
        let summary = try String(contentsOfFile: dir.appendingPathComponent("r/summary.md").path, encoding: .utf8)
        XCTAssertTrue(summary.contains("## On the device"))
        // Counted on the wall clock from each push's arrival: the sender's pace changes it, and the report says so.
        XCTAssertTrue(summary.contains("What the devices did with the 291 pushes APNs accepted, modelled in wall-clock time as the pushes arrived "
            + "(the sender's pace changes it; the model's numbers are assumptions where Apple publishes none, see docs/simulator.md)."), summary)
        XCTAssertTrue(summary.contains("| time to device (from arrival at the simulator) | shown | p50 | p90 | p99 | max |"), summary)
    }
}
