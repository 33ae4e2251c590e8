import APNsCore
import Foundation
import TestSupport
import XCTest
@testable import APNsEngine

/// A stop requested from another thread (a signal): nothing new is sent, what is in flight gets the drain,
/// the rest counts as not sent `interrupted`, and every push still ends in exactly one class.
final class RunStopTests: XCTestCase {
    func testTheFirstRequestWinsAndHandlersRunOnce() {
        let stop = RunStop()
        var woken = 0
        stop.onRequest { woken += 1 }
        XCTAssertFalse(stop.isRequested)
        stop.request(.interrupted, drainSeconds: 2, now: 1_000)
        stop.request(.runStopped, drainSeconds: 9, now: 5_000)
        XCTAssertTrue(stop.isRequested)
        XCTAssertEqual(stop.cause, .interrupted)
        XCTAssertEqual(stop.drainDeadlineNanos, 2_000_001_000)
        XCTAssertEqual(woken, 1)
        stop.onRequest { woken += 10 }
        XCTAssertEqual(woken, 11, "a handler registered after the request runs at once")
    }

    /// Runs `pushes` through a pool against a simulator answering after `latencyMs`, requests a stop once
    /// `stopAfter` pushes were sent, with `drain` seconds.
    func run(pushes: Int, latencyMs: Int, stopAfter: Int, drain: Double) throws -> (RecordingSink, [RecordingSink]) {
        let fixture = try SimulatorFixture { $0.faults.latency = .fixed(milliseconds: Double(latencyMs)) }
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(connections: 1, streams: 20)
        config.progressInterval = 0.1
        let pool = try WorkerPool(workers: 1, configuration: config) { try ProviderTokenCache(key: fixture.key) }
        let stop = RunStop()
        pool.stop = stop
        let start = MonotonicTime.now()
        // One push every 2 ms, so that the stop comes while the stream is far from done.
        let source = FakePushSource.sequenced(tokens: testTokens(10), perToken: pushes / 10) { start + UInt64($0) * 2_000_000 }
        let main = RecordingSink(), workers = [RecordingSink()]
        pool.onProgress = { (p: PoolProgress) in if p.counters.sent >= stopAfter { stop.request(.interrupted, drainSeconds: drain) } }
        _ = try pool.run(source: source, sink: main, workerSinks: workers)
        return (main, workers)
    }

    func testInFlightPushesAreAnsweredWithinTheDrainAndTheRestAreInterrupted() throws {
        let (main, workers) = try run(pushes: 1000, latencyMs: 50, stopAfter: 100, drain: 10)
        let all = main.entries + workers[0].entries
        XCTAssertEqual(all.count, 1000, "every planned push ends in exactly one class")
        let delivered = all.filter { $0.outcome == .delivered }.count
        let interrupted = all.filter { $0.outcome == .notSent(.interrupted) }.count
        XCTAssertEqual(delivered + interrupted, 1000, "delivered or interrupted, nothing else")
        XCTAssertGreaterThanOrEqual(delivered, 100, "what was sent before the stop was drained and answered")
        XCTAssertGreaterThan(interrupted, 0)
        XCTAssertTrue(all.filter { $0.outcome == .notSent(.interrupted) }.allSatisfy { $0.sent == 0 },
                      "a long drain answers everything that was sent")
    }

    func testWhatIsStillInFlightWhenTheDrainRunsOutIsGivenUp() throws {
        // Answers take 3 s, the drain is 0.2 s: what was in flight is given up, counted once, as interrupted.
        // (The first push is answered: the engine opens its window only after the first answer.)
        let (main, workers) = try run(pushes: 200, latencyMs: 3_000, stopAfter: 15, drain: 0.2)
        let all = main.entries + workers[0].entries
        XCTAssertEqual(all.count, 200)
        let interrupted = all.filter { $0.outcome == .notSent(.interrupted) }
        XCTAssertEqual(interrupted.count + all.filter { $0.outcome == .delivered }.count, 200)
        XCTAssertGreaterThanOrEqual(interrupted.filter { $0.sent != 0 }.count, 14, "the ones given up in flight had been sent")
    }
}

/// Fail fast: a target that never answered is given up after the fail-fast window, naming it and why.
final class FailFastTests: XCTestCase {
    func testATargetThatNeverAnswersEndsTheRunNamingHostPortAndCause() throws {
        var config = EngineConfiguration(baseURL: "http://127.0.0.1:1", topic: "com.example.app", pushType: .alert)
        config.failFast = .seconds(1)
        let key = SigningKey(privateKey: .init(), keyID: "KEYID00001", teamID: "TEAMID0001")
        let engine = try CurlEngine(configuration: config, tokens: ProviderTokenCache(key: key))
        let sink = RecordingSink()
        _ = try engine.runOnOwnThread(source: FakePushSource.repeating(50, body: smallPayload, tokens: [goodToken]), sink: sink)
        XCTAssertEqual(sink.entries.count, 50, "every push ends in exactly one class")
        XCTAssertTrue(sink.entries.allSatisfy {
            if case .failed = $0.outcome { return true }
            return $0.outcome == .notSent(.targetUnreachable)
        }, "\(Set(sink.outcomes.map { "\($0)" }))")
        XCTAssertTrue(engine.stop.isRequested)
        XCTAssertEqual(engine.stop.cause, .targetUnreachable)
        let reason = try XCTUnwrap(engine.stop.reason)
        XCTAssertTrue(reason.hasPrefix("cannot reach 127.0.0.1 port 1: "), reason)
        XCTAssertTrue(reason.contains("curl error 7"), reason)
        XCTAssertTrue(reason.contains("in 1 s of trying"), reason)
    }
}
