/// Counts what a sender controls, push by push (``RunReport/Sends``): its class (push type, topic, priority)
/// and the headers it set. One tally per thread; tallies add up with `+`.
public struct SendTally: Sendable, Equatable {
    /// Distinct collapse ids are kept up to this many; past it the count stays there.
    public static let distinctCollapseIDLimit = 100_000

    public struct Key: Hashable, Sendable {
        public var pushType: String, topic: String, priority: String
        public init(pushType: String, topic: String, priority: String) {
            self.pushType = pushType
            self.topic = topic
            self.priority = priority
        }
    }

    public private(set) var counts: [Key: Int] = [:]
    public private(set) var withExpiration = 0
    public private(set) var withCollapseID = 0
    public private(set) var collapseIDs: Set<String> = []

    public init() {}

    /// One push of class `key`; `collapseID` is its `apns-collapse-id` (nil: none).
    public mutating func record(_ key: Key, expiration: Bool, collapseID: String?) {
        counts[key, default: 0] += 1
        if expiration { withExpiration += 1 }
        guard let collapseID else { return }
        withCollapseID += 1
        if collapseIDs.count < Self.distinctCollapseIDLimit { collapseIDs.insert(collapseID) }
    }

    public static func + (a: SendTally, b: SendTally) -> SendTally {
        var out = a
        out.counts.merge(b.counts, uniquingKeysWith: +)
        out.withExpiration += b.withExpiration
        out.withCollapseID += b.withCollapseID
        for id in b.collapseIDs where out.collapseIDs.count < distinctCollapseIDLimit { out.collapseIDs.insert(id) }
        return out
    }

    /// The report's section.
    public var section: RunReport.Sends {
        RunReport.Sends(total: counts.values.reduce(0, +), byClass: Self.classes(counts), withExpiration: withExpiration,
                        withCollapseID: withCollapseID, distinctCollapseIDs: collapseIDs.count)
    }

    /// Classes, most first, then by name.
    static func classes(_ counts: [Key: Int]) -> [RunReport.SendClass] {
        counts.map { RunReport.SendClass(pushType: $0.key.pushType, topic: $0.key.topic, priority: $0.key.priority, count: $0.value) }
            .sorted { ($1.count, $0.pushType, $0.topic, $0.priority) < ($0.count, $1.pushType, $1.topic, $1.priority) }
    }
}
