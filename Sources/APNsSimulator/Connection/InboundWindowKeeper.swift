import NIOCore
import NIOHTTP2

/// Keeps the client able to send. Without a stream multiplexer NIOHTTP2 leaves inbound flow control
/// to the handler: nothing tops up the connection window (or a stream's), so a client would stall once
/// it had sent 64 KiB of bodies. When a window falls below half its size this writes a WINDOW_UPDATE
/// back to the full size, as NIO's multiplexer does. The caller flushes.
enum InboundWindowKeeper {
    /// The connection and stream window size (the observed APNs INITIAL_WINDOW_SIZE).
    static let target = 65535

    /// Returns the WINDOW_UPDATE to write for `event`, if any.
    static func update(for event: NIOHTTP2WindowUpdatedEvent) -> HTTP2Frame? {
        guard let size = event.inboundWindowSize, size < target / 2 else { return nil }
        return HTTP2Frame(streamID: event.streamID, payload: .windowUpdate(windowSizeIncrement: target - size))
    }
}
