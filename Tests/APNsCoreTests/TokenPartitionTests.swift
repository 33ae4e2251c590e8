import APNsCore
import XCTest

final class TokenPartitionTests: XCTestCase {
    private let tokens: [String] = {
        var random = SplitMix64(seed: 42)
        return (0..<6_000).map { _ in (0..<4).map { _ in String(format: "%016llx", random.next()) }.joined() }
    }()

    func testShardsSplitTokensEvenlyAndCaseDoesNotMove_a_token() {
        for n in [2, 3, 7] {
            var counts = Array(repeating: 0, count: n)
            for t in tokens { counts[TokenPartition.shard(for: t, of: n)] += 1 }
            let even = tokens.count / n
            XCTAssertTrue(counts.allSatisfy { abs($0 - even) < even / 10 }, "\(n) shards: \(counts)")
        }
        for t in tokens.prefix(100) {
            XCTAssertEqual(TokenPartition.shard(for: t.uppercased(), of: 5), TokenPartition.shard(for: t, of: 5))
        }
        XCTAssertEqual(TokenPartition.shard(for: tokens[0], of: 1), 0)
    }

    /// Shards take the hash's low bits and workers its high bits: one shard's tokens still use all its workers.
    func testAShardsTokensSpreadOverAllItsWorkers() {
        for (shards, workers) in [(2, 2), (4, 4), (3, 2)] {
            let mine = tokens.filter { TokenPartition.shard(for: $0, of: shards) == 0 }
            var counts = Array(repeating: 0, count: workers)
            for t in mine { counts[TokenPartition.worker(for: t, of: workers)] += 1 }
            let even = mine.count / workers
            XCTAssertTrue(counts.allSatisfy { abs($0 - even) < even / 5 }, "\(shards) shards x \(workers) workers: \(counts)")
        }
    }

    /// Pinned values (computed apart, in Python, from FNV-1a and fmix64): the partition is the same on every
    /// machine and in every version, so shards on different machines agree.
    func testThePartitionIsPinned() {
        let token = "80b3c5a1d2e4f60718293a4b5c6d7e8f80b3c5a1d2e4f60718293a4b5c6d7e8f"
        XCTAssertEqual(TokenPartition.hash(token), 0x9FCA_E299_9E59_78D9)
        XCTAssertEqual([2, 3, 4, 7, 10].map { TokenPartition.shard(for: token, of: $0) }, [1, 1, 2, 4, 6])
        XCTAssertEqual([2, 3, 4].map { TokenPartition.worker(for: token, of: $0) }, [1, 1, 2])
    }

    func testAnOpenLoopRateIsSplitOverTheShards() {
        XCTAssertEqual(Schedule.fixedRate(perSecond: 300).share(of: 3), .fixedRate(perSecond: 100))
        XCTAssertEqual(Schedule.ramp(from: 40, to: 400, seconds: 60).share(of: 4), .ramp(from: 10, to: 100, seconds: 60))
        XCTAssertEqual(Schedule.recorded(speed: 60).share(of: 4), .recorded(speed: 60))
        XCTAssertEqual(Schedule.closedLoop.share(of: 4), .closedLoop)
        var config = RunConfig(name: "x", profilePath: "p.yaml", workload: .init(name: "w", stream: "s", recipe: "r.yaml", bundleID: "b"))
        config.schedule.mode = .fixedRate(perSecond: 90)
        config.shard = .init(index: 1, count: 3)
        XCTAssertEqual(config.effectiveSchedule, .fixedRate(perSecond: 30))
    }

    func testAShardOutOfRangeIsRefusedNamingTheFlag() {
        var config = RunConfig(name: "x", profilePath: "p.yaml", workload: .init(name: "w", stream: "s", recipe: "r.yaml", bundleID: "b"))
        var o = RunConfigOverrides()
        o.shard = .init(index: 3, count: 3)
        config = config.overlaying(o)
        XCTAssertThrowsError(try config.validate(setBy: o)) { error in
            XCTAssertEqual(error as? RunConfigFlagError, RunConfigFlagError(RunConfigError(.shard, "index must be between 0 and 2 for 3 shards, found 3")))
        }
        o.shard = .init(index: 0, count: 0)
        XCTAssertThrowsError(try config.overlaying(o).validate(setBy: o)) { error in
            XCTAssertEqual((error as? RunConfigFlagError)?.error.key, .shard, String(describing: error))
            XCTAssertTrue((error as? RunConfigFlagError)?.error.problem.hasPrefix("must be between 1 and 1024") == true, String(describing: error))
        }
    }
}
