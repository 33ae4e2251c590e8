/// The constant header values of a push kind, keyed by header row (``APNsHeaders/all``): what a recipe's push rule
/// sets, what the profile gives the run, and, laid over each other once (``over(_:)``), what a push kind sends.
/// A row each push carries itself (``perPush``) has no constant here.
public struct HeaderConstants: Hashable, Sendable {
    /// By row key (``APNsHeader/key``).
    private var values: [String: HeaderConstant] = [:]
    /// The rows whose value each push carries itself (``OutgoingPush/headers``), by slot.
    public var perPush = HeaderSlots()

    public init() {}

    /// `[APNsHeaders.pushType: "alert", APNsHeaders.expiration: 60]`.
    public init(_ values: KeyValuePairs<APNsHeader, HeaderConstant>, perPush: HeaderSlots = HeaderSlots()) {
        for (row, value) in values { self[row] = value }
        self.perPush = perPush
    }

    /// The row's constant; nil: none.
    public subscript(row: APNsHeader) -> HeaderConstant? {
        get { values[row.key] }
        set { values[row.key] = newValue }
    }

    /// The value a kind's list sends for `row`: its constant, unless each push carries its own.
    public func sent(_ row: APNsHeader) -> HeaderConstant? { perPush.contains(row) ? nil : self[row] }

    /// These constants, a row without one taking `fallback`'s, and a row each push carries itself neither.
    public func over(_ fallback: HeaderConstants) -> HeaderConstants {
        var out = self
        out.values.merge(fallback.values) { own, _ in own }
        for row in APNsHeaders.perPush where perPush.contains(row) { out[row] = nil }
        return out
    }

    /// The constants as the wire carries them: a seconds row (``APNsHeader/Value/seconds(_:)``), counted from the
    /// run's start, becomes epoch seconds counted from `startedAtEpochSeconds`; 0 stays 0 (now or never).
    public func onWire(startedAtEpochSeconds start: Int) -> HeaderConstants {
        var out = self
        for row in APNsHeaders.all {
            guard case .seconds = row.value, case let .number(n)? = self[row] else { continue }
            out[row] = .number(n == 0 ? 0 : start + n)
        }
        return out
    }

    /// A text row's constant, as text.
    public func text(_ row: APNsHeader) -> String? { self[row]?.text }

    /// A seconds row's constant.
    public func number(_ row: APNsHeader) -> Int? {
        if case let .number(n)? = self[row] { return n }
        return nil
    }
}

/// One constant header value, as the engine's list and the plan write it.
public enum HeaderConstant: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case text(String)
    case number(Int)

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .number(value) }

    public var text: String {
        switch self {
        case let .text(t): return t
        case let .number(n): return String(n)
        }
    }
}
