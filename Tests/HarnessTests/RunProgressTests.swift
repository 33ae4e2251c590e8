import APNsCore
import APNsEngine
import Foundation
import XCTest
@testable import Harness

/// The live progress line: what it shows, how often it prints off a terminal, redrawing on one.
final class RunProgressTests: XCTestCase {
    func config(_ schedule: Schedule = .closedLoop, duration: Double? = nil) -> RunConfig {
        var c = RunConfig(name: "t", profilePath: "p.yaml", workload: .init(name: "order-changes", stream: "s", recipe: "r.yaml", bundleID: "b"))
        c.schedule.mode = schedule
        c.schedule.duration = duration.map(Duration.secondsRounded)
        return c
    }

    func progress(sent: Int, completed: Int, inFlight: Int, delivered: Int, p99: UInt64? = nil) -> PoolProgress {
        var counters = EngineCounters()
        counters.sent = sent
        return PoolProgress(counters: counters, completed: completed, inFlight: inFlight,
                            outcomes: OutcomeProgress(delivered: delivered, rejected: 2, failed: 1, timedOut: 1, lastIntervalP99Micros: p99))
    }

    func testTheLineShowsElapsedShareETARatesInFlightOutcomesAndP99() {
        let sample = RunProgress.Sample(elapsedSeconds: 12, fraction: 0.4, offeredPerSecond: 498.4, achievedPerSecond: 497,
                                        targetPerSecond: 500, inFlight: 12,
                                        outcomes: OutcomeProgress(delivered: 5980, rejected: 3, failed: 1, timedOut: 1, lastIntervalP99Micros: 41_250))
        XCTAssertEqual(sample.line,
                       "    12.0 s   40.0% ETA 18 s  offered 498/s (target 500/s)  achieved 497/s  in flight 12  delivered 5980  rejected 3  failed 2  "
                           + "p99 41.2 ms")
    }

    func testOffATerminalALineEveryFiveSecondsWithRatesOverThem() {
        var out: [String] = []
        let p = RunProgress(mode: .plain, plainEvery: 5) { out.append($0) }
        let s: UInt64 = 1_000_000_000
        p.begin(config(.fixedRate(perSecond: 100), duration: 20), at: 0) { (0, nil) }
        for tick in 1...24 {   // every 0.5 s for 12 s, 100 pushes a second
            let t = UInt64(tick) * s / 2
            p.update(progress(sent: tick * 50, completed: tick * 50 - 10, inFlight: 10, delivered: tick * 50 - 14), at: t)
        }
        p.end()
        XCTAssertEqual(out.count, 2, "at 5 s and 10 s: \(out)")
        XCTAssertTrue(out.allSatisfy { $0.hasSuffix("\n") && !$0.contains("\r") })
        XCTAssertTrue(out[0].contains("25.0% ETA 15 s"), out[0])
        XCTAssertTrue(out[1].contains("offered 100/s (target 100/s)  achieved 100/s  in flight 10"), out[1])
    }

    func testOnATerminalTheLineIsRedrawnInPlaceAndEndedOnce() {
        var out: [String] = []
        let p = RunProgress(mode: .terminal) { out.append($0) }
        p.begin(config(), at: 0) { (250, 1000) }
        p.update(progress(sent: 10, completed: 5, inFlight: 5, delivered: 4), at: 500_000_000)
        p.update(progress(sent: 20, completed: 15, inFlight: 5, delivered: 14), at: 1_000_000_000)
        p.end()
        XCTAssertEqual(out.count, 3)
        XCTAssertTrue(out[0].hasPrefix("\r\u{1B}[2K") && !out[0].hasSuffix("\n"))
        XCTAssertTrue(out[1].contains(" 25.0% ETA 3 s"), "a quarter of the stream read after 1 s: \(out[1])")
        XCTAssertEqual(out[2], "\n")
    }
}
