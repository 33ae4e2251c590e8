import APNsCore
import Foundation
import Harness
import Reporting
import TestSupport
import XCTest

/// A profile's `simulator:` section end to end: the shipped leave-requests recording replayed against the
/// embedded simulator under the faults the section names, through the real engine, with the report
/// recording the section and counts that still add up.
final class FaultsInRunsTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func profile(_ section: String, in dir: URL) throws -> String {
        let shipped = try String(contentsOf: Self.repo.appendingPathComponent("profiles/leave-requests.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "stream: streams/", with: "stream: \(Self.repo.path)/profiles/streams/")
            .replacingOccurrences(of: "recipe: recipes/", with: "recipe: \(Self.repo.path)/profiles/recipes/")
            .replacingOccurrences(of: "activity_model: models/", with: "activity_model: \(Self.repo.path)/profiles/models/")
        let path = dir.appendingPathComponent("faults.yaml").path
        try (shipped + "\nretry_backoff: 10ms\n" + section).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testTheProfilesFaultsReachTheEmbeddedSimulatorAndTheReport() throws {
        let dir = try ScratchFolder.make("faults")
        defer { ScratchFolder.remove(dir) }
        var request = RunRequest(profilePath: try profile("""
            simulator:
              seed: 3
              faults:
                service_unavailable_fraction: 0.1
                goaway_after_streams: 150
                latency_spike: { fraction: 0.05, by: 20ms }
            """, in: dir))
        request.outDirectory = dir.appendingPathComponent("report").path
        let report = try ReplayRun.execute(request, log: { _ in }).report

        let p = report.pushes
        XCTAssertEqual(report.violations(), [])
        XCTAssertEqual(p.delivered + (p.notSent["no_token"] ?? 0), p.planned, "every 503 and GOAWAY was retried until delivered")
        let simulator = try XCTUnwrap(report.simulator)
        let answered503 = simulator["rejected_ServiceUnavailable", default: 0]
        XCTAssertGreaterThan(answered503, 20, "the section's 503 share reached the simulator: \(simulator)")
        XCTAssertGreaterThanOrEqual(simulator["goaway_Shutdown", default: 0], 2)
        XCTAssertEqual(report.engine.retries["ServiceUnavailable"], answered503, "each 503 resent once, no more")
        XCTAssertEqual(report.engine.sent, p.planned - (p.notSent["no_token"] ?? 0) + report.engine.retriesTotal)
        // The section is part of the configuration the report records (and compare checks).
        let settings = try XCTUnwrap(report.configuration.simulator.settings)
        XCTAssertEqual(settings["faults"]?["service_unavailable_fraction"], .double(0.1))
        let loaded = try RunReport.load(from: dir.appendingPathComponent("report/report.json").path)
        XCTAssertEqual(loaded.configuration, report.configuration)
        XCTAssertEqual(report.openDescriptors?.leaked, 0, "\(String(describing: report.openDescriptors))")
    }

    func testABadSectionFailsBeforeTheRunNamingTheProfileLine() throws {
        let dir = try ScratchFolder.make("faults")
        defer { ScratchFolder.remove(dir) }
        let path = try profile("simulator:\n  faults:\n    service_unavailable: 0.1\n", in: dir)
        var request = RunRequest(profilePath: path)
        request.outDirectory = dir.appendingPathComponent("report").path
        XCTAssertThrowsError(try ReplayRun.execute(request, log: { _ in })) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(path) && text.contains("simulator.faults.service_unavailable"), text)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("report/report.json").path), "nothing ran")
    }
}
