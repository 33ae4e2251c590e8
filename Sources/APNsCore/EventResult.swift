/// How one event (one line of a recorded stream) ended. Every event read ends in exactly one of these.
public enum EventResult: Sendable, Equatable {
    /// The event planned this many pushes (fan-out: one event can address many devices).
    case producedPushes(Int)
    /// The event only changed state (a registration, a token update) and planned no push.
    case stateOnly
    /// The event has push rules and none of their conditions held: it planned nothing, and is not a bad line.
    case noPushCondition
    /// The event was unusable, for this bounded cause key (e.g. `missing_field`).
    case invalid(cause: String)
}
