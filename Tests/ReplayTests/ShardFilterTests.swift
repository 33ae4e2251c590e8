import APNsCore
import Replay
import XCTest

final class ShardFilterTests: XCTestCase {
    /// Pushes to 160 tokens, every fifth planned one not sent (no token): as a workload gives them.
    private final class Mixed: PushSource {
        var n = 0
        func next(into push: inout OutgoingPush) -> PullResult {
            guard n < 1_000 else { return .end }
            defer { n += 1 }
            if n % 5 == 4 { return .notSent(.noToken) }
            push.deviceToken = String(format: "%064x", n % 200)
            return .push
        }
        func abandon() { n = 1_000 }
    }

    func testEveryPushGoesToExactlyOneShardAndShardZeroCountsTheTokenless() {
        let count = 3
        var tokensBy: [Set<String>] = []
        var pushes = 0, notSent = 0
        for index in 0..<count {
            let filter = ShardFilter(Mixed(), shard: .init(index: index, count: count))
            var push = OutgoingPush()
            var mine = Set<String>()
            loop: while true {
                switch filter.next(into: &push) {
                case .push:
                    XCTAssertEqual(TokenPartition.shard(for: push.deviceToken, of: count), index)
                    mine.insert(push.deviceToken)
                    pushes += 1
                case .notSent:
                    XCTAssertEqual(index, 0, "only shard 0 counts pushes without a token")
                    notSent += 1
                case .idle: XCTFail("idle")
                case .end: break loop
                }
            }
            tokensBy.append(mine)
        }
        XCTAssertEqual(pushes, 800, "every push sent by exactly one shard")
        XCTAssertEqual(notSent, 200)
        XCTAssertEqual(tokensBy.reduce(0) { $0 + $1.count }, 160, "no token in two shards (160 tokens have pushes)")
        XCTAssertTrue(tokensBy.allSatisfy { !$0.isEmpty })
    }
}
