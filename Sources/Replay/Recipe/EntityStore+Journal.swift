/// The journal that makes an event's changes to the state a transaction: each change logs how to undo it
/// while an event is applied; a bad line rolls them back, newest first.
extension EntityStore {
    /// How to undo one change.
    enum Undo {
        /// An entity was made at `place` (`reused`: a freed place, else appended at the end).
        case made(type: Int, key: EntityKey, place: Int, reused: Bool)
        case token(place: Int, old: String?)
        case field(place: Int, field: Int, old: RecipeValue)
        case groups(place: Int, old: [GroupKey])
        /// `place` was appended to the group's members.
        case joined(GroupKey)
        /// `place` left the group's members at `at`.
        case left(GroupKey, at: Int, place: Int)
        case subscription(place: Int, old: EntityKey?)
        case subscribed(EntityKey, place: Int)
        case unsubscribed(EntityKey, place: Int)
        /// The entity at `place` was removed (its key, fields and token as they were).
        case removed(type: Int, entity: Entity, place: Int)
        /// A token was forgotten by the Live Activity timestamps, which held `timestamp` for it.
        case forgot(String, timestamp: Int?)
        /// A token was counted as retired.
        case retired
    }

    /// The event's changes start: each is journaled until ``commit()`` or ``rollBack()``.
    mutating func begin() {
        journal.removeAll(keepingCapacity: true)
        journaling = true
    }

    /// The event succeeded: its changes stay.
    mutating func commit() {
        journal.removeAll(keepingCapacity: true)
        journaling = false
    }

    /// The event failed: every change it made is undone, newest first.
    mutating func rollBack() {
        journaling = false
        while let change = journal.popLast() { undo(change) }
    }

    mutating func log(_ change: Undo) {
        if journaling { journal.append(change) }
    }

    /// `place` leaves the group's members.
    mutating func leave(_ group: GroupKey, _ place: Int) {
        guard let at = members[group]?.firstIndex(of: place) else { return }
        members[group]?.remove(at: at)
        log(.left(group, at: at, place: place))
    }

    mutating func unsubscribe(_ place: Int, from channel: EntityKey) {
        if subscribers[channel]?.remove(place) != nil { log(.unsubscribed(channel, place: place)) }
    }

    private mutating func undo(_ change: Undo) {
        switch change {
        case let .made(type, key, place, reused):
            index[type].removeValue(forKey: key)
            if reused {
                entities[place] = Entity(key: nil, token: nil, fields: [], groups: [], subscription: nil)
                freePlaces.append(place)
            } else {
                entities.removeLast()
            }
        case let .token(place, old): entities[place].token = old
        case let .field(place, field, old): entities[place].fields[field] = old
        case let .groups(place, old): entities[place].groups = old
        case let .joined(group): members[group]?.removeLast()
        case let .left(group, at, place): members[group, default: []].insert(place, at: at)
        case let .subscription(place, old): entities[place].subscription = old
        case let .subscribed(channel, place): subscribers[channel]?.remove(place)
        case let .unsubscribed(channel, place): subscribers[channel, default: []].insert(place)
        case let .removed(type, entity, place):
            if let key = entity.key { index[type][key] = place }
            entities[place] = entity
            if let i = freePlaces.lastIndex(of: place) { freePlaces.remove(at: i) }
        case let .forgot(token, timestamp): timestamps.restore(token, timestamp)
        case .retired: retiredTokens -= 1
        }
    }
}
