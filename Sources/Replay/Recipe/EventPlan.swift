import APNsCore

/// What one event planned: an entry per push rule whose condition held, in rule order, each with whom it
/// pushes to and the values that are the same for all of its pushes. ``RecipeRules`` fills one, reused from
/// event to event, when an event is applied, and hands its pushes out entry by entry.
struct EventPlan {
    /// Whom one rule's pushes go to.
    enum Recipients {
        /// Every place in ``Entry/members`` (a fan-out), handed out from ``Entry/next``.
        case members
        case token(String)
        /// An entity's place in the state.
        case entity(Int)
        case broadcast(BroadcastChannels.Channel, reach: Int)
        case notSent(NotSentCause)
    }

    struct Entry {
        /// The rule (``Recipe/PushRule/index``), or ``noRule``.
        var rule: Int
        /// The rule of an event without push rules whose required entity is missing (its one push not sent).
        static let noRule = -1
        var recipients: Recipients
        /// A fan-out's recipients' places in the state (shared with the state's member list, not copied).
        var members: [Int] = []
        /// How many pushes it planned.
        var count = 1
        /// The next push to hand out.
        var next = 0
        var priority: Priority
        var liveEvent: String
        /// Its pushes' push kind (an index into ``Recipe/pushKinds``).
        var kind: Int32
        /// The rule's `apns-expiration` read for this event (seconds after the run's start); -1: none.
        var expirationSeconds = -1
        /// Its priority is the rule's or the event's own, not the profile's (`--priority` does not reach it).
        var ownPriority = false
        /// Which of the rule's own text headers read for this event have a value (in ``RecipeRules/headerTexts``),
        /// a bit per place in ``Recipe/PushRule/texts``.
        var textsPresent: UInt8 = 0

        var done: Bool { next >= count }
    }

    var entries: [Entry] = []
    /// The entry being handed out.
    var current = 0

    mutating func reset() {
        entries.removeAll(keepingCapacity: true)
        current = 0
    }
}
