/// The `aps.event` of a Live Activity push, which decides what the device decodes.
public enum LiveActivityEvent: String, Sendable, CaseIterable {
    /// Decodes `aps.content-state` into `ContentState`.
    case update
    /// Decodes `aps.content-state` into `ContentState` (the final state).
    case end
    /// Push-to-start: decodes `aps.attributes` into the attributes struct and `aps.content-state`
    /// into `ContentState`.
    case start
}
