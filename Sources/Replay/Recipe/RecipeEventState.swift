/// Where ``RecipeRules`` is in the cycle of one event, with what that point needs: the event being planned
/// (its rule, line and time), the Live Activity event of the push rule being planned, the push being filled,
/// and the first expression that failed on the event or on that push.
///
/// Why one enum: as separate vars these could be combined in ways no event allows: a push filled for an
/// event whose planning failed, an expression failure of one event reported on the next, a token left from
/// the last push read while the next event plans. Each case carries only what its point of the cycle has;
/// a transition is a mutating method, so a test can drive the cycle as values without a recipe.
///
/// What it does not hold: the buffers reused from event to event so that the hot path allocates nothing (the
/// event's field values, its plan, the rules' slot values). Held in a case's payload, an array mutated in
/// place would have two owners (the case and the copy taken out of it) and be copied; they stay stored in
/// ``RecipeRules``, filled while this state is `planning` and read while it is `handingOut`.
enum RecipeEventState: Equatable {
    /// The event a line matched, as it is planned and handed out.
    struct Event: Equatable {
        /// Its rule (an index into ``Recipe/events``).
        var rule: Int
        /// The line's number (1-based), for messages.
        var line: Int
        /// Its recorded time, epoch milliseconds.
        var at: Int64
    }

    /// An expression that failed (overflow, division by zero, a null where a value is needed): the key it is
    /// written under, and the fault.
    struct Failure: Error, Equatable {
        var key: String
        var fault: ExprFault
    }

    /// The push being filled: what its slots and kept values read besides the event.
    struct Push: Equatable {
        /// Its recipient's token (`activity_timestamp` counts per token).
        var token: String
        /// Its rule's Live Activity event for this event (`live_activity_event`).
        var liveEvent: String
        /// The first expression that failed on this push: it is not sent.
        var failure: Failure?
    }

    /// No line applied yet.
    case idle
    /// The line being applied matched no event, or could not be matched: nothing is planned. `countedAs` is
    /// what it is counted as (nil: the line's own kind).
    case unmatched(countedAs: String?)
    /// The matched event is applied: its fields read, the state changed, its push rules planned one by one.
    /// `liveEvent` is the Live Activity event of the rule being planned ("" before the first, or when it sets
    /// none); `failure`, the first expression that failed on the event, which makes it a bad line.
    case planning(Event, liveEvent: String, failure: Failure?)
    /// The event planned: its pushes are handed out. `heldNoRule`: it has push rules and none of their
    /// conditions held. `push`: the push being filled (nil before the first).
    case handingOut(Event, heldNoRule: Bool, push: Push?)
    /// The event is a bad line: nothing of it is handed out.
    case failed(Event)

    // MARK: Transitions
    //
    // Each takes the state apart with `switch consume self` and puts it together again: the payload moves
    // out and back without a copy of its strings (a `guard case let` would copy it, then destroy the original).

    /// A line matched `event`: its planning starts.
    mutating func begin(_ event: Event) {
        self = .planning(event, liveEvent: "", failure: nil)
    }

    /// The rule planned next has this Live Activity event.
    mutating func planRule(liveEvent: String) {
        switch consume self {
        case let .planning(event, _, failure): self = .planning(event, liveEvent: liveEvent, failure: failure)
        case let other: self = other
        }
    }

    /// Keeps the first failure of the event being planned or of the push being filled; at any other point
    /// nothing is evaluated, and nothing is kept.
    mutating func record(_ failure: Failure) {
        switch consume self {
        case let .planning(event, liveEvent, nil):
            self = .planning(event, liveEvent: liveEvent, failure: failure)
        case .handingOut(let event, let heldNoRule, var push?) where push.failure == nil:
            push.failure = failure
            self = .handingOut(event, heldNoRule: heldNoRule, push: push)
        case let other:
            self = other
        }
    }

    /// The event's failure, taken: the event is then failed.
    mutating func takeFailure() -> Failure? {
        switch consume self {
        case let .planning(event, _, failure?):
            self = .failed(event)
            return failure
        case let other:
            self = other
            return nil
        }
    }

    /// The event planned without a failure: its pushes are handed out next.
    mutating func planned(heldNoRule: Bool) {
        switch consume self {
        case let .planning(event, _, _): self = .handingOut(event, heldNoRule: heldNoRule, push: nil)
        case let other: self = other
        }
    }

    /// The event is a bad line (a value refused, or an expression failed).
    mutating func fail() {
        switch consume self {
        case let .planning(event, _, _), let .handingOut(event, _, _), let .failed(event): self = .failed(event)
        case let other: self = other
        }
    }

    /// The next push of the event is filled for `token`; an earlier push's failure stays with that push.
    mutating func fill(token: String, liveEvent: String) {
        switch consume self {
        case let .handingOut(event, heldNoRule, _):
            self = .handingOut(event, heldNoRule: heldNoRule, push: Push(token: token, liveEvent: liveEvent))
        case let other:
            self = other
        }
    }

    // MARK: Reading

    /// The event a line matched, planned, handed out or failed.
    var event: Event? {
        switch self {
        case let .planning(event, _, _), let .handingOut(event, _, _), let .failed(event): return event
        case .idle, .unmatched: return nil
        }
    }

    /// The Live Activity event `live_activity_event` reads: the rule's being planned, or the push's.
    var liveEvent: String {
        switch self {
        case let .planning(_, liveEvent, _): return liveEvent
        case let .handingOut(_, _, push?): return push.liveEvent
        default: return ""
        }
    }

    /// The token `activity_timestamp` counts for: the push's being filled ("" at any other point).
    var token: String {
        if case let .handingOut(_, _, push?) = self { return push.token }
        return ""
    }

    /// Whether the event being planned had an expression fail (read without taking it: no copy of the state).
    var eventFailed: Bool {
        if case .planning(_, _, .some) = self { return true }
        return false
    }

    /// Whether the push being filled had an expression fail.
    var pushFailed: Bool {
        if case .handingOut(_, _, .some(let push)) = self { return push.failure != nil }
        return false
    }

    /// The push being filled's first failure.
    var pushFailure: Failure? {
        if case .handingOut(_, _, .some(let push)) = self { return push.failure }
        return nil
    }

    /// Whether the event has push rules and none of their conditions held.
    var heldNoRule: Bool {
        if case .handingOut(_, true, _) = self { return true }
        return false
    }
}
