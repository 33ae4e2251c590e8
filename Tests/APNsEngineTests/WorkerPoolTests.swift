import APNsCore
@testable import APNsEngine
import APNsSimulator
import Foundation
import TestSupport
import XCTest

extension FakePushSource {
    /// The device token of push `seq` of a `sequenced` source.
    static func token(of seq: Int, _ tokens: [String]) -> String { tokens[seq % tokens.count] }
}

/// `count` distinct 64-hex tokens from a fixed seed.
func testTokens(_ count: Int, seed: UInt64 = 42) -> [String] {
    var state = seed
    func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    return (0..<count).map { _ in (0..<4).map { _ in String(format: "%016llx", next()) }.joined() }
}

final class WorkerPoolTests: XCTestCase {
    // MARK: Partitioning

    func testPartitionIsStableCaseBlindAndSpread() {
        let tokens = testTokens(12_000)
        for workers in [2, 3, 4, 7] {
            var counts = [Int](repeating: 0, count: workers)
            for t in tokens {
                let w = WorkerPool.worker(for: t, of: workers)
                XCTAssertTrue((0..<workers).contains(w))
                XCTAssertEqual(WorkerPool.worker(for: t, of: workers), w, "the same token, the same worker")
                XCTAssertEqual(WorkerPool.worker(for: t.uppercased(), of: workers), w, "case does not move a token")
                counts[w] += 1
            }
            let fair = tokens.count / workers
            for c in counts {
                XCTAssertGreaterThan(c, fair * 9 / 10, "\(workers) workers: \(counts)")
                XCTAssertLessThan(c, fair * 11 / 10, "\(workers) workers: \(counts)")
            }
        }
        XCTAssertEqual(WorkerPool.worker(for: goodToken, of: 1), 0)
        // Pinned, so a change of the hash (which would move tokens between workers from one build to the
        // next) is a visible decision.
        XCTAssertEqual((0..<8).map { WorkerPool.worker(for: testTokens(8)[$0], of: 3) }, Self.pinnedPartition)
    }

    static let pinnedPartition = [0, 2, 2, 1, 1, 1, 2, 1]

    func testConnectionsAreSplitOverWorkers() {
        XCTAssertEqual(WorkerPool.connections(total: 1, workers: 1), [1])
        XCTAssertEqual(WorkerPool.connections(total: 4, workers: 2), [2, 2])
        XCTAssertEqual(WorkerPool.connections(total: 3, workers: 2), [2, 1])
        XCTAssertEqual(WorkerPool.connections(total: 7, workers: 3), [3, 2, 2])
    }

    func testPoolRefusesTooFewConnectionsAndTooManyWorkers() throws {
        let key = SigningKey.generate()
        let config = EngineConfiguration(baseURL: "https://127.0.0.1:1", topic: "t", pushType: .alert, connections: 1)
        XCTAssertThrowsError(try WorkerPool(workers: 2, configuration: config) { try ProviderTokenCache(key: key) }) { error in
            XCTAssertTrue("\(error)".contains("needs 2 connections or more"), "\(error)")
        }
        XCTAssertThrowsError(try WorkerPool(workers: 0, configuration: config) { try ProviderTokenCache(key: key) })
        var many = config
        many.connections = 64
        let limit = RunConfig.Transport.workerLimit()
        XCTAssertThrowsError(try WorkerPool(workers: limit + 1, configuration: many) { try ProviderTokenCache(key: key) }) { error in
            XCTAssertTrue("\(error)".contains("between 1 and \(limit)"), "\(error)")
        }
        var two = config
        two.connections = 3
        let pool = try WorkerPool(workers: 2, configuration: two) { try ProviderTokenCache(key: key) }
        XCTAssertEqual(pool.workerConfigurations.map(\.connections), [2, 1])
        XCTAssertEqual(pool.workerConfigurations.map(\.streamsPerConnection), [100, 100])
    }

    func testEngineCountersPlusCoversEveryField() throws {
        // Every number in EngineCounters set to 1 (through Codable, so a field added later is covered too).
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(EngineCounters())) as? [String: Any])
        XCTAssertGreaterThan(json.count, 10)
        for (key, value) in json {
            json[key] = value is [String: Any] ? ["x": 1] : 1
        }
        let ones = try JSONDecoder().decode(EngineCounters.self, from: JSONSerialization.data(withJSONObject: json))
        let summed = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(ones + ones)) as? [String: Any])
        XCTAssertEqual(summed.count, json.count)
        // The busiest thread's CPU is the largest over workers and shards, not a sum.
        let largest: Set<String> = ["busiestEngineCPUMillis"]
        for (key, value) in summed {
            if let table = value as? [String: Int] {
                XCTAssertEqual(table, ["x": 2], key)
            } else if largest.contains(key) {
                XCTAssertEqual(value as? Int, 1, "EngineCounters.+ keeps the largest '\(key)'")
            } else {
                XCTAssertEqual(value as? Int, 2, "EngineCounters.+ does not add '\(key)'")
            }
        }
    }

    // MARK: Queue

    func push(_ token: String, _ seq: Int) -> OutgoingPush {
        var p = OutgoingPush(bodyCapacity: 0)
        p.deviceToken = token
        p.body = Array("\(seq)".utf8)
        p.intendedNanos = UInt64(seq)
        return p
    }

    func testQueueIsFIFOAcrossWrapAroundAndReturnsBuffers() {
        let q = PushQueue(capacity: 3, bodyCapacity: 64)
        var out = OutgoingPush(bodyCapacity: 0)
        var seq = 0, taken = 0
        for round in 0..<5 {
            for _ in 0..<(round % 3 + 1) {
                var p = push("t", seq)
                XCTAssertTrue(q.put(&p))
                seq += 1
            }
            while q.count > 0 {
                XCTAssertTrue(q.take(into: &out))
                XCTAssertEqual(out.intendedNanos, UInt64(taken))
                XCTAssertEqual(String(decoding: out.body, as: UTF8.self), "\(taken)")
                taken += 1
            }
        }
        XCTAssertEqual(taken, seq)
        XCTAssertEqual(q.putCount, seq)
        q.close()
        XCTAssertFalse(q.take(into: &out), "closed and empty")
    }

    func testQueueSlotsDoNotShareBuffers() {
        let q = PushQueue(capacity: 4, bodyCapacity: 32)
        var taken: [OutgoingPush] = []
        var returned: [OutgoingPush] = []
        for i in 0..<4 {
            var p = push("t", i)
            XCTAssertTrue(q.put(&p))
            returned.append(p)
        }
        for _ in 0..<4 {
            var p = OutgoingPush(bodyCapacity: 0)
            XCTAssertTrue(q.take(into: &p))
            taken.append(p)
        }
        // The emptied slots the producer got back each have their own reserved buffer.
        var addresses = Set<UInt>()
        for p in returned {
            XCTAssertGreaterThanOrEqual(p.body.capacity, 32)
            p.body.withUnsafeBufferPointer { _ = addresses.insert(UInt(bitPattern: $0.baseAddress)) }
        }
        XCTAssertEqual(addresses.count, 4)
        XCTAssertEqual(taken.map(\.intendedNanos), [0, 1, 2, 3])
    }

    func testClosedQueueDrainsBeforeEnding() {
        let q = PushQueue(capacity: 4)
        for i in 0..<3 {
            var p = push("t", i)
            XCTAssertTrue(q.put(&p))
        }
        q.close()
        var out = OutgoingPush()
        var seen: [UInt64] = []
        while q.take(into: &out) { seen.append(out.intendedNanos) }
        XCTAssertEqual(seen, [0, 1, 2])
        XCTAssertFalse(q.take(into: &out))
    }

    func testAbandonPassesWhatIsQueuedAndWakesABlockedProducer() {
        let q = PushQueue(capacity: 2)
        for i in 0..<2 {
            var p = push("t", i)
            XCTAssertTrue(q.put(&p))
        }
        let refused = expectation(description: "the blocked put returns false")
        let blocked = push("t", 2)
        let handOver = UncheckedBox(blocked)
        Thread {
            var p = handOver.value
            if !q.put(&p), p.intendedNanos == 2 { refused.fulfill() }
        }.start()
        guard waitUntil(seconds: 10, { q.producerWaits > 0 }) else {
            return XCTFail("the producer never waited on the full queue within 10 s")
        }
        var dropped: [UInt64] = []
        XCTAssertEqual(q.abandon { dropped.append($0.intendedNanos) }, 2)
        XCTAssertEqual(dropped, [0, 1])
        wait(for: [refused], timeout: 10)
        var p = push("t", 3)
        XCTAssertFalse(q.put(&p), "an abandoned queue refuses pushes")
        var out = OutgoingPush()
        XCTAssertFalse(q.take(into: &out))
        XCTAssertEqual(q.abandon { _ in XCTFail("nothing left") }, 0)
    }

    func testAProducerWaitingOnAFullQueueIsWokenOnceItDrainedToHalfNotAtEachPushTaken() {
        let q = PushQueue(capacity: 8)
        for i in 0..<8 {
            var p = push("t", i)
            XCTAssertTrue(q.put(&p))
        }
        let done = expectation(description: "the producer's next pushes went in")
        let next = UncheckedBox((8..<12).map { push("t", $0) })
        Thread {
            for var p in next.value { _ = q.put(&p) }
            done.fulfill()
        }.start()
        guard waitUntil(seconds: 10, { q.producerWaits > 0 }) else { return XCTFail("the producer never waited on the full queue") }
        var out = OutgoingPush()
        for _ in 0..<3 { XCTAssertEqual(q.poll(into: &out), .push) }
        XCTAssertEqual(q.producerWakes, 0, "5 still queued: above the low-water mark (4)")
        XCTAssertEqual(q.poll(into: &out), .push)
        XCTAssertEqual(q.producerWakes, 1, "4 queued: the producer is woken")
        wait(for: [done], timeout: 10)
        XCTAssertEqual(q.putCount, 12, "it filled the ring again without a wake per push")
        var order: [UInt64] = []
        while q.poll(into: &out) == .push { order.append(out.intendedNanos) }
        XCTAssertEqual(order, Array(4..<12), "in order")
    }

    func testPollSaysNothingYetAndTheNextPutOrCloseWakesTheConsumer() {
        let q = PushQueue(capacity: 4)
        var wakes = 0
        q.wakeConsumer = { wakes += 1 }
        var out = OutgoingPush()
        XCTAssertEqual(q.poll(into: &out), .empty)
        XCTAssertEqual(q.poll(into: &out), .empty)
        XCTAssertEqual(q.consumerWaits, 1, "one idle spell")
        var p = push("t", 0)
        XCTAssertTrue(q.put(&p))
        XCTAssertEqual(wakes, 1)
        p = push("t", 1)
        XCTAssertTrue(q.put(&p))
        XCTAssertEqual(wakes, 1, "no wake for a consumer that is not idle")
        XCTAssertEqual(q.poll(into: &out), .push)
        XCTAssertEqual(out.intendedNanos, 0)
        XCTAssertEqual(q.poll(into: &out), .push)
        XCTAssertEqual(out.intendedNanos, 1)
        XCTAssertEqual(q.poll(into: &out), .empty)
        q.close()
        XCTAssertEqual(wakes, 2, "closing wakes an idle consumer")
        XCTAssertEqual(q.poll(into: &out), .ended)
    }

    func testQueueSourceTellsNothingYetFromEnded() {
        let q = PushQueue(capacity: 2)
        let source = QueueSource(queue: q)
        var out = OutgoingPush()
        XCTAssertEqual(source.next(into: &out), .idle, "empty but open: nothing yet")
        var p = push("t", 7)
        XCTAssertTrue(q.put(&p))
        XCTAssertEqual(source.next(into: &out), .push)
        XCTAssertEqual(out.intendedNanos, 7)
        q.close()
        XCTAssertEqual(source.next(into: &out), .end)
    }

    func testAnAbandonedQueueSourceGivesBackWhatWasQueuedAsNotSent() {
        let q = PushQueue(capacity: 4)
        let source = QueueSource(queue: q)
        for seq in [3, 4] {
            var p = push("t", seq)
            XCTAssertTrue(q.put(&p))
        }
        var out = OutgoingPush()
        var given: [(NotSentCause, UInt64)] = []
        source.drainAfterAbandon(using: &out) { given.append(($0, $1.intendedNanos)) }
        XCTAssertEqual(given.map(\.0), [.runStopped, .runStopped])
        XCTAssertEqual(given.map(\.1), [3, 4], "oldest first, with their intended times")
        var late = push("t", 5)
        XCTAssertFalse(q.put(&late), "the producer's next hand-over fails")
    }

    func testProducerAndConsumerThreadsKeepOrder() {
        let q = PushQueue(capacity: 8, bodyCapacity: 16)
        let n = 100_000
        let done = expectation(description: "producer done")
        Thread {
            for i in 0..<n {
                var p = OutgoingPush(bodyCapacity: 0)
                p.intendedNanos = UInt64(i)
                _ = q.put(&p)
            }
            q.close()
            done.fulfill()
        }.start()
        var out = OutgoingPush()
        var expected: UInt64 = 0
        var outOfOrder = 0
        while q.take(into: &out) {
            if out.intendedNanos != expected { outOfOrder += 1 }
            expected += 1
        }
        wait(for: [done], timeout: 60)
        XCTAssertEqual(expected, UInt64(n))
        XCTAssertEqual(outOfOrder, 0)
    }

    // MARK: Against the simulator

    func testThreeWorkersDeliverEveryPushAndKeepEachTokensOrder() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.simulator.stop() }
        let workers = 3
        let tokens = testTokens(30)
        let perToken = 200
        let main = RecordingSink()
        let source = FakePushSource.sequenced(tokens: tokens, perToken: perToken)
        let sinks = (0..<workers).map { _ in RecordingSink() }
        let pool = try WorkerPool(workers: workers, configuration: fixture.engineConfiguration(connections: 3, streams: 50), queueCapacity: 64) {
            try ProviderTokenCache(key: fixture.key)
        }
        // What each worker's engine took, in the order taken (sequence numbers ride in intendedNanos - 1).
        let takenLock = NSLock()
        var taken = [[Int]](repeating: [], count: workers)
        pool.takeObserver = { w, push in
            let seq = Int(push.intendedNanos) - 1
            takenLock.withLock { taken[w].append(seq) }
        }
        let stats = try pool.run(source: source, sink: main, workerSinks: sinks)
        let total = tokens.count * perToken

        // Counts add up exactly: one outcome per push, all delivered, none recorded by the producer.
        XCTAssertEqual(main.entries.count, 0)
        XCTAssertEqual(sinks.map(\.entries.count).reduce(0, +), total)
        XCTAssertEqual(sinks.map(\.delivered).reduce(0, +), total, "\(sinks.flatMap(\.entries).filter { $0.outcome != .delivered }.prefix(3))")
        XCTAssertEqual(stats.sent, total)
        XCTAssertEqual(fixture.simulator.counterSnapshot.accepted, total)
        XCTAssertEqual(pool.lastRun.map(\.pushes).reduce(0, +), total)
        XCTAssertEqual(pool.lastRun.map(\.pushes), sinks.map(\.entries.count))
        XCTAssertEqual(pool.lastRun.map(\.connections), [1, 1, 1])
        XCTAssertEqual(stats.providerTokenSignings, workers, "one token per worker")
        XCTAssertFalse(source.abandoned)

        // Every push recorded exactly once, by the worker its token maps to.
        var workerOfSeq = [Int](repeating: -1, count: total)
        for (w, sink) in sinks.enumerated() {
            for e in sink.entries {
                let seq = Int(e.intended) - 1
                XCTAssertEqual(workerOfSeq[seq], -1, "push \(seq) recorded twice")
                workerOfSeq[seq] = w
                XCTAssertEqual(w, WorkerPool.worker(for: FakePushSource.token(of: seq, tokens), of: workers))
            }
        }
        XCTAssertFalse(workerOfSeq.contains(-1))
        XCTAssertTrue(sinks.allSatisfy { !$0.entries.isEmpty }, "30 tokens reach all 3 workers")

        // Each engine took its tokens' pushes in source order: per token, strictly increasing sequence numbers.
        XCTAssertEqual(taken.map(\.count), sinks.map(\.entries.count))
        for (w, seqs) in taken.enumerated() {
            var last: [String: Int] = [:]
            for seq in seqs {
                let token = FakePushSource.token(of: seq, tokens)
                XCTAssertEqual(WorkerPool.worker(for: token, of: workers), w)
                if let prev = last[token] { XCTAssertLessThan(prev, seq, "worker \(w) took \(seq) after \(prev)") }
                last[token] = seq
            }
        }
        // And sent them in that order: per token, send times never go back as sequence numbers rise.
        for sink in sinks {
            var lastSent: [String: (seq: Int, sent: UInt64)] = [:]
            for e in sink.entries.sorted(by: { $0.intended < $1.intended }) {
                let seq = Int(e.intended) - 1, token = FakePushSource.token(of: seq, tokens)
                if let prev = lastSent[token] { XCTAssertLessThanOrEqual(prev.sent, e.sent, "push \(seq) sent before \(prev.seq)") }
                lastSent[token] = (seq, e.sent)
            }
        }
    }

    func testDurationLimitStopsEveryWorkerWithCountsBalanced() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.simulator.stop() }
        let workers = 2
        let tokens = testTokens(20)
        let perToken = 300
        let main = RecordingSink()
        // 6 000 pushes paced over 60 s; the run stops after 0.3 s.
        let start = MonotonicTime.now()
        let source = FakePushSource.sequenced(tokens: tokens, perToken: perToken) { start + UInt64($0) * 10_000_000 }
        var config = fixture.engineConfiguration(connections: 2, streams: 20)
        config.durationLimit = .milliseconds(300)
        let sinks = (0..<workers).map { _ in RecordingSink() }
        let pool = try WorkerPool(workers: workers, configuration: config, queueCapacity: 16) { try ProviderTokenCache(key: fixture.key) }
        let stats = try pool.run(source: source, sink: main, workerSinks: sinks)
        let total = tokens.count * perToken

        let all = main.entries + sinks.flatMap(\.entries)
        XCTAssertEqual(all.count, total, "every planned push has exactly one outcome")
        XCTAssertEqual(Set(all.map(\.intended)).count, total, "and no push has two")
        XCTAssertTrue(source.abandoned, "the source was told the run stopped")
        let delivered = all.filter { $0.outcome == .delivered }.count
        let afterEnd = all.filter { $0.outcome == .notSent(.afterEnd) }
        let stopped = all.filter { $0.outcome == .notSent(.runStopped) }.count
        let ended: [Outcome] = [.delivered, .notSent(.afterEnd), .notSent(.runStopped)]
        XCTAssertEqual(delivered + afterEnd.count + stopped, total, "\(all.filter { !ended.contains($0.outcome) }.prefix(3))")
        // The pushes not yet due at the end are after it, not lost: only one caught at the very deadline
        // (due, not yet sent) may count as stopped.
        XCTAssertGreaterThan(afterEnd.count, 5_000)
        XCTAssertLessThanOrEqual(stopped, 2)
        let deadline = start + 300_000_000
        XCTAssertTrue(afterEnd.allSatisfy { $0.intended == 0 || $0.intended > deadline - 50_000_000 },
                      "a push due well before the end counted as after it")
        XCTAssertEqual(stats.sent, delivered)
        XCTAssertEqual(fixture.simulator.counterSnapshot.accepted, delivered)
        // Pushes the workers were handed but did not send ended in the workers' sinks.
        for (w, run) in pool.lastRun.enumerated() {
            XCTAssertEqual(run.pushes, sinks[w].entries.count)
            XCTAssertEqual(run.counters.sent, sinks[w].delivered)
        }
    }

    func testASlowProducerLeavesQueuesEmptyAndNothingIsLost() throws {
        // The producer pauses every 20 pushes, so the workers' queues run dry with pushes in flight: the
        // engines are told "nothing yet", keep going, and are woken by the next push (or the close).
        let fixture = try SimulatorFixture()
        defer { fixture.simulator.stop() }
        let main = RecordingSink()
        let source = FakePushSource.sequenced(tokens: testTokens(16), perToken: 25)
        source.pause = (every: 20, micros: 5_000)
        let sinks = [RecordingSink(), RecordingSink()]
        let pool = try WorkerPool(workers: 2, configuration: fixture.engineConfiguration(connections: 2, streams: 10)) {
            try ProviderTokenCache(key: fixture.key)
        }
        let stats = try pool.run(source: source, sink: main, workerSinks: sinks)
        XCTAssertEqual(main.entries.count, 0)
        XCTAssertEqual(sinks.map(\.delivered).reduce(0, +), 400)
        XCTAssertEqual(sinks.map(\.entries.count).reduce(0, +), 400)
        XCTAssertEqual(stats.sent, 400)
        XCTAssertEqual(fixture.simulator.counterSnapshot.accepted, 400)
    }

    func testProgressIsSummedOverWorkers() throws {
        let fixture = try SimulatorFixture()
        defer { fixture.simulator.stop() }
        var config = fixture.engineConfiguration(connections: 2, streams: 10)
        config.progressInterval = 0.1
        let main = RecordingSink()
        let start = MonotonicTime.now()
        // 100 pushes over about 1 s, so that progress is reported at least once along the way.
        let source = FakePushSource.sequenced(tokens: testTokens(10), perToken: 10) { start + UInt64($0) * 10_000_000 }
        let pool = try WorkerPool(workers: 2, configuration: config) { try ProviderTokenCache(key: fixture.key) }
        var reports: [PoolProgress] = []
        pool.onProgress = { reports.append($0) }
        let sinks = [RecordingSink(), RecordingSink()]
        _ = try pool.run(source: source, sink: main, workerSinks: sinks)
        XCTAssertFalse(reports.isEmpty)
        for r in reports {
            XCTAssertLessThanOrEqual(r.completed, 100)
            XCTAssertLessThanOrEqual(r.completed + r.inFlight, r.counters.sent)
        }
        XCTAssertEqual(sinks.map(\.delivered).reduce(0, +), 100)
    }
}

/// A value handed to one other thread, which alone uses it from then on.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
