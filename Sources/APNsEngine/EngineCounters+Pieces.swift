import APNsCore

extension EngineCounters {
    /// The connection lifecycle's counts so far: reconnects, holds before reconnecting, PINGs.
    mutating func take(_ lifecycle: ConnectionLifecycle) {
        reconnects = lifecycle.reconnects
        reconnectHolds = lifecycle.holds
        pings = lifecycle.pings
    }

    /// The token ledger's counts so far: dead tokens, 429 holds, re-signs after ExpiredProviderToken.
    mutating func take(_ ledger: TokenLedger.Counters) {
        deadTokens = ledger.deadTokens
        tokenBackoffs = ledger.tokenBackoffs
        providerTokenRefreshes = ledger.providerTokenRefreshes
    }
}

extension ConnectionLifecycle {
    /// The connection events and provider-token signings so far, as the sink is told of them.
    func tally(tokenSignings: Int) -> ConnectionTally {
        ConnectionTally(opened: connectionsOpened, reconnects: reconnects, lost: losses, goAways: serverEnded, tokenSignings: tokenSignings)
    }
}

extension Outcome {
    /// What a resend after this outcome is counted by: the APNs reason, or the transport error's key.
    var retryKey: String {
        switch self {
        case .rejected(let r): r.rawValue
        case .failed(let e): e.key
        default: "other"
        }
    }
}
