/// The broadcast channels a run created, one per store (group), as the order-changes workload addresses them.
public struct BroadcastChannels: Sendable, Equatable {
    public struct Channel: Sendable, Equatable {
        /// Index in the run's channel list (the engine keeps one header list per channel and priority).
        public var index: Int32
        /// `apns-channel-id`, as the channel API answered it.
        public var id: String
        public init(index: Int32, id: String) {
            self.index = index
            self.id = id
        }
    }

    public var byStore: [Int: Channel]
    /// Stores whose channel the channel API refused because the app had too many (their updates are not sent
    /// `channel_limit`).
    public var refused: Set<Int>

    public init(byStore: [Int: Channel], refused: Set<Int> = []) {
        self.byStore = byStore
        self.refused = refused
    }

    /// The channel ids in index order, as the engine takes them.
    public var idsByIndex: [String] {
        byStore.values.sorted { $0.index < $1.index }.map(\.id)
    }
}
