import APNsCore
import Foundation

/// What a source gave when pulled until it ended, the way an engine pulls: one `OutgoingPush` reused.
public struct Drained {
    /// A push as it was handed out.
    public struct Push {
        public var token: String
        public var body: String
        public var priority: Priority
        public var recordedMillis: Int64
        public var intendedNanos: UInt64
        /// The body parsed (tests only; workloads never parse payloads).
        public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        public var aps: [String: Any] { json["aps"] as? [String: Any] ?? [:] }
    }

    /// Pushes to send, in order.
    public var pushes: [Push] = []
    /// Planned pushes not sent, in order, with the priority they were counted at.
    public var notSent: [(cause: NotSentCause, priority: Priority)] = []

    /// Every result in order: a push (`nil` cause) or a not-sent cause.
    public var sequence: [NotSentCause?] = []

    /// Not-sent pushes by cause.
    public var notSentByCause: [String: Int] {
        notSent.reduce(into: [:]) { $0[$1.cause.rawValue, default: 0] += 1 }
    }
    /// Every planned push: sent or not.
    public var outcomes: Int { pushes.count + notSent.count }
}

/// Pulls `source` until it ends (or `limit` results; then abandons it and takes what it gives back).
public func drain(_ source: PushSource, limit: Int = .max) -> Drained {
    var d = Drained()
    var push = OutgoingPush(bodyCapacity: 64)
    var taken = 0
    func take(_ result: PullResult) -> Bool {
        switch result {
        case .push:
            d.pushes.append(.init(token: push.deviceToken, body: String(decoding: push.body, as: UTF8.self), priority: push.priority,
                                  recordedMillis: push.recordedMillis, intendedNanos: push.intendedNanos))
            d.sequence.append(nil)
        case .notSent(let cause):
            d.notSent.append((cause, push.priority))
            d.sequence.append(cause)
        case .idle:
            usleep(100)
        case .end:
            return false
        }
        return true
    }
    while taken < limit, take(source.next(into: &push)) { taken += 1 }
    if taken >= limit {
        source.abandon()
        while take(source.next(into: &push)) {}
    }
    return d
}
