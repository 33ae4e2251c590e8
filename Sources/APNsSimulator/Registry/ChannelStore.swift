import NIOConcurrencyHelpers

/// The broadcast channels (iOS 18+) of one simulator, and the Live Activity tokens subscribed to each:
/// what the channel-management API (`/1/apps/<bundle>/channels`) creates, reads and deletes, and what a
/// broadcast (`/4/broadcasts/apps/<bundle>`) is delivered to. The HTTP contract is documented in
/// `ChannelRequests.swift`.
///
/// One store per simulator, i.e. per environment (APNs keeps each environment's channels apart; the
/// simulator serves one environment at a time). Channels live as long as the simulator, until deleted.
/// Thread-safe: every method takes one lock, so connections on any event loop and a replay on its own
/// threads may call it at once. Reach it as `APNsSimulator.channels`.
///
/// Subscriptions stand in for devices: a replay that starts an activity with `input-push-channel:
/// <channel id>` tells the embedded simulator with `subscribe(channelID:tokens:)`, and each accepted
/// broadcast then counts one delivery per subscriber (`SimulatorCounters.broadcastDeliveries`).
public final class ChannelStore: Sendable {
    /// Apple's limit: 10,000 channels per app in each environment.
    public static let appleChannelLimit = 10_000

    private let table: NIOLockedValueBox<ChannelTable>

    /// An empty store allowing `limitPerBundle` channels per app (`BroadcastSettings.channelLimitPerBundle`).
    public init(limitPerBundle: Int = ChannelStore.appleChannelLimit) {
        table = NIOLockedValueBox(ChannelTable(limitPerBundle: limitPerBundle))
    }

    /// Channels one app may have at a time.
    public var limitPerBundle: Int { table.withLockedValue { $0.limitPerBundle } }

    // MARK: Channels

    /// Creates a channel for `bundleID` with a fresh random id, as `POST /1/apps/<bundle>/channels` does.
    /// Throws `ChannelStoreError.limitReached` when the app has `limitPerBundle` channels.
    public func create(bundleID: String, policy: MessageStoragePolicy) throws(ChannelStoreError) -> BroadcastChannel {
        var random = SystemRandomNumberGenerator()
        let result: ChannelTable.CreateResult = table.withLockedValue { t in
            while true {
                let result = t.create(bundleID: bundleID, policy: policy, id: ChannelTable.newID(using: &random))
                if result != .idTaken { return result }
            }
        }
        guard case let .created(channel) = result else { throw .limitReached(bundleID: bundleID, limit: limitPerBundle) }
        return channel
    }

    /// The channel `id` (of any app), or nil if there is none (never created, or deleted).
    public func channel(id: String) -> BroadcastChannel? { table.withLockedValue { $0.channel(id: id) } }

    /// The channel `id` if it belongs to `bundleID` (what the HTTP API looks up: another app's channel
    /// is not found under this app's paths).
    public func channel(id: String, bundleID: String) -> BroadcastChannel? {
        table.withLockedValue { $0.channel(id: id, bundleID: bundleID) }
    }

    /// The ids of `bundleID`'s channels, oldest first (`GET /1/apps/<bundle>/all-channels`).
    public func channelIDs(bundleID: String) -> [String] { table.withLockedValue { $0.ids(bundleID: bundleID) } }

    /// `bundleID`'s channels, oldest first.
    public func channels(bundleID: String) -> [BroadcastChannel] {
        table.withLockedValue { t in t.ids(bundleID: bundleID).compactMap { t.channel(id: $0) } }
    }

    /// Whether `bundleID` may create another channel now.
    func hasRoom(bundleID: String) -> Bool { table.withLockedValue { $0.count(bundleID: bundleID) < $0.limitPerBundle } }

    /// Live channels of every app.
    public var count: Int { table.withLockedValue { $0.channels.count } }

    /// Deletes the channel `id` and its subscriptions, freeing its slot under the limit; false if there
    /// was no such channel. Its id is never handed out again.
    @discardableResult
    public func delete(id: String) -> Bool { table.withLockedValue { $0.delete(id: id) } }

    /// Deletes `bundleID`'s channel `id` (`DELETE /1/apps/<bundle>/channels`); false if it has none.
    func delete(id: String, bundleID: String) -> Bool { table.withLockedValue { $0.delete(id: id, bundleID: bundleID) } }

    // MARK: Subscribers

    /// Subscribes Live Activity push tokens (hex, compared case-insensitively) to the channel, as
    /// activities started with `input-push-channel: <channelID>` would be. Subscribing a token twice
    /// changes nothing. Returns the channel's subscriber count, or nil if there is no such channel.
    @discardableResult
    public func subscribe<S: Sequence>(channelID: String, tokens: S) -> Int? where S.Element == String {
        table.withLockedValue { $0.subscribe(channelID: channelID, tokens: tokens) }
    }

    /// Removes subscriptions (an activity that ended). Returns the channel's subscriber count, or nil if
    /// there is no such channel.
    @discardableResult
    public func unsubscribe<S: Sequence>(channelID: String, tokens: S) -> Int? where S.Element == String {
        table.withLockedValue { $0.unsubscribe(channelID: channelID, tokens: tokens) }
    }

    /// The channel's subscriber count, or nil if there is no such channel.
    public func subscriberCount(channelID: String) -> Int? {
        table.withLockedValue { $0.channels[channelID]?.subscribers.count }
    }

    // MARK: Broadcasts

    /// Looks up and counts one broadcast (see `ChannelTable.broadcast`), under one lock.
    func broadcast(bundleID: String, channelID: String, expiration: Int) -> ChannelTable.BroadcastResult {
        table.withLockedValue { $0.broadcast(bundleID: bundleID, channelID: channelID, expiration: expiration) }
    }
}

/// Why `ChannelStore.create` refused.
public enum ChannelStoreError: Error, Equatable, CustomStringConvertible {
    /// The app has `limit` channels already (`CannotCreateChannelConfig` over HTTP).
    case limitReached(bundleID: String, limit: Int)

    public var description: String {
        switch self {
        case let .limitReached(bundle, limit): return "\(bundle) has \(limit) broadcast channels, the limit; delete one first"
        }
    }
}
