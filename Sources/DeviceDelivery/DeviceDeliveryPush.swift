import APNsCore

/// One push APNs accepted, as the device model sees it: who it is for, when it was meant to be sent (on the
/// recording's clock, so that a replay at any speed gives the same outcomes), and the headers and `aps` keys
/// that decide what the device does with it.
public struct DeviceDeliveryPush: Sendable, Equatable {
    /// When APNs may drop the push, from `apns-expiration`.
    public enum Expiration: Sendable, Equatable {
        /// No header: stored for the model's storage time.
        case storagePolicy
        /// `0`: one attempt, never stored for an offline device.
        case immediately
        /// An absolute time, milliseconds on the same clock as `atMillis`.
        case at(Int64)
    }

    /// A Live Activity push's `aps.event`.
    public enum ActivityEvent: String, Sendable, Equatable {
        case start, update, end
    }

    /// The device token (for a Live Activity, the activity's update or push-to-start token).
    public var token: String
    /// The intended send, milliseconds on the recording's clock.
    public var atMillis: Int64
    /// How long the client held it before `atMillis` (coalescing), ms: its time to device counts from the event,
    /// `atMillis` less this.
    public var heldMillis: Int64 = 0
    public var priority: Priority
    public var pushType: PushType
    public var collapseID: String?
    public var expiration: Expiration
    /// Set for `liveactivity` pushes.
    public var activityEvent: ActivityEvent?
    /// `aps.stale-date`, milliseconds on the same clock.
    public var staleAtMillis: Int64?
    /// `aps.dismissal-date` of an `end`, milliseconds on the same clock.
    public var dismissAtMillis: Int64?

    public init(token: String, atMillis: Int64, priority: Priority = .immediate, pushType: PushType = .alert,
                collapseID: String? = nil, expiration: Expiration = .storagePolicy, activityEvent: ActivityEvent? = nil,
                staleAtMillis: Int64? = nil, dismissAtMillis: Int64? = nil) {
        self.token = token
        self.atMillis = atMillis
        self.priority = priority
        self.pushType = pushType
        self.collapseID = collapseID
        self.expiration = expiration
        self.activityEvent = activityEvent
        self.staleAtMillis = staleAtMillis
        self.dismissAtMillis = dismissAtMillis
    }

    /// Whether it draws on a Live Activity budget: a priority-10 update or end (a start draws on push-to-start's).
    var drawsActivityBudget: Bool {
        pushType == .liveactivity && priority == .immediate && activityEvent != .start
    }
}

/// What became of a push on the device: exactly one per push the model was given.
public enum DeviceDeliveryOutcome: Sendable, Equatable {
    /// Why a push was never shown because another took its place.
    public enum ReplaceCause: String, Sendable, CaseIterable {
        /// A later push with the same `apns-collapse-id` arrived before it was shown.
        case collapse
        /// The device was offline and APNs kept a later push for the app instead (it stores one).
        case newerStored = "newer_stored"
    }

    /// Why a push was dropped without being shown.
    public enum DropCause: String, Sendable, CaseIterable {
        /// Its `apns-expiration` passed before the device could get it.
        case expired
        /// `apns-expiration: 0` and the device was offline: APNs does not store it.
        case notStored = "not_stored"
        /// It reached a Live Activity that had already ended (or been dismissed).
        case activityEnded = "activity_ended"
    }

    /// Shown on the device this long after its intended send; `stale` when after its `stale-date`.
    case displayed(afterMillis: Int64, stale: Bool)
    case replaced(ReplaceCause)
    case dropped(DropCause)
    /// A priority-10 Live Activity update past the activity's budget, or a push-to-start past its own.
    case throttled
}

/// The classes a report counts device outcomes in.
public enum DeviceDeliveryOutcomeClass: String, Sendable, CaseIterable, Codable {
    case onTime = "on_time", late, replaced, dropped, throttled

    public init(_ outcome: DeviceDeliveryOutcome, onTimeMillis: Int64) {
        switch outcome {
        case let .displayed(after, _): self = after <= onTimeMillis ? .onTime : .late
        case .replaced: self = .replaced
        case .dropped: self = .dropped
        case .throttled: self = .throttled
        }
    }
}
