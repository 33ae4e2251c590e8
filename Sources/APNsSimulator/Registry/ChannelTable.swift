import Foundation

/// A broadcast channel's message storage policy, chosen when it is created and fixed for its life
/// (`message-storage-policy` in the create body).
public enum MessageStoragePolicy: Int, Sendable, Codable, CaseIterable {
    /// `0`, "No Message Stored": a broadcast reaches the devices it can reach now and is not kept;
    /// its `apns-expiration` must be 0 (a non-zero one is `BadExpirationDate`).
    case noMessageStored = 0
    /// `1`, "Most Recent Message Stored": the latest message is kept for offline devices, up to 8 hours.
    case mostRecentMessageStored = 1
}

/// One broadcast channel as the simulator knows it.
public struct BroadcastChannel: Sendable, Equatable {
    /// The channel id: standard base64 (with padding) of 16 random bytes, as `apns-channel-id` carries it.
    public let id: String
    /// The app (bundle id) that created it; it is found only under this bundle's paths.
    public let bundleID: String
    public let storagePolicy: MessageStoragePolicy
    /// The Live Activity push tokens subscribed to it (lowercased), as devices whose activity started
    /// with `input-push-channel: <id>` would be.
    public internal(set) var subscribers: Set<String> = []
    /// Broadcasts accepted on it.
    public internal(set) var broadcasts = 0
    /// Deliveries of those broadcasts: each reached every subscriber of the moment once.
    public internal(set) var deliveries = 0

    public init(id: String, bundleID: String, storagePolicy: MessageStoragePolicy) {
        self.id = id
        self.bundleID = bundleID
        self.storagePolicy = storagePolicy
    }
}

/// The channels of one environment, as a value: creation under the per-app limit, lookup, deletion,
/// subscribers and broadcast accounting, with no lock and no I/O, so it is tested in memory.
/// `ChannelStore` puts it behind a lock for the connections and the public API.
struct ChannelTable {
    /// Channels one bundle may have at a time.
    let limitPerBundle: Int
    /// Every live channel, by id (ids are unique across bundles).
    private(set) var channels: [String: BroadcastChannel] = [:]
    /// Each bundle's channel ids, in creation order.
    private var idsByBundle: [String: [String]] = [:]
    /// Ids of deleted channels: never handed out again (Apple: "the same channel ID can't be created again").
    private var retiredIDs: Set<String> = []

    init(limitPerBundle: Int) { self.limitPerBundle = limitPerBundle }

    enum CreateResult: Equatable {
        case created(BroadcastChannel)
        /// The bundle has `limitPerBundle` channels already.
        case limitReached
        /// The id is, or was, in use (a random id collided): draw another.
        case idTaken
    }

    mutating func create(bundleID: String, policy: MessageStoragePolicy, id: String) -> CreateResult {
        guard count(bundleID: bundleID) < limitPerBundle else { return .limitReached }
        guard channels[id] == nil, !retiredIDs.contains(id) else { return .idTaken }
        let channel = BroadcastChannel(id: id, bundleID: bundleID, storagePolicy: policy)
        channels[id] = channel
        idsByBundle[bundleID, default: []].append(id)
        return .created(channel)
    }

    /// The channel `id`; with `bundleID`, only if it belongs to that bundle.
    func channel(id: String, bundleID: String? = nil) -> BroadcastChannel? {
        guard let c = channels[id], bundleID == nil || c.bundleID == bundleID else { return nil }
        return c
    }

    /// The bundle's channel ids, oldest first.
    func ids(bundleID: String) -> [String] { idsByBundle[bundleID] ?? [] }

    func count(bundleID: String) -> Int { idsByBundle[bundleID]?.count ?? 0 }

    /// Deletes the channel `id` (with `bundleID`, only if it belongs to that bundle), freeing its slot
    /// under the limit; false if there is no such channel.
    mutating func delete(id: String, bundleID: String? = nil) -> Bool {
        guard let c = channel(id: id, bundleID: bundleID) else { return false }
        channels[id] = nil
        retiredIDs.insert(id)
        idsByBundle[c.bundleID]?.removeAll { $0 == id }
        if idsByBundle[c.bundleID]?.isEmpty == true { idsByBundle[c.bundleID] = nil }
        return true
    }

    /// Adds subscribers (lowercased); returns the channel's subscriber count, or nil if there is no
    /// such channel.
    mutating func subscribe<S: Sequence>(channelID: String, tokens: S) -> Int? where S.Element == String {
        guard channels[channelID] != nil else { return nil }
        for t in tokens { channels[channelID]!.subscribers.insert(t.lowercased()) }
        return channels[channelID]!.subscribers.count
    }

    /// Removes subscribers; returns the channel's subscriber count, or nil if there is no such channel.
    mutating func unsubscribe<S: Sequence>(channelID: String, tokens: S) -> Int? where S.Element == String {
        guard channels[channelID] != nil else { return nil }
        for t in tokens { channels[channelID]!.subscribers.remove(t.lowercased()) }
        return channels[channelID]!.subscribers.count
    }

    enum BroadcastResult: Equatable {
        /// No channel `channelID` of this bundle (never created, or deleted): `ChannelNotRegistered`.
        case notRegistered
        /// A non-zero expiration on a `noMessageStored` channel: `BadExpirationDate`.
        case expirationRefused
        /// Accepted; it reached this many subscribers (counted on the channel).
        case delivered(subscribers: Int)
    }

    /// A broadcast with `apns-expiration` `expiration` to `channelID` of `bundleID`: refused, or
    /// accepted and counted (one broadcast, one delivery per subscriber).
    mutating func broadcast(bundleID: String, channelID: String, expiration: Int) -> BroadcastResult {
        guard let c = channel(id: channelID, bundleID: bundleID) else { return .notRegistered }
        if c.storagePolicy == .noMessageStored, expiration != 0 { return .expirationRefused }
        let reached = c.subscribers.count
        channels[channelID]!.broadcasts += 1
        channels[channelID]!.deliveries += reached
        return .delivered(subscribers: reached)
    }

    /// The longest channel id accepted, in decoded bytes. Apple says only "greater than the allowed
    /// length" (BadChannelId) and "don't make assumptions on the channel ID size"; 64 is the
    /// simulator's choice (its own ids are 16 bytes).
    static let maximumIDBytes = 64

    /// Whether `id` is a channel id in form: canonical standard base64 (with its padding, no stray
    /// `=` or bits) of 1 to `maximumIDBytes` bytes. Otherwise a request carrying it is `BadChannelId`.
    static func isWellFormedID(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= (maximumIDBytes + 2) / 3 * 4, let bytes = Data(base64Encoded: id) else { return false }
        // Foundation's decoder is lenient on some platforms (it takes `YWJj=`): encode back and compare.
        return !bytes.isEmpty && bytes.count <= maximumIDBytes && bytes.base64EncodedString() == id
    }

    /// A fresh id: standard base64 of 16 random bytes (24 characters), like Apple's.
    static func newID<G: RandomNumberGenerator>(using generator: inout G) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in bytes.indices { bytes[i] = UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
    }
}
