import APNsCore

/// The Live Activity budget in recorded time: how many priority-10 updates iOS would throttle on the
/// device, judged per activity token over a rolling hour of the *recording's* clock, so that replaying
/// at any speed gives the same count (the simulator's own budget check runs on the wall clock and cannot).
///
/// An update within the budget uses one of the token's places for an hour from its recorded time; an
/// update beyond it is counted as throttled and uses none (iOS drops it rather than deliver it). Apple
/// does not publish the budget's size: the default, 10 an hour, is an assumption, like the simulator's.
///
/// Memory: at most `perHour` timestamps per token updated within the last hour of recorded time.
public struct LiveActivityBudget: Sendable {
    /// Priority-10 updates an activity may get in a rolling hour before iOS throttles.
    public let perHour: Int
    public static let windowMillis: Int64 = 3_600_000
    /// The default budget (an assumption: Apple does not publish one).
    public static let defaultPerHour = 10

    private var recent: [String: [Int64]] = [:]
    /// Priority-10 updates counted.
    public private(set) var updates = 0
    /// Of those, the ones the device would throttle.
    public private(set) var throttled = 0
    /// Activity tokens that had at least one update throttled.
    public private(set) var throttledTokens = Set<String>()

    public init(perHour: Int) {
        precondition(perHour > 0, "a budget of at least one update an hour")
        self.perHour = perHour
    }

    /// Counts one priority-10 update to `token` recorded at `millis`; false when the device would throttle it.
    @discardableResult
    public mutating func record(token: String, atMillis millis: Int64) -> Bool {
        updates += 1
        let cutoff = millis - Self.windowMillis
        // Places freed by updates more than an hour older than this one (in place: one hash each).
        recent[token, default: []].removeAll { $0 <= cutoff }
        if recent[token]!.count < perHour {
            recent[token]!.append(millis)
            return true
        }
        throttled += 1
        throttledTokens.insert(token)
        return false
    }
}

/// Counts the budget on the pushes a run sends, as they pass from the workload (after coalescing) to
/// pacing and the engine: priority-10 pushes only, by their device (activity) token and recorded time.
public final class LiveActivityBudgetSource: PushSource {
    private let inner: PushSource
    public private(set) var budget: LiveActivityBudget

    /// Whether pushes of each ``OutgoingPush/kind`` are Live Activity updates (a mix's parts); nil: all are.
    private let countedKinds: [Bool]?

    public init(_ inner: PushSource, perHour: Int, countedKinds: [Bool]? = nil) {
        self.inner = inner
        self.budget = LiveActivityBudget(perHour: perHour)
        self.countedKinds = countedKinds
    }

    public func next(into push: inout OutgoingPush) -> PullResult {
        let result = inner.next(into: &push)
        if result == .push, push.priority == .immediate, countedKinds?[Int(push.kind)] ?? true {
            budget.record(token: push.deviceToken, atMillis: push.recordedMillis)
        }
        return result
    }

    public func abandon() { inner.abandon() }
}
