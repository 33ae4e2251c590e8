import APNsCore
import Foundation

/// A push source for tests and benchmarks: push `n` (0-based) is made by a closure into the engine's
/// reused `OutgoingPush`, so a benchmark's allocations are the engine's own. It keeps the
/// `PushSource` contract: after ``abandon()`` every push it had left comes out as not sent
/// (`run_stopped`), then `.end`.
public final class FakePushSource: PushSource {
    private let make: (Int, inout OutgoingPush) -> Void
    private var count: Int
    /// Pushes handed out (or, after ``abandon()``, given back as not sent) so far.
    public private(set) var handedOut = 0
    public private(set) var abandoned = false
    /// Sleep this many microseconds before every `every`-th push: a producer that falls behind, so that
    /// the engines' queues run dry with pushes in flight.
    public var pause: (every: Int, micros: UInt32)?

    /// - Parameters:
    ///   - count: pushes in all.
    ///   - make: fills push `n`; `intendedNanos` and `recordedMillis` are 0 unless it sets them.
    public init(count: Int, make: @escaping (Int, inout OutgoingPush) -> Void) {
        self.count = count
        self.make = make
    }

    /// Arms the source for another `count` pushes (benchmarks reuse one source).
    public func reset(count: Int) {
        self.count = count
        handedOut = 0
        abandoned = false
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        guard handedOut < count else { return .end }
        if let pause, handedOut % pause.every == pause.every - 1 { usleep(pause.micros) }
        let n = handedOut
        handedOut += 1
        push.intendedNanos = 0
        push.recordedMillis = 0
        make(n, &push)
        return abandoned ? .notSent(.runStopped) : .push
    }

    public func abandon() { abandoned = true }
}

extension FakePushSource {
    /// One push.
    public struct Item: Sendable {
        public var token: String
        public var body: [UInt8]
        public var priority: Priority
        public init(token: String, body: [UInt8], priority: Priority = .immediate) {
            self.token = token
            self.body = body
            self.priority = priority
        }
    }

    /// The items in order.
    public static func list(_ items: [Item]) -> FakePushSource {
        FakePushSource(count: items.count) { n, push in
            let item = items[n]
            push.deviceToken = item.token
            push.body.removeAll(keepingCapacity: true)
            push.body.append(contentsOf: item.body)
            push.priority = item.priority
        }
    }

    /// `count` copies of one push, the tokens taken round-robin: allocates nothing per push.
    public static func repeating(_ count: Int, body: [UInt8], tokens: [String], priority: Priority = .immediate) -> FakePushSource {
        precondition(!tokens.isEmpty)
        return FakePushSource(count: count) { n, push in
            push.deviceToken = tokens[n % tokens.count]
            push.body.removeAll(keepingCapacity: true)
            push.body.append(contentsOf: body)
            push.priority = priority
        }
    }

    /// `count` pushes to one token, due `gapSeconds` apart from the first ask: the connection idles between.
    public static func spaced(_ count: Int, gapSeconds: Double, token: String, body: [UInt8]) -> FakePushSource {
        var start: UInt64 = 0
        let gap = UInt64(gapSeconds * 1e9)
        return FakePushSource(count: count) { n, push in
            if start == 0 { start = MonotonicTime.now() }
            push.deviceToken = token
            push.body = body
            push.priority = .immediate
            push.intendedNanos = start + UInt64(n) * gap
        }
    }

    /// `tokens.count × perToken` pushes, tokens round-robin; push `seq` carries `intendedNanos = due(seq)`
    /// and its sequence number in the body (`"content-state":{"seq":N}`).
    public static func sequenced(tokens: [String], perToken: Int, due: @escaping (Int) -> UInt64 = { UInt64($0) + 1 }) -> FakePushSource {
        FakePushSource(count: tokens.count * perToken) { seq, push in
            push.deviceToken = tokens[seq % tokens.count]
            push.body.removeAll(keepingCapacity: true)
            push.body.append(contentsOf: #"{"aps":{"timestamp":\#(1_714_042_800 + seq),"event":"update","content-state":{"seq":\#(seq)}}}"#.utf8)
            push.priority = .immediate
            push.intendedNanos = due(seq)
        }
    }

    /// Pushes with recorded times (`recordedMillis`) and bodies, for pacing and coalescing.
    public static func recorded(_ items: [(token: String, at: Int64, body: String)], priority: Priority = .immediate) -> FakePushSource {
        FakePushSource(count: items.count) { n, push in
            let it = items[n]
            push.deviceToken = it.token
            push.body = Array(it.body.utf8)
            push.priority = priority
            push.recordedMillis = it.at
        }
    }
}
