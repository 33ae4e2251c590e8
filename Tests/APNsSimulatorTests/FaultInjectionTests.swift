import APNsCore
@testable import APNsSimulator
import XCTest

final class FaultInjectionTests: XCTestCase {
    /// Statuses of `n` pushes on one connection of a fresh simulator.
    func statuses(seed: UInt64, n: Int = 40) throws -> [Int] {
        let h = try SimulatorHarness { c in
            c.seed = seed
            c.faults.requestFaults[.internalServerError] = 0.25
            c.faults.requestFaults[.serviceUnavailable] = 0.25
        }
        let c = try h.client()
        return try (0..<n).map { _ in try h.push(c, h.headers()).status }
    }

    func testFaultsRepeatWithTheSameSeed() throws {
        let a = try statuses(seed: 42), b = try statuses(seed: 42), other = try statuses(seed: 43)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, other)
        XCTAssertTrue(a.contains(500) && a.contains(503) && a.contains(200), "\(a)")
    }

    func testLognormalLatencyHitsItsMedianAndP99() {
        var random = SplitMix64(seed: 1)
        let latency = FaultInjection.Latency.lognormal(p50Milliseconds: 40, p99Milliseconds: 200)
        let samples = (0..<100_000).map { _ in latency.sample(&random) }.sorted()
        XCTAssertEqual(samples[50_000], 40, accuracy: 1.5)
        XCTAssertEqual(samples[99_000], 200, accuracy: 12)
        let uniform = FaultInjection.Latency.uniform(minMilliseconds: 2, maxMilliseconds: 4)
        let u = (0..<1000).map { _ in uniform.sample(&random) }
        XCTAssertTrue(u.allSatisfy { (2..<4).contains($0) })
        XCTAssertEqual(FaultInjection.Latency.fixed(milliseconds: 7).sample(&random), 7)
    }

    func testDelayedLatencyStillAnswersEveryStream() throws {
        let h = try SimulatorHarness { $0.faults.latency = .uniform(minMilliseconds: 1, maxMilliseconds: 20) }
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.headers()))
        c.wait("raised limit") { _ in c.advertisedLimits.count == 2 }
        let ids = try (0..<20).map { _ in try c.send(h.headers(), body: SimulatorHarness.alert) }
        for id in ids { XCTAssertAccepted(try XCTUnwrap(c.response(id))) }
    }

    func testDelayedSettingsArriveAndTheConnectionWorks() throws {
        let h = try SimulatorHarness { $0.faults.settingsDelayMilliseconds = 50 }
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.headers()))
        XCTAssertEqual(c.advertisedLimits.first, 1)
    }
}
