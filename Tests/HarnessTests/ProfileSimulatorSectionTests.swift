import APNsCore
import APNsSimulator
import Foundation
import Harness
import Replay
import TestSupport
import XCTest

/// A profile's `simulator:` section: read by the profile loader as written, kept in the run configuration
/// (so the report records it and compare sees it), checked by the simulator's own reader with the
/// profile's lines, and applied to the embedded simulator.
final class ProfileSimulatorSectionTests: XCTestCase {
    private let base = """
        name: t
        workload: leave-requests
        stream: s.ndjson
        recipe: \(RepoFiles.recipe("leave-requests"))
        bundle_id: com.example.app

        """

    private func write(_ yaml: String) throws -> String {
        let dir = try ScratchFolder.make("profile-sim", removedBy: addTeardownBlock)
        let path = dir.appendingPathComponent("p.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testTheSectionIsKeptAsWrittenAndAppliesToTheSimulator() throws {
        let section = """
            simulator:
              fast: false
              seed: 9
              faults:
                latency: { lognormal_ms: { p50: 40, p99: 200 } }
                service_unavailable_fraction: 0.02
                goaway_after_seconds: 30
                latency_spike: { fraction: 0.01, by: 1500ms }
                stall_fraction: 0.001
                clock_step: { after_seconds: 60, by_seconds: 3700 }
            """
        let path = try write(base + section)
        let config = try ProfileLoader.load(path: path)
        XCTAssertFalse(config.simulator.fast, "fast is the run's own key")
        XCTAssertNil(config.simulator.settings?["fast"])
        XCTAssertEqual(config.simulator.settings?["seed"], .int(9))
        XCTAssertEqual(config.simulator.settings?["faults"]?["service_unavailable_fraction"], .double(0.02))
        XCTAssertNoThrow(try SimulatorConfigFile.check(profile: path))

        // What the report carries reads back to the same value, and applies as the file would.
        let json = try JSONEncoder().encode(config)
        XCTAssertEqual(try JSONDecoder().decode(RunConfig.self, from: json), config)
        var s = SimulatorConfiguration()
        try SimulatorConfigFile.apply(settings: try XCTUnwrap(config.simulator.settings), profile: path, to: &s)
        XCTAssertEqual(s.seed, 9)
        XCTAssertEqual(s.faults.latency, .lognormal(p50Milliseconds: 40, p99Milliseconds: 200))
        XCTAssertEqual(s.faults.requestFaults[.serviceUnavailable], 0.02)
        XCTAssertEqual(s.faults.goAwayAfterSeconds, 30)
        XCTAssertEqual(s.faults.latencySpike?.fraction, 0.01)
        XCTAssertEqual(s.faults.latencySpike?.milliseconds, 1500)
        XCTAssertEqual(s.faults.requestFaults[.stall], 0.001)
        XCTAssertEqual(s.faults.clockStep, .init(afterSeconds: 60, bySeconds: 3700))
    }

    func testAWrongKeyOrValueNamesTheProfileLineAndTheKeyPath() throws {
        let cases: [(String, line: Int, key: String)] = [
            ("simulator:\n  faults:\n    service_unavailable_fractoin: 0.1\n", 8, "simulator.faults.service_unavailable_fractoin"),
            ("simulator:\n  faults:\n    stall_fraction: 2\n", 8, "simulator.faults.stall_fraction"),
            ("simulator:\n  seeds: 1\n", 7, "simulator.seeds"),
            ("simulator:\n  faults: { latency_spike: { fraction: 0.1 } }\n", 7, "simulator.faults.latency_spike"),
        ]
        for (yaml, line, key) in cases {
            let path = try write(base + yaml)
            XCTAssertNoThrow(try ProfileLoader.load(path: path), "the loader keeps the section; the simulator's reader judges it")
            XCTAssertThrowsError(try SimulatorConfigFile.check(profile: path), yaml) { error in
                guard let e = error as? SimulatorConfigError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.file, path)
                XCTAssertEqual(e.line, line, yaml)
                XCTAssertEqual(e.key, key, yaml)
            }
        }
    }

    func testTheSectionMustBeAMappingAndFastABool() throws {
        for yaml in ["simulator: fast\n", "simulator: [1, 2]\n", "simulator: { fast: maybe }\n"] {
            XCTAssertThrowsError(try ProfileLoader.load(path: try write(base + yaml)), yaml) { error in
                XCTAssertTrue("\(error)".contains("'simulator'"), "\(error)")
            }
        }
        // `fast: true` alone is the run's fast mode and leaves no settings.
        let fast = try ProfileLoader.load(path: try write(base + "simulator: { fast: true }\n"))
        XCTAssertTrue(fast.simulator.fast)
        XCTAssertNil(fast.simulator.settings)
    }

    func testTheSectionIsRefusedForARealTarget() throws {
        var config = try ProfileLoader.load(path: try write(base + "simulator: { faults: { service_unavailable_fraction: 0.5 } }\n"))
        config.target = .sandbox
        XCTAssertThrowsError(try config.validate()) { error in
            XCTAssertEqual((error as? RunConfigError)?.key, .simulator)
        }
    }

    func testStallTimeoutRules() throws {
        XCTAssertEqual(try ProfileLoader.load(path: try write(base)).transport.stallLimit, .seconds(10), "on by default, 10 s")
        XCTAssertEqual(try ProfileLoader.load(path: try write(base + "stall_timeout: 0\n")).transport.stallLimit, .seconds(0), "0 turns it off")
        XCTAssertEqual(try ProfileLoader.load(path: try write(base + "stall_timeout: 5s\n")).transport.stallLimit, .seconds(5))
        for bad in ["stall_timeout: 1500ms\n", "stall_timeout: 30s\n", "stall_timeout: 11m\n", "stall_timeout: soon\n"] {
            XCTAssertThrowsError(try ProfileLoader.load(path: try write(base + bad)), bad) { error in
                XCTAssertTrue("\(error)".contains("stall_timeout"), "\(error)")
            }
        }
    }
}

/// The named APNs models: each is valid simulator configuration, and a profile's keys go over it.
final class APNsLatencyModelPresetTests: XCTestCase {
    func testEveryPresetAppliesAndTheSectionGoesOverIt() throws {
        for preset in APNsLatencyModel.presets {
            var s = SimulatorConfiguration()
            XCTAssertNoThrow(try SimulatorConfigFile.apply(settings: preset.settings, profile: "p.yaml", to: &s), preset.name.rawValue)
            XCTAssertNotNil(s.faults.capacity, preset.name.rawValue)
            XCTAssertGreaterThan(s.faults.roundTripMilliseconds, 0, preset.name.rawValue)
        }
        var config = RunConfig(name: "t", profilePath: "p.yaml", workload: .init(name: "leave-requests", stream: "s", recipe: "r.yaml", bundleID: "b"))
        config.simulator.model = "far"
        config.simulator.settings = .object(["faults": .object(["round_trip": .string("90ms"), "stall_fraction": .double(0.01)])])
        var s = SimulatorConfiguration()
        try SimulatorConfigFile.apply(settings: try XCTUnwrap(config.simulator.effectiveSettings), profile: "p.yaml", to: &s)
        XCTAssertEqual(s.faults.roundTripMilliseconds, 90, "the section's key wins")
        XCTAssertEqual(s.faults.requestFaults[.stall], 0.01, "and adds to the model")
        XCTAssertEqual(s.faults.latency, .lognormal(p50Milliseconds: 10, p99Milliseconds: 300), "the model's other keys stay")
        config.simulator.model = "nowhere"
        XCTAssertThrowsError(try config.validate()) { XCTAssertEqual(($0 as? RunConfigError)?.key, .apnsModel) }
    }

    /// A preset's typed values are what the simulator runs with: its keys are written in one place, and a wrong
    /// or missing key would leave the simulator's default.
    func testEachPresetsValuesAreWhatTheSimulatorRuns() throws {
        for preset in APNsLatencyModel.presets {
            var s = SimulatorConfiguration()
            try SimulatorConfigFile.apply(settings: preset.settings, profile: "p.yaml", to: &s)
            let name = preset.name.rawValue
            XCTAssertEqual(s.faults.roundTripMilliseconds, preset.roundTripMillis, name)
            XCTAssertEqual(s.faults.latency, .lognormal(p50Milliseconds: preset.serverTime.p50Millis, p99Milliseconds: preset.serverTime.p99Millis), name)
            let capacity = try XCTUnwrap(s.faults.capacity, name)
            XCTAssertEqual(capacity.perConnectionPerSecond, preset.capacity.perConnectionPerSecond, name)
            XCTAssertEqual(capacity.overloadAfterMilliseconds,
                           preset.capacity.overloadAfterMillis ?? FaultInjection.Capacity(perConnectionPerSecond: 1).overloadAfterMilliseconds, name)
            XCTAssertEqual(capacity.overloadServiceUnavailableFraction, preset.capacity.overload503Fraction ?? 0, name)
            XCTAssertEqual(try SimulatorConfigFile.deprecations(yaml: preset.settings.json, file: "p.yaml"), [], "\(name) writes the current key names")
            XCTAssertEqual(s.faults.requestFaults[.serviceUnavailable], preset.serviceUnavailableFraction ?? 0, name)
            XCTAssertEqual(s.faults.requestFaults.total, preset.serviceUnavailableFraction ?? 0, "\(name): no other fault")
        }
    }

    func testThePresetsSayTheirNumbers() {
        XCTAssertEqual(APNsLatencyModel.presets.map(\.summary), [
            "a provider near an APNs data centre: 20 ms round trip, server time lognormal p50 5 ms / p99 40 ms, 2000 requests/s per connection",
            "a provider far from APNs (the slow regions users report): 180 ms round trip, server time lognormal p50 10 ms / p99 300 ms, "
                + "2000 requests/s per connection",
            "APNs under strain: 20 ms round trip, server time lognormal p50 50 ms / p99 1500 ms, 300 requests/s per connection, "
                + "30% of requests queued past 250 ms shed with 503, 1% 503 besides",
        ])
        XCTAssertEqual(APNsLatencyModel.names, ["near", "far", "overloaded"])
        XCTAssertNil(APNsLatencyModel.named("nowhere"), "a name that is no preset may be a model file")
    }
}
