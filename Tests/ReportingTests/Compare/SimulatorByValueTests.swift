import APNsCore
import XCTest
@testable import Reporting

/// Reports carry the simulator's configuration by value (`configuration.simulator.effective`): two simulators
/// that differ in any key are refused, naming each key, unless `--differ-on` names it; a report without it
/// cannot be shown to match one with it.
final class SimulatorByValueTests: XCTestCase {
    static let effective = ["faults.latency.fixed_ms": "20", "seed": "0", "devices.file": "none", "device": "off"]

    func run(_ path: String, _ effective: [String: String]?) -> LoadedReport {
        CompareFixtures.run(path) { $0.configuration.simulator.effective = effective }
    }

    func testASimulatorFourTimesSlowerIsRefusedNamingTheKey() {
        var slower = Self.effective
        slower["faults.latency.fixed_ms"] = "80"
        slower["seed"] = "7"
        let r = CompareFixtures.compare([run("a/report.json", Self.effective)], [run("b/report.json", slower)])
        XCTAssertEqual(r.verdict, .incomparable)
        XCTAssertEqual(r.refusals.map(\.description), [
            "configuration.simulator.effective.faults.latency.fixed_ms: 20 vs 80 (baseline vs new)",
            "configuration.simulator.effective.seed: 0 vs 7 (baseline vs new)",
        ])
    }

    func testDifferOnLetsTheModelDiffer() {
        var slower = Self.effective
        slower["faults.latency.fixed_ms"] = "80"
        var options = Comparison.Options()
        options.differOn = try! DifferOn.fields("model")
        let r = CompareFixtures.compare([run("a/report.json", Self.effective)], [run("b/report.json", slower)], options: options)
        XCTAssertNotEqual(r.verdict, .incomparable)
        XCTAssertEqual(r.varied?.map(\.description), ["configuration.simulator.effective.faults.latency.fixed_ms: 20 vs 80 (baseline vs new)"])
        options.differOn = try! DifferOn.fields("configuration.simulator.effective.faults.latency.fixed_ms")
        XCTAssertNotEqual(CompareFixtures.compare([run("a/report.json", Self.effective)], [run("b/report.json", slower)], options: options).verdict,
                          .incomparable)
    }

    func testAReportWithoutItAgainstOneWithItIsRefusedOnce() {
        let r = CompareFixtures.compare([run("a/report.json", nil)], [run("b/report.json", Self.effective)])
        XCTAssertEqual(r.verdict, .incomparable)
        XCTAssertEqual(r.refusals.map(\.description), [
            "configuration.simulator.effective: not recorded (a report written before reports carried it, or a run against a simulator in "
                + "another process) vs recorded by value (baseline vs new)",
        ])
    }

    func testReportsWithoutItAreComparedWithAWarning() {
        let r = CompareFixtures.compare([run("a/report.json", nil)], [run("b/report.json", nil)])
        XCTAssertEqual(r.verdict, .noRegression)
        XCTAssertTrue(r.warnings.contains("no report records the simulator's configuration by value (configuration.simulator.effective): "
            + "whether both sides ran against the same simulator was not checked"), "\(r.warnings)")
        let same = CompareFixtures.compare([run("a/report.json", Self.effective)], [run("b/report.json", Self.effective)])
        XCTAssertEqual(same.verdict, .noRegression)
        XCTAssertFalse(same.warnings.contains { $0.hasPrefix("no report records the simulator") }, "\(same.warnings)")
    }
}
