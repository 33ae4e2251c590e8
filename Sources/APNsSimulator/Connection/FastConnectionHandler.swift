import NIOCore
import NIOHPACK
import NIOHTTP2

/// One client connection in fast mode (`SimulatorConfiguration.fast`): every request is answered
/// `200` as soon as its stream ends, with prebuilt headers and no validation, as pushy's
/// BenchmarkApnsServer does, so that a benchmark measures the client and not the simulator. The
/// request's `apns-id` is echoed when it sent one (clients such as aioapns match answers by it);
/// otherwise the answer carries a fixed one. Lives on the connection's event loop.
final class FastConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// `:status 200` with a fixed `apns-id`, built once.
    static let success: HPACKHeaders = [":status": "200", "apns-id": "00000000-0000-4000-8000-000000000000"]
    static let status200: HPACKHeaders = [":status": "200"]

    private let counters: SimulatorCounterBox
    /// `apns-id` of streams whose request has not ended yet.
    private var pendingIDs: [HTTP2StreamID: String] = [:]
    private var delta: ConnectionCounters
    private var needsFlush = false

    init(counters: SimulatorCounterBox, connectionID: Int) {
        self.counters = counters
        self.delta = ConnectionCounters(id: connectionID)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case let .headers(h):
            let id = h.headers.first(name: "apns-id")
            if h.endStream {
                answer(context: context, streamID: frame.streamID, apnsID: id ?? pendingIDs.removeValue(forKey: frame.streamID))
            } else if let id {
                pendingIDs[frame.streamID] = id
            }
        case let .data(d):
            if d.endStream { answer(context: context, streamID: frame.streamID, apnsID: pendingIDs.removeValue(forKey: frame.streamID)) }
        case .rstStream:
            delta.resetsReceived += 1
            pendingIDs[frame.streamID] = nil
        default:
            break
        }
    }

    @inline(__always)
    private func answer(context: ChannelHandlerContext, streamID: HTTP2StreamID, apnsID: String?) {
        var headers = Self.success
        if let apnsID {
            headers = Self.status200
            headers.add(name: "apns-id", value: apnsID, indexing: .nonIndexable)
        }
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers, endStream: true)))), promise: nil)
        delta.requests += 1
        delta.accepted += 1
        needsFlush = true
        // Counted before the answer can leave (the HTTP/2 layer flushes at the end of the read).
        merge()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let window = event as? NIOHTTP2WindowUpdatedEvent, window.streamID == .rootStream,
           let update = InboundWindowKeeper.update(for: window) {
            context.write(wrapOutboundOut(update), promise: nil)
            needsFlush = true
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        delta.open = false
        merge()
        counters.update { $0.connectionsClosed += 1 }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is NIOHTTP2Errors.ExcessiveRSTFrames || error is NIOHTTP2Errors.ExcessiveNumberOfGlitches
            || error is NIOHTTP2Errors.ExcessiveStreamErrors {
            counters.update { $0.goAwaysSent["ENHANCE_YOUR_CALM", default: 0] += 1 }
        }
    }

    private func merge() {
        guard delta.requests > 0 || delta.resetsReceived > 0 || !delta.open else { return }
        counters.merge(delta)
        delta = ConnectionCounters(id: delta.id)
    }
}
