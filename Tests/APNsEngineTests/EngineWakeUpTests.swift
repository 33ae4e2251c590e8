import APNsCore
@testable import APNsEngine
import APNsSimulator
import TestSupport
import XCTest

/// The engine sleeps in proportion to its work: counted in wake-ups (returns from its wait), never in time.
final class EngineWakeUpTests: XCTestCase {
    /// A push costs a wake at its due time and one or a few for its answer (the server's frames may
    /// arrive in several reads when the machine is busy). The bound leaves room for that.
    static let wakeUpsPerPush = 8
    /// A wait that ends before the idle cap (100 ms) with nothing ready (no socket, no timerfd, no wake)
    /// is libcurl's own timer, or a spin: the old wait, computed in whole milliseconds and truncated,
    /// polled with timeout 0 over and over through the last millisecond before every push, an empty
    /// wake-up each time (many a push). A handful covers libcurl's timers.
    static let emptyWakeUps = 5

    /// The counts that show a spin: wake-ups, waits that found nothing, and loop turns (a loop that goes
    /// round without waiting at all would show only there).
    func assertSleepsInProportion(_ engine: CurlEngine, _ stats: EngineCounters, pushes: Int, _ what: String,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThan(stats.wakeUps, 0, "\(what): wake-ups are counted", file: file, line: line)
        XCTAssertLessThanOrEqual(stats.wakeUps, pushes * Self.wakeUpsPerPush,
                                 "\(what): \(stats.wakeUps) wake-ups for \(pushes) pushes", file: file, line: line)
        XCTAssertLessThanOrEqual(engine.emptyWakeUps, Self.emptyWakeUps,
                                 "\(what): \(engine.emptyWakeUps) waits ended early with nothing ready: the engine spins", file: file, line: line)
        // A turn either waits, or refills slots that just completed, or sends a push that just fell due.
        XCTAssertLessThanOrEqual(engine.loopTurns, pushes * (Self.wakeUpsPerPush + 2),
                                 "\(what): \(engine.loopTurns) loop turns for \(pushes) pushes", file: file, line: line)
    }

    func testPacedPushesWakeTheEngineAFewTimesEachNotContinuously() throws {
        // 50 pushes 20 ms apart: the engine sleeps between them, on every drive.
        for drive in CurlDrive.allCases {
            let fixture = try SimulatorFixture()
            defer { fixture.simulator.stop() }
            let engine = try CurlEngine(configuration: fixture.engineConfiguration(), tokens: ProviderTokenCache(key: fixture.key), drive: drive)
            let sink = RecordingSink()
            let stats = try engine.runOnOwnThread(source: FakePushSource.spaced(50, gapSeconds: 0.02, token: goodToken, body: smallPayload), sink: sink)
            XCTAssertEqual(sink.delivered, 50, "\(drive)")
            XCTAssertEqual(stats.sent, 50)
            assertSleepsInProportion(engine, stats, pushes: 50, "\(drive), 50 pushes 20 ms apart")
        }
    }

    func testPushesDueLessThanAMillisecondApartDoNotSpin() throws {
        // The truncation case itself: every push is due in under 1 ms from the previous one.
        for drive in CurlDrive.allCases {
            let fixture = try SimulatorFixture()
            defer { fixture.simulator.stop() }
            let engine = try CurlEngine(configuration: fixture.engineConfiguration(), tokens: ProviderTokenCache(key: fixture.key), drive: drive)
            let sink = RecordingSink()
            let stats = try engine.runOnOwnThread(source: FakePushSource.spaced(200, gapSeconds: 0.0004, token: goodToken, body: smallPayload), sink: sink)
            XCTAssertEqual(sink.delivered, 200, "\(drive)")
            assertSleepsInProportion(engine, stats, pushes: 200, "\(drive), 200 pushes 0.4 ms apart")
        }
    }

    func testPushesInFlightOnASlowServerCostFewWakeUps() throws {
        // 100 pushes in flight for 30 ms each: the engine waits on the sockets, not on a clock.
        for drive in CurlDrive.allCases {
            let fixture = try SimulatorFixture { $0.faults.latency = .fixed(milliseconds: 30) }
            defer { fixture.simulator.stop() }
            let engine = try CurlEngine(configuration: fixture.engineConfiguration(streams: 100), tokens: ProviderTokenCache(key: fixture.key), drive: drive)
            let sink = RecordingSink()
            let items = (0..<500).map { _ in FakePushSource.Item(token: goodToken, body: smallPayload) }
            let stats = try engine.runOnOwnThread(source: FakePushSource.list(items), sink: sink)
            XCTAssertEqual(sink.delivered, 500, "\(drive)")
            assertSleepsInProportion(engine, stats, pushes: 500, "\(drive), 500 pushes at 30 ms latency")
        }
    }

    func testCountersWrittenBeforeWakeUpsDecodeWithZero() throws {
        // A report.json from before the field (a committed baseline, a shard) still reads.
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(EngineCounters())) as? [String: Any])
        XCTAssertNotNil(json.removeValue(forKey: "wakeUps"))
        json["sent"] = 7
        let old = try JSONDecoder().decode(EngineCounters.self, from: JSONSerialization.data(withJSONObject: json))
        XCTAssertEqual(old.wakeUps, 0)
        XCTAssertEqual(old.sent, 7)
    }

    func testPushesArrivingWhileTheEngineWaitsAreSentOnBothDrives() throws {
        // A worker's engine waits with nothing due until its producer wakes it (`wake()`: curl_multi_wakeup
        // on the poll drive, an eventfd on the socket-action drive).
        for drive in CurlDrive.allCases {
            let fixture = try SimulatorFixture()
            defer { fixture.simulator.stop() }
            let engine = try CurlEngine(configuration: fixture.engineConfiguration(), tokens: ProviderTokenCache(key: fixture.key), drive: drive)
            XCTAssertEqual(engine.drive, drive)
            let queue = PushQueue(capacity: 4)
            queue.wakeConsumer = { [unowned engine] in engine.wake() }
            let producer = Thread {
                var push = OutgoingPush()
                for _ in 0..<3 {
                    usleep(30_000)
                    push.deviceToken = goodToken
                    push.body = smallPayload
                    push.priority = .immediate
                    push.intendedNanos = 0
                    _ = queue.put(&push)
                }
                queue.close()
            }
            producer.start()
            let sink = RecordingSink()
            let stats = try engine.runOnOwnThread(source: QueueSource(queue), sink: sink)
            XCTAssertEqual(sink.delivered, 3, "\(drive)")
            XCTAssertGreaterThan(stats.wakeUps, 0)
        }
    }
}

/// A push source over a `PushQueue`, as a worker's.
private final class QueueSource: PushSource {
    let queue: PushQueue
    init(_ queue: PushQueue) { self.queue = queue }
    func next(into push: inout OutgoingPush) -> PullResult {
        switch queue.poll(into: &push) {
        case .push: return .push
        case .empty: return .idle
        case .ended: return .end
        }
    }
    func abandon() {}
}
