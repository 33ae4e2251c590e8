/// One APNs request header apnsbench sends: a row of ``APNsHeaders/all``. The row says where the header's value
/// comes from, how it is checked, and how the engine, `plan --out` and the report write it; every layer reads
/// the rows instead of naming the header.
public struct APNsHeader: Sendable {
    /// Where a header's value may come from.
    public enum Source: String, Sendable, CaseIterable {
        /// A profile key, the same for the whole run.
        case profile
        /// A constant in a recipe's push rule (or a table from a field's value to constants).
        case recipeConstant = "recipe constant"
        /// An event's field, read once per event (`{from: FIELD}`).
        case field
        /// An expression over the event, read once per event (`{expr: …}`).
        case expression
        /// Text around fields (`parcel-{{parcel_id}}`), written once per event.
        case format
        /// Made for each push (`per_push`), by ``Value/generate(seed:into:)``.
        case perPush = "per_push"
    }

    /// Where a push's value is kept on its way to the wire.
    public enum Carrier: Sendable, Equatable {
        /// The push kind's (``PushKind``): the same for every push of a kind, in its prebuilt list.
        case kind
        /// ``OutgoingPush/priority``: one prebuilt list per kind and priority.
        case priority
        /// A kind's constant in its prebuilt list, or each push's own value (``OutgoingPush/headers``, at this
        /// slot) for a kind whose value comes from each push (``HeaderConstants/perPush``).
        case slot(Int)
    }

    /// What a value is: how it is checked, and how a push's own value is written.
    public enum Value: Sendable {
        /// Text of at most `maxBytes` bytes; `noun` names one in messages ("a collapse id").
        case text(maxBytes: Int, noun: String)
        /// Seconds in `range`, after the run's start (or after the push's send,
        /// ``PushHeaderValue/fromSend``); the engine sends epoch seconds, 0 as 0.
        case seconds(ClosedRange<Int>)
        /// One of these texts.
        case oneOf([String])
        /// A UUID in its canonical form, 8-4-4-4-12 hex digits; one made per push is a lowercase version 4 UUID.
        case uuid
    }

    /// The header's name on the wire: `apns-collapse-id`.
    public let name: String
    /// Its key in profiles, recipes' push rules and `plan --out` lines: `collapse_id`.
    public let key: String
    public let sources: [Source]
    public let carrier: Carrier
    public let value: Value
    /// Whether a push that failed a check keeps this header's value in its report sample
    /// (``ContractFindings/Sample/headers``), so an answer can be matched to its push.
    public let inReportSamples: Bool

    init(name: String, key: String, sources: [Source], carrier: Carrier, value: Value, inReportSamples: Bool = false) {
        self.name = name
        self.key = key
        self.sources = sources
        self.carrier = carrier
        self.value = value
        self.inReportSamples = inReportSamples
    }

    /// Whether the value may differ from push to push (a priority picks among a kind's lists; a slot's value
    /// may be each push's own).
    public var variesPerPush: Bool { carrier != .kind }

    /// The slot a push's own value is kept at, or nil.
    public var slot: Int? {
        if case let .slot(s) = carrier { return s }
        return nil
    }

    /// The plan's key of a push's own value: `expiration_after_send` for seconds counted from the send.
    public func planKey(fromSend: Bool) -> String { fromSend ? "expiration_after_send" : key }

    /// `name: value`, a line of a header list.
    public func line(_ value: HeaderConstant) -> String { "\(name): \(value.text)" }
}
