import APNsCore
import APNsSimulator
import Foundation
import Harness
import Reporting
import TestSupport
import XCTest

/// The model file `model fit` writes: its `simulator:` section is the fit in the simulator's keys, written
/// from the simulator's table, and the simulator's reader reads it back to the fit.
final class ModelFitFileTests: XCTestCase {
    /// A fit with every share and a GOAWAY count (a share that rounds to 0 is still written, as the run saw it).
    func fit() throws -> APNsLatencyModelFit {
        let json = """
            {"serviceP10Millis": 21, "serviceP50Millis": 25.5, "serviceP99Millis": 61, "roundTripMillis": 20.12345,
             "serverP50Millis": 5.0004, "serverP99Millis": 40.5, "requests": 20500, "serviceUnavailableShare": 0.0123456,
             "tooManyRequestsShare": 0.000004, "connectionResetShare": 0.0000123, "goAwayAfterRequests": 500, "warnings": []}
            """
        return try JSONDecoder().decode(APNsLatencyModelFit.self, from: Data(json.utf8))
    }

    func testTheSectionIsTheFitInTheSimulatorsKeys() throws {
        XCTAssertEqual(try fit().settings, .object(["faults": .object([
            "round_trip": .string("20.123ms"),
            "latency": .object(["lognormal_ms": .object(["p50": .double(5), "p99": .double(40.5)])]),
            "service_unavailable_fraction": .double(0.01235),
            "too_many_requests_fraction": .double(0),
            "connection_reset_fraction": .double(0.000012),
            "goaway_after_streams": .int(500),
        ])]))
    }

    func testTheSimulatorReadsTheFileBackToTheFit() throws {
        let report = try RunReport.load(from: RepoFiles.path("reports/baselines/ci-validating/run-1/report.json"))
        let text = try fit().file(report: report, reportPath: "reports/sandbox/report.json")
        XCTAssertTrue(text.contains("source:\n  report: \"reports/sandbox/report.json\""), text)
        XCTAssertTrue(text.contains("\nsimulator:\n  faults:\n    connection_reset_fraction: "), text)
        let section = try XCTUnwrap(text.components(separatedBy: "\nsimulator:\n").last)
        var c = SimulatorConfiguration()
        try SimulatorConfigFile.apply(yaml: section.replacingOccurrences(of: "\n  ", with: "\n").dropFirst(2).description, file: "model.yaml", to: &c)
        XCTAssertEqual(c.faults.roundTripMilliseconds, 20.123)
        XCTAssertEqual(c.faults.latency, .lognormal(p50Milliseconds: 5, p99Milliseconds: 40.5))
        XCTAssertEqual(c.faults.requestFaults[.serviceUnavailable], 0.01235)
        XCTAssertEqual(c.faults.requestFaults[.connectionReset], 0.000012)
        XCTAssertEqual(c.faults.goAwayAfterStreams, 500)
    }
}
