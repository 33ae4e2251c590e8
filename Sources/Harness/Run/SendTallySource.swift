import APNsCore
import APNsEngine
import Replay
import Reporting

/// Counts what the run sends, push by push, as the engine takes it (``SendTally``): each push's push type,
/// topic and priority, and whether it carries `apns-expiration` and `apns-collapse-id` (its kind's constant,
/// or its own value). With a duration, a push due after the run's end (its intended time past `cutSeconds`
/// after the schedule's anchor) is not counted: the engine will not send it. The pushes pass unchanged.
public final class SendTallySource: PushSource {
    private let inner: PushSource
    /// By kind: what the tally reads of its constants, taken once (nothing is looked up per push).
    private let kinds: [(key: SendTally.Key, expiration: Bool, collapseID: String?, perPush: HeaderSlots)]
    private let paced: PacedSource?
    private let cutNanos: UInt64?
    /// What was counted; read once the run is over (the producer's thread has stopped).
    public private(set) var tally = SendTally()

    /// - Parameters:
    ///   - kinds: the run's push kinds, by ``OutgoingPush/kind``.
    ///   - paced: the schedule's stage, whose anchor the cut counts from (nil: no schedule, no cut).
    ///   - cutSeconds: the run's duration (nil: none).
    public init(_ inner: PushSource, kinds: [PushKind], paced: PacedSource?, cutSeconds: Double?) {
        self.inner = inner
        self.kinds = kinds.map { k in
            (SendTally.Key(pushType: k.pushType.rawValue, topic: k.topic, priority: ""), k.headers.number(APNsHeaders.expiration) != nil,
             k.headers.text(APNsHeaders.collapseID), k.headers.perPush)
        }
        self.paced = paced
        cutNanos = cutSeconds.map { UInt64(Swift.max(0, $0) * 1e9) }
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        let result = inner.next(into: &push)
        guard result == .push, kinds.indices.contains(Int(push.kind)) else { return result }
        if let paced, let cutNanos, push.intendedNanos != 0, push.intendedNanos > paced.anchorNanos &+ cutNanos { return result }
        let kind = kinds[Int(push.kind)]
        let expiration = kind.perPush.contains(APNsHeaders.expiration) ? push.headers[APNsHeaders.expiration].isPresent : kind.expiration
        var collapseID = kind.collapseID
        if kind.perPush.contains(APNsHeaders.collapseID) {
            let text = push.headers[APNsHeaders.collapseID].text
            collapseID = text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
        }
        var key = kind.key
        key.priority = String(push.priority.rawValue)
        tally.record(key, expiration: expiration, collapseID: collapseID)
        return result
    }

    public func abandon() { inner.abandon() }

    /// The count of what `pipeline` gives `pool`, for a run of `config`. The pool anchors the schedule at its
    /// start, where the duration counts from: the end falls at the same push every time.
    convenience init(_ pipeline: SendPipeline, _ config: RunConfig, kinds: [PushKind], pool: WorkerPool) {
        self.init(pipeline.source, kinds: kinds, paced: pipeline.paced, cutSeconds: config.schedule.durationSeconds)
        if let paced = pipeline.paced { pool.onStart = { paced.anchor(atNanos: $0) } }
    }
}
