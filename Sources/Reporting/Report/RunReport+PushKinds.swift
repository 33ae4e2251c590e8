import APNsCore

extension RunReport.Events {
    /// One push rule's pushes (``RunReport/Events/pushRules``).
    public struct PushRule: Codable, Sendable, Equatable {
        /// The event kind and the rule's name (an event's only rule, unnamed, is `1`; the pushes `require:` planned
        /// for an event without push rules, `require`).
        public var kind: String
        public var rule: String
        public var planned: Int
        /// Handed to the sender.
        public var toSend: Int
        /// Not sent, by cause, where the workload planned them.
        public var notSent: [String: Int]

        public init(kind: String, rule: String, planned: Int, toSend: Int, notSent: [String: Int]) {
            self.kind = kind
            self.rule = rule
            self.planned = planned
            self.toSend = toSend
            self.notSent = notSent
        }

        /// Every rule of the tally that planned a push, by kind then rule name; nil when none did.
        static func all(_ t: EventTally) -> [PushRule]? {
            var out: [PushRule] = []
            for (kind, rules) in t.pushesByRule.sorted(by: { $0.key < $1.key }) {
                for (rule, planned) in rules.sorted(by: { $0.key < $1.key }) where planned > 0 {
                    let o = t.ruleOutcomes[kind]?[rule] ?? EventTally.RuleOutcome()
                    out.append(PushRule(kind: kind, rule: rule, planned: planned, toSend: o.toSend, notSent: o.notSent))
                }
            }
            return out.isEmpty ? nil : out
        }
    }
}

extension RunReport {
    /// One push kind of the run: the headers every push of it shares, and its pushes handed to the sender by priority.
    public struct PushKind: Codable, Sendable, Equatable {
        public var pushType: String
        public var topic: String
        /// `apns-expiration` in seconds after the run's start; nil: none, or each push's own (``expirationPerPush``).
        public var expirationSeconds: Int?
        /// Each push carries its own expiration (read from its event, or `expiration_at`).
        public var expirationPerPush: Bool?
        public var collapseID: String?
        /// Each push carries its own collapse id.
        public var collapseIDPerPush: Bool?
        /// Pushes handed to the sender, by priority (`"10"`).
        public var toSendByPriority: [String: Int]

        public init(_ kind: APNsCore.PushKind, toSendByPriority: [String: Int]) {
            let h = kind.headers
            pushType = kind.pushType.rawValue
            topic = kind.topic
            expirationSeconds = h.number(APNsHeaders.expiration)
            expirationPerPush = h.perPush.contains(APNsHeaders.expiration) ? true : nil
            collapseID = h.text(APNsHeaders.collapseID)
            collapseIDPerPush = h.perPush.contains(APNsHeaders.collapseID) ? true : nil
            self.toSendByPriority = toSendByPriority
        }

        /// The run's kinds that pushes were handed out for, in kind order; nil when there is none.
        public static func used(_ kinds: [APNsCore.PushKind], _ events: EventTally) -> [PushKind]? {
            let out = kinds.enumerated().compactMap { i, k -> PushKind? in
                guard let byPriority = events.toSendByKind[Int32(i)], !byPriority.isEmpty else { return nil }
                return PushKind(k, toSendByPriority: Dictionary(uniqueKeysWithValues: byPriority.map { (String($0.key), $0.value) }))
            }
            return out.isEmpty ? nil : out
        }
    }
}
