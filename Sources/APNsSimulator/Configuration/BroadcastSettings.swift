/// How the simulator's broadcast APIs (channel management and broadcast sends, iOS 18+) behave.
/// Defaults follow Apple's documentation. See `ChannelRequests.swift` for the contract.
public struct BroadcastSettings: Sendable, Equatable {
    /// Channels one app (bundle id) may have at a time in the simulator's environment; creating one
    /// more is `CannotCreateChannelConfig`, and deleting one frees its slot. Default 10,000 (Apple:
    /// "up to 10,000 channels for your app in the development and production environment, respectively").
    /// Tests lower it to reach the limit quickly.
    public var channelLimitPerBundle = ChannelStore.appleChannelLimit
    /// The apps with the broadcast capability: a request for another bundle is `FeatureNotEnabled`.
    /// Default nil: every app has it.
    public var enabledBundleIDs: Set<String>?

    public init() {}

    /// Whether `bundleID` may use the broadcast APIs.
    func isEnabled(_ bundleID: String) -> Bool { enabledBundleIDs?.contains(bundleID) ?? true }
}
