extension RunReport {
    /// What a sender controls, counted as its pushes went out: requests by push type, topic and priority, and
    /// the headers it set. A run counts the pushes it handed to the engine (not those due after its end); a
    /// sender's report (`apnsbench simulate --report`) every request received. `compare` judges each count
    /// exactly: a change in what is sent is never identical. Absent in reports written before it existed
    /// (compare then reads a sender's classes from ``Received/requests``).
    public struct Sends: Codable, Sendable, Equatable {
        /// Pushes (requests) counted.
        public var total: Int
        /// By push type, topic and priority, most first: the counts add up to ``total``.
        public var byClass: [SendClass]
        /// Of ``total``: those with `apns-expiration`.
        public var withExpiration: Int
        /// Of ``total``: those with `apns-collapse-id`.
        public var withCollapseID: Int
        /// Distinct `apns-collapse-id` values, counted up to ``SendTally/distinctCollapseIDLimit``.
        public var distinctCollapseIDs: Int

        public init(total: Int, byClass: [SendClass], withExpiration: Int, withCollapseID: Int, distinctCollapseIDs: Int) {
            self.total = total
            self.byClass = byClass
            self.withExpiration = withExpiration
            self.withCollapseID = withCollapseID
            self.distinctCollapseIDs = distinctCollapseIDs
        }
    }

    /// Pushes alike in their push type, topic and priority (absent headers are `-`).
    public struct SendClass: Codable, Sendable, Equatable, Hashable {
        public var pushType: String
        public var topic: String
        public var priority: String
        public var count: Int

        public init(pushType: String, topic: String, priority: String, count: Int) {
            self.pushType = pushType
            self.topic = topic
            self.priority = priority
            self.count = count
        }

        /// `alert com.example.app priority 10`: how compare names the class's row.
        public var label: String { "\(pushType) \(topic) priority \(priority)" }
    }

    /// The classes a report's sends are in: ``sends`` when it has them, else (a sender's report written before
    /// them) ``Received/requests`` added up over their answers; nil when neither is there.
    public var sendClasses: [SendClass]? {
        if let sends { return sends.byClass }
        guard let received else { return nil }
        var counts: [SendTally.Key: Int] = [:]
        for r in received.requests { counts[.init(pushType: r.pushType, topic: r.topic, priority: r.priority), default: 0] += r.count }
        return SendTally.classes(counts)
    }
}

extension RunReport.Sends {
    /// Shards' sends added up: classes and header counts exactly; distinct collapse ids summed over the shards
    /// (an id sent in two shards counts twice). Nil when no shard counted them.
    public static func merged(_ parts: [RunReport.Sends]) -> RunReport.Sends? {
        guard !parts.isEmpty else { return nil }
        var counts: [SendTally.Key: Int] = [:]
        for c in parts.flatMap(\.byClass) { counts[.init(pushType: c.pushType, topic: c.topic, priority: c.priority), default: 0] += c.count }
        return RunReport.Sends(total: parts.reduce(0) { $0 + $1.total }, byClass: SendTally.classes(counts),
                               withExpiration: parts.reduce(0) { $0 + $1.withExpiration }, withCollapseID: parts.reduce(0) { $0 + $1.withCollapseID },
                               distinctCollapseIDs: parts.reduce(0) { $0 + $1.distinctCollapseIDs })
    }
}
