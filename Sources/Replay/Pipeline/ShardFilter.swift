import APNsCore

/// One shard's share of a workload's pushes: the pushes whose device token hashes to this shard
/// (``TokenPartition/shard(for:of:)``); the others are skipped as if another process had them, which it has.
///
/// The events themselves are never filtered: every shard reads the whole stream and applies every
/// registration and token update, so each knows every device as one process would. Pushes the workload
/// planned but will not send (no token yet, nobody to receive it, a bad line) carry no token to hash:
/// shard 0 counts them all and the others none, so the shards' counts add up to one process's.
public final class ShardFilter: PushSource {
    private let upstream: PushSource
    public let shard: RunConfig.Shard
    /// Pushes skipped because another shard sends them, and not-sent pushes another shard counts.
    public private(set) var skipped = 0

    public init(_ upstream: PushSource, shard: RunConfig.Shard) {
        self.upstream = upstream
        self.shard = shard
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        while true {
            let result = upstream.next(into: &push)
            switch result {
            case .push:
                if TokenPartition.shard(for: push.deviceToken, of: shard.count) == shard.index { return result }
            case .notSent:
                if shard.index == 0 { return result }
            case .idle, .end:
                return result
            }
            skipped += 1
        }
    }

    public func abandon() { upstream.abandon() }
}
