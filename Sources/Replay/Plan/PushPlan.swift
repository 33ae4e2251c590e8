import APNsCore
import Foundation

/// A profile's recording walked through its workload without sending anything (no engine, no target):
/// every push it plans, in plan order, with the event it came from, counted and optionally written as
/// NDJSON (``PlanLineWriter``). Depends only on ``ReplaySource``, so any workload's plan can be shown.
public enum PushPlan {
    /// The configured workload as a push source, built as a run builds it (one pass, no looping).
    /// Broadcast delivery gets one made-up channel per subscribed store (`c0`, `c1`, … by ascending
    /// store), as no channel API is asked; each broadcast is one push, as in a run.
    public static func source(_ config: RunConfig, recipes: [Recipe]) throws -> ReplaySource {
        for part in config.workload.parts {
            guard FileManager.default.isReadableFile(atPath: part.stream) else {
                throw PlanError("stream \(part.stream) (from \(config.profilePath)) cannot be read")
            }
        }
        let channels: BroadcastChannels? = config.deliveryMode == .broadcast
            ? try BroadcastChannels.madeUp(stream: config.workload.stream, recipe: recipes[0])
            : nil
        return try Workloads.source(config.workload, priority: config.payload.priority, recipes: recipes, channels: channels)
    }

    /// Walks `source` to its end, counting every planned push; the first `limit` (nil: all) are written to
    /// `lines` when given. A source that ends on a read failure throws it, naming the stream.
    public static func walk(_ source: ReplaySource, lines: PlanLineWriter?, limit: Int? = nil) throws -> PlanTally {
        var tally = PlanTally()
        var push = OutgoingPush()
        let writeUpTo = lines == nil ? 0 : (limit ?? Int.max)
        let unknown = PushOrigin(line: 0, kind: EventTally.unknownKind, stream: "")
        loop: while true {
            let result = source.next(into: &push)
            let cause: NotSentCause?
            switch result {
            case .push: cause = nil
            case let .notSent(c): cause = c
            case .idle: continue
            case .end: break loop
            }
            let origin = source.origin ?? unknown
            tally.count(kind: origin.kind, notSent: cause)
            if let rule = origin.rule { tally.count(kind: origin.kind, rule: rule, notSent: cause) }
            if tally.planned <= writeUpTo, let lines {
                try lines.write(n: tally.planned, origin: origin, push: push, result: result)
            }
        }
        try lines?.flush()
        tally.settleRun()
        tally.events = source.events
        tally.stopError = source.stopError
        if let failed = source.failedRead {
            throw PlanError("reading \(failed.stream) failed: \(failed.error)")
        }
        return tally
    }
}

/// A plan that could not be made or written, with a message naming the file.
public struct PlanError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
