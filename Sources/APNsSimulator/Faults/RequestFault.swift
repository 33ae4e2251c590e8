/// The faults a valid request can draw, one row each: its configuration key, its help and its place on the
/// dice. The sum check, whether the dice roll at all, the roll itself, the configuration's rows and
/// `model fit`'s writer all read this table, so a fault added here is configurable, checked and rolled.
public enum RequestFault: Int, CaseIterable, Sendable, Hashable {
    // In the order the configuration lists them (`simulate --help`, docs/simulator.md).
    case internalServerError, serviceUnavailable, tooManyRequests, shutdown, connectionReset, stall

    /// The order the dice lay the shares end to end in: changing it changes which fault a seeded run draws.
    /// Every case, once (`RequestFaultTableTests`).
    public static let diceOrder: [RequestFault] = [.connectionReset, .stall, .internalServerError, .serviceUnavailable,
                                                   .tooManyRequests, .shutdown]

    /// The configuration key of its share.
    public var key: String {
        switch self {
        case .connectionReset: "faults.connection_reset_fraction"
        case .stall: "faults.stall_fraction"
        case .internalServerError: "faults.internal_server_error_fraction"
        case .serviceUnavailable: "faults.service_unavailable_fraction"
        case .tooManyRequests: "faults.too_many_requests_fraction"
        case .shutdown: "faults.shutdown_fraction"
        }
    }

    var help: String {
        switch self {
        case .connectionReset: "share of requests on which the connection is reset (TCP RST, no answer)"
        case .stall: "share of requests on which the connection goes silent: it reads and answers nothing more"
        case .internalServerError: "share of valid requests answered 500 InternalServerError"
        case .serviceUnavailable: "share of valid requests answered 503 ServiceUnavailable"
        case .tooManyRequests: "share of valid requests answered 429 TooManyRequests"
        case .shutdown: "share of valid requests answered 503 Shutdown, then GOAWAY"
        }
    }
}

/// Each request fault's share of requests (0 to 1), stored by the table's order.
public struct RequestFaultShares: Sendable, Equatable {
    private var shares = [Double](repeating: 0, count: RequestFault.allCases.count)

    public init() {}

    public subscript(fault: RequestFault) -> Double {
        get { shares[fault.rawValue] }
        set { shares[fault.rawValue] = newValue }
    }

    /// The shares added up: at most 1 in a valid configuration.
    public var total: Double { shares.reduce(0, +) }

    /// The fault a roll in `0..<1` lands on: the shares laid end to end in the dice's order; nil past the
    /// last one.
    @inline(__always)
    public func fault(at roll: Double) -> RequestFault? {
        var edge = 0.0
        for fault in RequestFault.diceOrder {
            edge += shares[fault.rawValue]
            if roll < edge { return fault }
        }
        return nil
    }
}
