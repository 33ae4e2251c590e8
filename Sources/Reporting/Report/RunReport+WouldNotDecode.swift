import APNsCore

extension RunReport {
    /// Delivered, would not decode on device: Live Activity pushes APNs answered 200 whose payload the app's
    /// ActivityKit model does not decode (`content-state`, and `attributes` for a start), so the device drops
    /// them without a trace. A terminal sub-class of `pushes.delivered`: ``total`` ≤ `delivered`, and the
    /// push classes still add up to `planned` with `delivered` counting every 200.
    ///
    /// ```json
    /// "wouldNotDecode": { "total": 412, "byField": {"content-state.responseTime: badDate": 412},
    ///                     "checked": 686, "failedCheck": 686, "notChecked": 0, "checkedPartly": 0, "uncheckedParts": [],
    ///                     "samples": [{"token": "80b3…5f3c", "event": "update", "failures": ["…"], "payload": "{…}"}] }
    /// ```
    public struct WouldNotDecode: Codable, Sendable, Equatable {
        /// The most samples a report keeps.
        public static let sampleLimit = 5

        /// Delivered pushes that would not decode.
        public var total: Int
        /// Of those, by failure, `path: reason` (`content-state.responseTime: badDate`; array places written
        /// `[]`): a push failing in two places counts under both.
        public var byField: [String: Int]
        /// Live Activity pushes checked, whatever became of them.
        public var checked: Int
        /// Of those, the pushes that would not decode, whatever became of them (delivered or not).
        public var failedCheck: Int
        /// Live Activity pushes not checked: their payload names no event (`aps.event`) the device acts on.
        public var notChecked: Int
        /// Up to ``sampleLimit`` delivered pushes that would not decode, one per failure set first.
        public var samples: [ContractFindings.Sample]
        /// Of ``checked``, the pushes checked only partly (some values left to ``uncheckedParts``); the rest were
        /// checked fully. Nil in reports written before the count existed.
        public var checkedPartly: Int?
        /// The parts of the model that are not checked, because how they decode cannot be known from the model
        /// file: `Attributes: Type (line N): why`.
        public var uncheckedParts: [String]?

        public init(total: Int, byField: [String: Int], checked: Int, failedCheck: Int, notChecked: Int, samples: [ContractFindings.Sample],
                    checkedPartly: Int? = nil, uncheckedParts: [String]? = nil) {
            self.total = total
            self.byField = byField
            self.checked = checked
            self.failedCheck = failedCheck
            self.notChecked = notChecked
            self.samples = samples
            self.checkedPartly = checkedPartly
            self.uncheckedParts = uncheckedParts
        }

        /// Of ``checked``, the pushes checked fully.
        public var checkedFully: Int { checked - (checkedPartly ?? 0) }

        /// The report's view of what the check found (on the producer's side) and which failing pushes the
        /// recorders saw delivered.
        public init(findings: ContractFindings, delivered: WouldNotDecodeTally) {
            var byField: [String: Int] = [:]
            for (set, count) in delivered.bySet where Int(set) < findings.failureSets.count {
                for key in findings.failureSets[Int(set)] { byField[key, default: 0] += count }
            }
            // One sample per failure set first, in the order they were planned; then the rest, up to the limit.
            let kept = delivered.deliveredSamples.sorted().filter { Int($0) < findings.samples.count }
            var chosen: [Int32] = []
            var sets = Set<Int32>()
            for s in kept where chosen.count < Self.sampleLimit && sets.insert(findings.sampleSets[Int(s)]).inserted { chosen.append(s) }
            for s in kept where chosen.count < Self.sampleLimit && !chosen.contains(s) { chosen.append(s) }
            self.init(total: delivered.total, byField: byField, checked: findings.checked, failedCheck: findings.failing,
                      notChecked: findings.notChecked, samples: chosen.sorted().map { findings.samples[Int($0)] },
                      checkedPartly: findings.checkedPartly, uncheckedParts: findings.uncheckedParts)
        }

        /// The share of `delivered` pushes that would not decode; 0 when nothing was delivered.
        public func share(ofDelivered delivered: Int) -> Double { delivered > 0 ? Double(total) / Double(delivered) : 0 }

        /// Both sides' counts added, the samples kept up to the limit (shards of one run).
        public static func + (a: WouldNotDecode, b: WouldNotDecode) -> WouldNotDecode {
            WouldNotDecode(total: a.total + b.total, byField: a.byField.merging(b.byField, uniquingKeysWith: +),
                           checked: a.checked + b.checked, failedCheck: a.failedCheck + b.failedCheck, notChecked: a.notChecked + b.notChecked,
                           samples: Array((a.samples + b.samples).prefix(sampleLimit)),
                           checkedPartly: a.checkedPartly.map { $0 + (b.checkedPartly ?? 0) } ?? b.checkedPartly,
                           uncheckedParts: a.uncheckedParts ?? b.uncheckedParts)
        }
    }
}
