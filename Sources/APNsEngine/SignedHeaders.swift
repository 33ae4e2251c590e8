import APNsCore

/// The provider token cache an engine signs with and the header lists that carry its current token: a new
/// set of lists whenever the token is re-signed. Transfers still in flight keep their set alive.
struct SignedHeaders {
    let tokens: ProviderTokenCache
    private let configuration: EngineConfiguration
    /// The lists in use now.
    private(set) var current: HeaderSet
    /// The cache's signings before this engine started using it.
    private let signingsBase: Int

    init(configuration: EngineConfiguration, tokens: ProviderTokenCache) throws {
        self.configuration = configuration
        self.tokens = tokens
        signingsBase = tokens.signings
        current = try HeaderSet(configuration: configuration, bearer: tokens.bearer(), issuedAt: tokens.issuedAt)
    }

    /// Signings by this engine.
    var signings: Int { tokens.signings - signingsBase }

    /// New header lists with the cache's current token (`bearer()` signs one if the cached one is due).
    mutating func rebuild() throws {
        current = try HeaderSet(configuration: configuration, bearer: tokens.bearer(), issuedAt: tokens.issuedAt)
    }

    /// A new token now, whatever the cache's own schedule, and lists that carry it.
    mutating func resign() throws {
        tokens.forceRefresh()
        try rebuild()
    }
}
