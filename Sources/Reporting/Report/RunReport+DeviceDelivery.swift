import APNsCore
import DeviceDelivery

extension RunReport {
    /// The pushes a priority override (`configuration.payload.priorityOverride`) reached: those in its scope,
    /// and of them the ones sent at another priority than their events chose.
    public struct PriorityOverrideCount: Codable, Sendable, Equatable {
        public var reached: Int
        public var changed: Int
        public init(reached: Int, changed: Int) {
            self.reached = reached
            self.changed = changed
        }
    }

    /// The device side of delivery (present when the run modelled it): what the devices did with the pushes
    /// APNs accepted, judged in the recording's time by ``DeviceDeliveryModel``, so that a replay at any speed gives
    /// the same section. Every delivered push is in exactly one of ``outcomes``.
    public struct DeviceDelivery: Codable, Sendable, Equatable {
        /// The model's parameters (Apple's statements and this tool's assumptions; docs/simulator.md).
        public var parameters: DeviceDeliveryParameters
        /// Pushes the model was given: the run's delivered pushes.
        public var pushes: Int
        /// By ``DeviceDeliveryOutcomeClass`` (`on_time`, `late`, `replaced`, `dropped`, `throttled`).
        public var outcomes: [String: Int]
        /// Replaced pushes by cause (`collapse`, `newer_stored`), dropped ones by cause (`expired`, `not_stored`,
        /// `activity_ended`).
        public var replaced: [String: Int]
        public var dropped: [String: Int]
        /// Displayed pushes shown after their `stale-date`.
        public var shownStale: Int
        /// Time to device (from the intended send, in ms of recorded time) of displayed pushes, by priority
        /// and by push type: summaries, and the encoded histograms they come from (``EncodedHistogram``).
        public var timeToDevice: TimeToDevice

        public struct TimeToDevice: Codable, Sendable, Equatable {
            public var byPriority: [String: LatencySummary]
            public var byPushType: [String: LatencySummary]
            public var histograms: Histograms

            public struct Histograms: Codable, Sendable, Equatable {
                public var byPriority: [String: String]
                public var byPushType: [String: String]
            }
        }

        /// The share of modelled pushes in `outcome`, 0 with none.
        public func share(_ outcome: DeviceDeliveryOutcomeClass) -> Double {
            pushes == 0 ? 0 : Double(outcomes[outcome.rawValue] ?? 0) / Double(pushes)
        }
    }
}
