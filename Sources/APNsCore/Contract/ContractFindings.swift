/// What the device-contract check found among the Live Activity pushes it checked: how many it checked,
/// the distinct sets of failures, and the first failing pushes kept as samples.
///
/// The check runs where pushes are planned, on the producer's thread, and marks each failing push with the
/// index of its failure set and of its sample (``OutgoingPush/contractFailure``,
/// ``OutgoingPush/contractSample``). The recorders count which of those were delivered
/// (``WouldNotDecodeTally``); the report joins the two once the run is over. Memory stays bounded: at most
/// ``failureSetLimit`` sets (further ones share one overflow set) and ``sampleLimit`` samples.
public struct ContractFindings: Sendable, Equatable {
    /// Distinct failure sets kept; a push whose set is new beyond this counts under ``overflowKey``.
    public static let failureSetLimit = 256
    /// The key of the set every failure beyond ``failureSetLimit`` distinct sets counts under.
    public static let overflowKey = "(other failures: more distinct sets than the report keeps)"
    /// Samples kept in all, and for any one failure set.
    public static let sampleLimit = 64
    public static let samplesPerSet = 5
    /// A sample's payload text is cut to this many characters.
    public static let payloadExcerptLimit = 600

    /// One failing push as kept for the report: its token redacted, its payload cut and tokens redacted.
    public struct Sample: Codable, Sendable, Equatable {
        /// The device token, redacted (``DeviceToken/redacted(_:)``).
        public var token: String
        /// The `aps.event` it was checked as; nil for a payload that is not JSON the device reads.
        public var event: String?
        /// Each reason it would not decode: `content-state.responseTime: badDate: expected Date (…), found string "…"`.
        public var failures: [String]
        /// The payload's text, cut to ``ContractFindings/payloadExcerptLimit`` characters, tokens replaced by `<token>`.
        public var payload: String
        /// The push's own values of the headers kept in samples (``APNsHeader/inReportSamples``), by header name;
        /// nil when it carried none.
        public var headers: [String: String]?

        public init(token: String, event: String?, failures: [String], payload: String, headers: [String: String]? = nil) {
            self.token = token
            self.event = event
            self.failures = failures
            self.payload = payload
            self.headers = headers
        }

        /// The values `push` carries itself of the headers kept in samples; nil when it carries none.
        public static func headers(of push: OutgoingPush) -> [String: String]? {
            var out: [String: String] = [:]
            for row in APNsHeaders.perPush where row.inReportSamples {
                let value = push.headers[row]
                if !value.text.isEmpty { out[row.name] = String(decoding: value.text, as: UTF8.self) }
            }
            return out.isEmpty ? nil : out
        }
    }

    /// Live Activity pushes checked against the model (each push the workload handed on, sent or not later).
    public private(set) var checked = 0
    /// Of those, the pushes that would not decode.
    public private(set) var failing = 0
    /// Live Activity pushes whose payload names no event the device acts on (no `aps.event` of `update`,
    /// `end` or `start`): not checked. APNs requires the key.
    public private(set) var notChecked = 0
    /// Of ``checked``, the pushes checked only partly: some of their values were left to parts of the model
    /// whose decoding cannot be known from its declarations (``uncheckedParts``).
    public private(set) var checkedPartly = 0
    /// The parts of the models that are not checked, each `Type (line N): why`, with its file's name.
    public var uncheckedParts: [String] = []
    /// The distinct failure sets, by index: each the keys `path: reason` of one push's failures, in order.
    public private(set) var failureSets: [[String]] = []
    /// The samples, by index.
    public private(set) var samples: [Sample] = []
    /// Each sample's failure set, by the sample's index.
    public private(set) var sampleSets: [Int32] = []
    private var setIndex: [[String]: Int32] = [:]
    private var samplesPerSetCount: [Int] = []

    public init() {}

    /// Counts a push whose payload would decode; `partly`: as far as it was checked.
    public mutating func recordDecodes(partly: Bool = false) {
        checked += 1
        if partly { checkedPartly += 1 }
    }

    /// Counts a push that could not be checked (no event).
    public mutating func recordNotChecked() { notChecked += 1 }

    /// Counts a push that would not decode, with its failure keys (`path: reason`, at least one); `partly`:
    /// it was checked only partly. `sample` is called only when the push is kept as a sample.
    /// - Returns: the indexes the push carries: its failure set, and its sample or -1.
    public mutating func recordFailing(keys: [String], partly: Bool = false, sample: () -> Sample) -> (set: Int32, sample: Int32) {
        checked += 1
        failing += 1
        if partly { checkedPartly += 1 }
        let set: Int32
        if let known = setIndex[keys] {
            set = known
        } else if failureSets.count < Self.failureSetLimit {
            set = Int32(failureSets.count)
            failureSets.append(keys)
            samplesPerSetCount.append(0)
            setIndex[keys] = set
        } else {
            set = Int32(Self.failureSetLimit)
            if failureSets.count == Self.failureSetLimit {
                failureSets.append([Self.overflowKey])
                samplesPerSetCount.append(0)
            }
        }
        guard samples.count < Self.sampleLimit, samplesPerSetCount[Int(set)] < Self.samplesPerSet else { return (set, -1) }
        samplesPerSetCount[Int(set)] += 1
        samples.append(sample())
        sampleSets.append(set)
        return (set, Int32(samples.count - 1))
    }
}

/// Delivered pushes the device would not decode, counted by the recorder that saw each delivered
/// (``OutcomeSink/recordWouldNotDecode(_:)``): by failure set, and which kept samples were among them.
/// Merged with ``+(_:_:)`` (one recorder per worker). Recording does not allocate once a set has been seen.
public struct WouldNotDecodeTally: Sendable, Equatable {
    /// Delivered pushes that would not decode.
    public private(set) var total = 0
    /// The same, by the index of their failure set (``ContractFindings/failureSets``).
    public private(set) var bySet: [Int32: Int] = [:]
    /// The samples (``ContractFindings/samples``) that were delivered.
    public private(set) var deliveredSamples: Set<Int32> = []

    public init() {}

    /// Counts a delivered push with failure set `set` and sample `sample` (-1: none).
    public mutating func record(set: Int32, sample: Int32) {
        total += 1
        if let i = bySet.index(forKey: set) { bySet.values[i] += 1 } else { bySet[set] = 1 }
        if sample >= 0 { deliveredSamples.insert(sample) }
    }

    public static func + (a: WouldNotDecodeTally, b: WouldNotDecodeTally) -> WouldNotDecodeTally {
        var s = a
        s.total += b.total
        s.bySet.merge(b.bySet, uniquingKeysWith: +)
        s.deliveredSamples.formUnion(b.deliveredSamples)
        return s
    }
}
