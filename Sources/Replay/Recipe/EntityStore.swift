/// What a recipe's backend keeps between events: entities by type and key (a token, kept fields, the groups
/// they follow, the broadcast key they subscribed to) and each group key's members in registration order, so
/// a fan-out's order is the order devices registered in.
///
/// The entities live in one array; a key's index points into it, and group members and subscribers are held
/// by their place there. So a fan-out walks its members without hashing a key per push, and a push's writes
/// (`remember`) change an entity in place. A place freed by a removal is reused by a later entity, never
/// while a fan-out that named it is in progress (no event is applied until a fan-out is done).
///
/// An event's changes are a transaction: between ``begin()`` and ``commit()`` each change is journaled, and
/// ``rollBack()`` undoes them newest first, leaving the state exactly as the event found it (a group's order
/// included). EntityStore+Journal.swift holds the journal.
///
/// Memory grows with the number of entities and memberships, not with the number of events.
struct EntityStore {
    struct Entity {
        /// Nil for a freed place.
        var key: EntityKey?
        var token: String?
        var fields: [RecipeValue]
        var groups: [GroupKey]
        var subscription: EntityKey?
    }

    /// Per entity type: key → place in `entities`.
    var index: [[EntityKey: Int]]
    var entities: [Entity] = []
    var freePlaces: [Int] = []
    /// Places of the entities following each group key, in registration order.
    var members: [GroupKey: [Int]] = [:]
    /// Broadcast group key → places of the entities subscribed to its channel.
    var subscribers: [EntityKey: Set<Int>] = [:]
    /// Tokens replaced by a newer one: never pushed to again.
    var retiredTokens = 0
    /// While an event is applied (``begin()``): how to undo each of its changes, oldest first.
    var journal: [Undo] = []
    var journaling = false
    /// `aps.timestamp` per token, strictly increasing.
    var timestamps = MonotonicTimestamps()
    private let fieldCounts: [Int]

    init(fieldCounts: [Int]) {
        self.fieldCounts = fieldCounts
        index = Array(repeating: [:], count: fieldCounts.count)
    }

    /// The entity's place, or nil when there is none of that type and key.
    func place(_ type: Int, _ key: EntityKey) -> Int? { index[type][key] }

    /// Whether a place holds an entity (it may have been removed since it was named).
    func isLive(_ place: Int) -> Bool { entities[place].key != nil }

    func key(_ place: Int) -> EntityKey? { entities[place].key }

    func token(_ place: Int) -> String? { entities[place].token }

    func field(_ place: Int, _ field: Int) -> RecipeValue { entities[place].fields[field] }

    func members(of group: GroupKey) -> [Int] { members[group] ?? [] }

    func subscribers(of key: EntityKey) -> Set<Int> { subscribers[key] ?? [] }

    /// The entity's place, made (without a token or fields) when it is new.
    mutating func ensure(_ type: Int, _ key: EntityKey) -> Int {
        if let place = index[type][key] { return place }
        let entity = Entity(key: key, token: nil, fields: Array(repeating: .absent, count: fieldCounts[type]), groups: [], subscription: nil)
        let place: Int
        let reused = !freePlaces.isEmpty
        if let free = freePlaces.popLast() {
            place = free
            entities[place] = entity
        } else {
            place = entities.count
            entities.append(entity)
        }
        index[type][key] = place
        log(.made(type: type, key: key, place: place, reused: reused))
        return place
    }

    /// Sets the entity's token; a different one replaces the old for good.
    mutating func setToken(_ place: Int, _ token: String) {
        log(.token(place: place, old: entities[place].token))
        if let old = entities[place].token, old != token {
            retiredTokens += 1
            log(.retired)
            log(.forgot(old, timestamp: timestamps.forget(old)))
        }
        entities[place].token = token
    }

    mutating func setField(_ place: Int, _ field: Int, _ value: RecipeValue) {
        log(.field(place: place, field: field, old: entities[place].fields[field]))
        entities[place].fields[field] = value
    }

    /// Replaces the entity's memberships: it leaves the groups it no longer names and joins the new ones at
    /// the end of their order; groups it stays in keep its place.
    mutating func setGroups(_ place: Int, _ groups: [GroupKey]) {
        let old = entities[place].groups
        log(.groups(place: place, old: old))
        for g in old where !groups.contains(g) { leave(g, place) }
        var joined = Set<GroupKey>()
        for g in groups where !old.contains(g) && joined.insert(g).inserted {
            members[g, default: []].append(place)
            log(.joined(g))
        }
        entities[place].groups = groups
    }

    /// The entity joins the group key, last in its order (nothing when it is a member already).
    mutating func join(_ place: Int, _ group: GroupKey) {
        guard !entities[place].groups.contains(group) else { return }
        log(.groups(place: place, old: entities[place].groups))
        entities[place].groups.append(group)
        members[group, default: []].append(place)
        log(.joined(group))
    }

    /// The entity leaves the group key (nothing when it is no member).
    mutating func leaveGroup(_ place: Int, _ group: GroupKey) {
        guard let i = entities[place].groups.firstIndex(of: group) else { return }
        log(.groups(place: place, old: entities[place].groups))
        entities[place].groups.remove(at: i)
        leave(group, place)
    }

    /// The entity's activity subscribes to `channel`'s broadcasts (nil: to none), replacing an earlier one.
    mutating func subscribe(_ place: Int, to channel: EntityKey?) {
        log(.subscription(place: place, old: entities[place].subscription))
        if let old = entities[place].subscription, old != channel {
            unsubscribe(place, from: old)
            entities[place].subscription = nil
        }
        guard let channel else { return }
        entities[place].subscription = channel
        if subscribers[channel, default: []].insert(place).inserted { log(.subscribed(channel, place: place)) }
    }

    /// Every subscription to `channel` ends (its activities are over).
    mutating func endSubscriptions(of channel: EntityKey) {
        for place in subscribers.removeValue(forKey: channel) ?? [] {
            log(.subscription(place: place, old: entities[place].subscription))
            log(.unsubscribed(channel, place: place))
            entities[place].subscription = nil
        }
    }

    /// Removes the entity: its token is not used again, and its place is free.
    mutating func remove(_ type: Int, _ place: Int) {
        guard let key = entities[place].key else { return }
        index[type].removeValue(forKey: key)
        let old = entities[place]
        log(.removed(type: type, entity: old, place: place))
        entities[place] = Entity(key: nil, token: nil, fields: [], groups: [], subscription: nil)
        freePlaces.append(place)
        for g in old.groups { leave(g, place) }
        if let s = old.subscription { unsubscribe(place, from: s) }
        if let t = old.token { log(.forgot(t, timestamp: timestamps.forget(t))) }
    }
}
