/// The header values one push carries itself (``APNsHeaders/perPush``), kept by slot in storage the push owns
/// and reuses from push to push, so writing a value allocates nothing once its capacity is reached. A recipe
/// clears every slot it does not write, so a push holds only its own values.
public struct PushHeaderValues: Sendable {
    /// Slots a push can carry; a row's ``APNsHeader/Carrier/slot(_:)`` is below this.
    public static let capacity = 4
    private var s0 = PushHeaderValue(), s1 = PushHeaderValue(), s2 = PushHeaderValue(), s3 = PushHeaderValue()

    public init() {}

    /// The value at `slot`.
    @inline(__always)
    public subscript(slot: Int) -> PushHeaderValue {
        switch slot {
        case 0: return s0
        case 1: return s1
        case 2: return s2
        default: return s3
        }
    }

    /// The value of `header`, a row carried in a slot.
    public subscript(header: APNsHeader) -> PushHeaderValue { self[header.slot ?? Self.capacity - 1] }

    /// Changes the value at `slot` in place (its text's capacity is kept).
    @inline(__always)
    public mutating func update<R>(_ slot: Int, _ body: (inout PushHeaderValue) throws -> R) rethrows -> R {
        switch slot {
        case 0: return try body(&s0)
        case 1: return try body(&s1)
        case 2: return try body(&s2)
        default: return try body(&s3)
        }
    }

    /// Changes the value of `header` in place.
    public mutating func update<R>(_ header: APNsHeader, _ body: (inout PushHeaderValue) throws -> R) rethrows -> R {
        try update(header.slot ?? Self.capacity - 1, body)
    }

    /// Leaves every slot without a value, keeping the capacity.
    @inline(__always)
    public mutating func clear() {
        for slot in 0 ..< Self.capacity { update(slot) { $0.clear() } }
    }
}

/// One header value a push carries: text, or a number of seconds.
public struct PushHeaderValue: Sendable, Equatable {
    /// A text header's bytes; empty sends none.
    public var text: [UInt8] = []
    /// A seconds header's value (``APNsHeader/Value/seconds(_:)``); -1 sends none.
    public var seconds = -1
    /// `seconds` counts from the push's send rather than from the run's start: an absolute expiration recorded
    /// with the event, shifted as the replay shifts the event's time.
    public var fromSend = false

    public init() {}

    public init(text: String) { self.text = Array(text.utf8) }

    public init(seconds: Int, fromSend: Bool = false) {
        self.seconds = seconds
        self.fromSend = fromSend
    }

    /// Whether it sends a header.
    public var isPresent: Bool { !text.isEmpty || seconds >= 0 }

    @inline(__always)
    public mutating func clear() {
        text.removeAll(keepingCapacity: true)
        seconds = -1
        fromSend = false
    }
}

/// A set of slots (``APNsHeader/Carrier/slot(_:)``): the headers a push kind takes from each push.
public struct HeaderSlots: Hashable, Sendable {
    public private(set) var bits: UInt8 = 0

    public init() {}

    public init(_ headers: [APNsHeader]) {
        for h in headers { if let s = h.slot { insert(s) } }
    }

    @inline(__always)
    public func contains(_ slot: Int) -> Bool { bits & (1 << UInt8(slot)) != 0 }
    public func contains(_ header: APNsHeader) -> Bool { header.slot.map(contains) ?? false }
    public mutating func insert(_ slot: Int) { bits |= 1 << UInt8(slot) }
    public mutating func insert(_ header: APNsHeader) { if let s = header.slot { insert(s) } }
    public var isEmpty: Bool { bits == 0 }
}
