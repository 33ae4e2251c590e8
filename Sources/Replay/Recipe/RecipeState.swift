/// What a recipe's backend keeps between events: entities by type and key (a token, kept fields, the groups
/// they follow, the broadcast key they subscribed to) and each group key's members in registration order, so
/// a fan-out's order is the order devices registered in.
///
/// Memory grows with the number of entities and memberships, not with the number of events.
struct RecipeState {
    struct Entity {
        var token: String?
        var fields: [RecipeValue]
        var groups: [GroupKey]
        var subscription: EntityKey?
    }

    /// Per entity type, by key.
    private(set) var entities: [[EntityKey: Entity]]
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
        entities = Array(repeating: [:], count: fieldCounts.count)
    }

    func entity(_ type: Int, _ key: EntityKey) -> Entity? { entities[type][key] }

    func members(of group: GroupKey) -> [EntityKey] { members[group] ?? [] }

    func subscribers(of key: EntityKey) -> Set<EntityKey> { subscribers[key] ?? [] }

    /// Creates the entity if it is new (without a token or fields).
    mutating func ensure(_ type: Int, _ key: EntityKey) {
        if entities[type][key] == nil {
            entities[type][key] = Entity(token: nil, fields: Array(repeating: .absent, count: fieldCounts[type]), groups: [], subscription: nil)
        }
    }

    /// Sets the entity's token; a different one replaces the old for good.
    mutating func setToken(_ type: Int, _ key: EntityKey, _ token: String) {
        guard let old = entities[type][key]?.token else {
            entities[type][key]?.token = token
            return
        }
        if old != token {
            retiredTokens += 1
            timestamps.forget(old)
        }
        entities[type][key]?.token = token
    }

    mutating func setField(_ type: Int, _ key: EntityKey, _ field: Int, _ value: RecipeValue) {
        entities[type][key]?.fields[field] = value
    }

    /// Replaces the entity's memberships: it leaves the groups it no longer names and joins the new ones at
    /// the end of their order; groups it stays in keep its place.
    mutating func setGroups(_ type: Int, _ key: EntityKey, _ groups: [GroupKey]) {
        guard let old = entities[type][key]?.groups else { return }
        for g in old where !groups.contains(g) { members[g]?.removeAll { $0 == key } }
        var joined = Set<GroupKey>()
        for g in groups where !old.contains(g) && joined.insert(g).inserted { members[g, default: []].append(key) }
        entities[type][key]?.groups = groups
    }

    /// The entity's activity subscribes to `channel`'s broadcasts (nil: to none), replacing an earlier one.
    mutating func subscribe(_ type: Int, _ key: EntityKey, to channel: EntityKey?) {
        guard let entity = entities[type][key] else { return }
        if let old = entity.subscription, old != channel {
            subscribers[old]?.remove(key)
            entities[type][key]?.subscription = nil
        }
        guard let channel else { return }
        entities[type][key]?.subscription = channel
        subscribers[channel, default: []].insert(key)
    }

    /// Every subscription to `channel` ends (its activities are over).
    mutating func endSubscriptions(_ type: Int, of channel: EntityKey) {
        for key in subscribers.removeValue(forKey: channel) ?? [] { entities[type][key]?.subscription = nil }
    }

    /// Removes the entity: its token is not used again.
    mutating func remove(_ type: Int, _ key: EntityKey) {
        guard let old = entities[type].removeValue(forKey: key) else { return }
        for g in old.groups { members[g]?.removeAll { $0 == key } }
        if let s = old.subscription { subscribers[s]?.remove(key) }
        if let t = old.token { timestamps.forget(t) }
    }
}
