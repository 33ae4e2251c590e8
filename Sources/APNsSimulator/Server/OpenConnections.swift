import NIOConcurrencyHelpers
import NIOCore

/// The simulator's open connections, added as they are accepted and removed as they close, from any
/// event loop; read by a graceful stop.
final class OpenConnections: Sendable {
    private let channels = NIOLockedValueBox<[ObjectIdentifier: Channel]>([:])

    func add(_ channel: Channel) {
        let id = ObjectIdentifier(channel)
        channels.withLockedValue { $0[id] = channel }
        channel.closeFuture.whenComplete { [channels] _ in _ = channels.withLockedValue { $0.removeValue(forKey: id) } }
    }

    var count: Int { channels.withLockedValue { $0.count } }

    /// Tells every open connection to go away (`ChannelShouldQuiesceEvent`): the validating handler sends
    /// GOAWAY and closes once its open streams are answered; the fast handler ignores it, and its
    /// connections close when the event loops stop.
    func quiesceAll() {
        for channel in channels.withLockedValue({ Array($0.values) }) {
            channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        }
    }
}
