/// What a recipe's backend keeps between events: entities by type and key (a token, kept fields, the groups
/// they follow, the broadcast key they subscribed to) and each group key's members in registration order, so
/// a fan-out's order is the order devices registered in.
///
/// The entities live in one array (`slots`) that a key's index points into, so a push's writes (`remember`)
/// change an entity in place: writing through a dictionary's subscript allocates for each write.
///
/// Memory grows with the number of entities and memberships, not with the number of events.
struct RecipeState {
    struct Entity {
        var token: String?
        var fields: [RecipeValue]
        var groups: [GroupKey]
        var subscription: EntityKey?
    }

    /// Per entity type, by key: the entity's place in `slots`.
    private var index: [[EntityKey: Int]]
    /// The entities; a removed entity's place is reused by the next one created.
    private var slots: [Entity] = []
    private var freeSlots: [Int] = []
    /// Entity ids following each group key, in registration order.
    private var members: [GroupKey: [EntityKey]] = [:]
    /// Broadcast group key → entities subscribed to its channel.
    private var subscribers: [EntityKey: Set<EntityKey>] = [:]
    /// Tokens replaced by a newer one: never pushed to again.
    private(set) var retiredTokens = 0
    /// `aps.timestamp` per token, strictly increasing.
    var timestamps = MonotonicTimestamps()
    private let fieldCounts: [Int]

    init(fieldCounts: [Int]) {
        self.fieldCounts = fieldCounts
        index = Array(repeating: [:], count: fieldCounts.count)
    }

    /// The entity's place, for ``field(_:_:)``; nil: no such entity.
    func slot(_ type: Int, _ key: EntityKey) -> Int? { index[type][key] }

    /// A kept field of the entity at `slot`, read in place.
    func field(_ slot: Int, _ field: Int) -> RecipeValue { slots[slot].fields[field] }

    /// The entity's token, read in place.
    func token(_ type: Int, _ key: EntityKey) -> String? { index[type][key].flatMap { slots[$0].token } }

    func members(of group: GroupKey) -> [EntityKey] { members[group] ?? [] }

    func subscribers(of key: EntityKey) -> Set<EntityKey> { subscribers[key] ?? [] }

    /// Creates the entity if it is new (without a token or fields).
    mutating func ensure(_ type: Int, _ key: EntityKey) {
        guard index[type][key] == nil else { return }
        let entity = Entity(token: nil, fields: Array(repeating: .absent, count: fieldCounts[type]), groups: [], subscription: nil)
        if let slot = freeSlots.popLast() {
            slots[slot] = entity
            index[type][key] = slot
        } else {
            index[type][key] = slots.count
            slots.append(entity)
        }
    }

    /// Sets the entity's token; a different one replaces the old for good.
    mutating func setToken(_ type: Int, _ key: EntityKey, _ token: String) {
        guard let slot = index[type][key] else { return }
        if let old = slots[slot].token, old != token {
            retiredTokens += 1
            timestamps.forget(old)
        }
        slots[slot].token = token
    }

    mutating func setField(_ type: Int, _ key: EntityKey, _ field: Int, _ value: RecipeValue) {
        guard let slot = index[type][key] else { return }
        slots[slot].fields[field] = value
    }

    /// Replaces the entity's memberships: it leaves the groups it no longer names and joins the new ones at
    /// the end of their order; groups it stays in keep its place.
    mutating func setGroups(_ type: Int, _ key: EntityKey, _ groups: [GroupKey]) {
        guard let slot = index[type][key] else { return }
        let old = slots[slot].groups
        for g in old where !groups.contains(g) { members[g]?.removeAll { $0 == key } }
        var joined = Set<GroupKey>()
        for g in groups where !old.contains(g) && joined.insert(g).inserted { members[g, default: []].append(key) }
        slots[slot].groups = groups
    }

    /// The entity's activity subscribes to `channel`'s broadcasts (nil: to none), replacing an earlier one.
    mutating func subscribe(_ type: Int, _ key: EntityKey, to channel: EntityKey?) {
        guard let slot = index[type][key] else { return }
        if let old = slots[slot].subscription, old != channel {
            subscribers[old]?.remove(key)
            slots[slot].subscription = nil
        }
        guard let channel else { return }
        slots[slot].subscription = channel
        subscribers[channel, default: []].insert(key)
    }

    /// Every subscription to `channel` ends (its activities are over).
    mutating func endSubscriptions(_ type: Int, of channel: EntityKey) {
        for key in subscribers.removeValue(forKey: channel) ?? [] {
            if let slot = index[type][key] { slots[slot].subscription = nil }
        }
    }

    /// Removes the entity: its token is not used again.
    mutating func remove(_ type: Int, _ key: EntityKey) {
        guard let slot = index[type].removeValue(forKey: key) else { return }
        let old = slots[slot]
        slots[slot] = Entity(token: nil, fields: [], groups: [], subscription: nil)
        freeSlots.append(slot)
        for g in old.groups { members[g]?.removeAll { $0 == key } }
        if let s = old.subscription { subscribers[s]?.remove(key) }
        if let t = old.token { timestamps.forget(t) }
    }
}
