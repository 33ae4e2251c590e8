import Reporting
import XCTest

/// The host's load over a step, from two readings of `/proc/stat`.
final class HostLoadTests: XCTestCase {
    func stat(user: UInt64, nice: UInt64 = 0, system: UInt64, idle: UInt64, iowait: UInt64 = 0, steal: UInt64 = 0) -> String {
        "cpu  \(user) \(nice) \(system) \(idle) \(iowait) 0 0 \(steal) 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 12345\n"
    }

    func testTheCpuLineIsReadAndTheOtherProcessesAreWhatTheRunDidNotUse() throws {
        let a = try XCTUnwrap(HostLoad.Sample(procStat: stat(user: 1000, system: 500, idle: 9000)))
        XCTAssertEqual(a, try XCTUnwrap(HostLoad.Sample(procStat: "cpu  1000 0 500 9000")), "a line without steal has none")
        // 10 s on 2 cores at 100 ticks a second: 1,800 ticks busy, 150 idle, 50 stolen; the run used 12 s of CPU.
        let b = try XCTUnwrap(HostLoad.Sample(procStat: stat(user: 2300, system: 1000, idle: 9100, iowait: 50, steal: 50)))
        let load = HostLoad(from: a, to: b, seconds: 10, ownCPUSeconds: 12, ticksPerSecond: 100)
        XCTAssertEqual(load.ownCores, 1.2, accuracy: 1e-9)
        XCTAssertEqual(load.otherCores, 0.6, accuracy: 1e-9)
        XCTAssertEqual(load.stealCores, 0.05, accuracy: 1e-9)
        XCTAssertEqual(load.idleCores, 0.15, accuracy: 1e-9)
        XCTAssertTrue(load.disturbed)
        XCTAssertNil(HostLoad.Sample(procStat: "intr 1 2 3\n"))
        // The same with 100 of the busy ticks niced: niced work yields, so it is spare, not a disturbance.
        let niced = try XCTUnwrap(HostLoad.Sample(procStat: stat(user: 2200, nice: 100, system: 1000, idle: 9100, iowait: 50, steal: 50)))
        let yielding = HostLoad(from: a, to: niced, seconds: 10, ownCPUSeconds: 12, ticksPerSecond: 100)
        XCTAssertEqual(yielding.otherCores, 0.5, accuracy: 1e-9)
        XCTAssertEqual(yielding.idleCores, 0.25, accuracy: 1e-9)
    }

    func testOtherWorkDisturbsOnlyWhenNoCoreWasLeftIdle() {
        XCTAssertFalse(HostLoad(otherCores: 0.4, stealCores: 0, idleCores: 0, ownCores: 1.6).disturbed)
        XCTAssertTrue(HostLoad(otherCores: 0.4, stealCores: 0.1, idleCores: 0, ownCores: 1.5).disturbed)
        XCTAssertFalse(HostLoad(otherCores: 1.0, stealCores: 0, idleCores: 0.6, ownCores: 0.4).disturbed)
    }

    func testTheProcesssCPUIsSplitIntoTheClientsThreadsAndTheRest() throws {
        let a = try XCTUnwrap(HostLoad.Sample(procStat: stat(user: 1000, system: 500, idle: 9000)))
        let b = try XCTUnwrap(HostLoad.Sample(procStat: stat(user: 2300, system: 1000, idle: 9100, iowait: 50, steal: 50)))
        let load = HostLoad(from: a, to: b, seconds: 10, ownCPUSeconds: 12, ticksPerSecond: 100, clientCPUSeconds: 4.5)
        XCTAssertEqual(try XCTUnwrap(load.clientCores), 0.45, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(load.restCores), 0.75, accuracy: 1e-9)
        XCTAssertTrue(load.short)
        XCTAssertFalse(load.clientTookTheHost, "0.45 cores against 0.75 + 0.6 + 0.05")
        XCTAssertEqual(load.split, "client threads 0.45 cores, the rest of the process (an embedded simulator) 0.75, "
                       + "other processes 0.60, steal 0.05, idle 0.15")
        XCTAssertEqual(HostLoad(otherCores: 0.1, stealCores: 0, idleCores: 0.2, ownCores: 1.7, clientCores: 1.0).clientTookTheHost, true)
        XCTAssertEqual(HostLoad(otherCores: 0.1, stealCores: 0, idleCores: 0.2, ownCores: 1.7).split,
                       "the process 1.70 cores, other processes 0.10, steal 0.00, idle 0.20")
        XCTAssertEqual(HostLoad(otherCores: 1.8, stealCores: 0, idleCores: 0, ownCores: 0.2, clientCores: 0.18).split,
                       "client threads 0.18 cores, other processes 1.80, steal 0.00, idle 0.00", "no simulator in the process: no rest named")
    }
}
