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

/// What ``PayloadCheck/checkAsSent(payload:)`` found in a payload as it is sent.
public enum SentPayloadVerdict: Sendable, Equatable {
    /// `aps.event` names this event; the failures are empty when the device decodes the payload.
    case checked(LiveActivityEvent, [DecodeFailure])
    /// As ``checked(_:_:)``, but some values the payload holds were left to parts of the model whose
    /// decoding cannot be known (``ActivityKitModel/unchecked``): the failures are those of the rest.
    case checkedPartly(LiveActivityEvent, [DecodeFailure])
    /// `aps.event` is absent, not a string, or names no event the device acts on (`update`, `end`,
    /// `start`): nothing to decode. APNs requires the key on a Live Activity push.
    case noEvent
    /// Text `JSONDecoder` rejects before decoding anything (``DecodeFailure/Reason/invalidJSON``).
    case invalidJSON(DecodeFailure)

    /// The reasons the device would not decode the payload: empty for a decodable payload and for
    /// ``noEvent``.
    public var failures: [DecodeFailure] {
        switch self {
        case .checked(_, let failures), .checkedPartly(_, let failures): return failures
        case .noEvent: return []
        case .invalidJSON(let failure): return [failure]
        }
    }
}
