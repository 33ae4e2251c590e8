import NIOCore
import NIOHTTP2

/// One client connection: its provider-token state and its stream limit. Lives on the connection's event
/// loop; its stream handlers share it.
final class SimulatorConnection {
    let channel: Channel
    var auth = ConnectionAuthState()
    private(set) var limitRaised = false
    let raisedLimit: Int

    init(channel: Channel, raisedLimit: Int) {
        self.channel = channel
        self.raisedLimit = raisedLimit
    }

    /// After the first request with a valid provider token, tell the client it may open more streams,
    /// as APNs does with a new SETTINGS frame. Returns true if it did so now.
    func raiseStreamLimitIfNeeded() -> Bool {
        guard auth.isAuthenticated, !limitRaised else { return false }
        limitRaised = true
        let settings = HTTP2Frame(streamID: .rootStream, payload: .settings(.settings([
            HTTP2Setting(parameter: .maxConcurrentStreams, value: raisedLimit),
        ])))
        channel.writeAndFlush(settings, promise: nil)
        return true
    }
}
