import NIOCore

/// Sits between the transport (TLS or TCP) and `NIOHTTP2Handler` and rewrites the value of
/// SETTINGS_MAX_CONCURRENT_STREAMS in the server's outgoing SETTINGS frames.
///
/// Why: NIOHTTP2 treats a client that opens more streams than the local MAX_CONCURRENT_STREAMS as a
/// connection error (GOAWAY PROTOCOL_ERROR), while APNs refuses the excess streams one by one with
/// RST_STREAM REFUSED_STREAM. So the HTTP/2 layer is configured with a hard limit (a gross violation
/// still ends the connection), the wire carries the limit APNs would advertise (1, then 1000), and the
/// connection handler refuses streams between the two. Each outgoing SETTINGS frame that carries
/// MAX_CONCURRENT_STREAMS takes the next value queued with `enqueue` (FIFO, as frames are written in
/// order); with none queued the frame passes unchanged.
///
/// It can also hold every outgoing byte for a while after the connection opens (delayed SETTINGS,
/// fault injection). Lives on the connection's event loop.
final class SettingsRewriter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private var queued: [UInt32] = []
    /// Frame parsing across writes: bytes of the current frame header gathered so far.
    private var header: [UInt8] = []
    /// Payload bytes of the current frame still to pass.
    private var remaining = 0
    /// Within a SETTINGS payload: bytes of the current 6-byte setting gathered so far, and whether the
    /// current frame is a SETTINGS frame (not an ACK).
    private var inSettings = false
    private var settingOffset = 0
    private var settingIdentifier: UInt16 = 0

    /// While set, writes are held until this deadline.
    private var holding: [(IOData, EventLoopPromise<Void>?)]?
    private var flushHeld = false
    private let holdMilliseconds: Double

    init(holdMilliseconds: Double = 0) {
        self.holdMilliseconds = holdMilliseconds
        if holdMilliseconds > 0 { holding = [] }
    }

    /// The value the next outgoing MAX_CONCURRENT_STREAMS setting must carry on the wire.
    func enqueue(_ value: Int) { queued.append(UInt32(clamping: value)) }

    /// Set when no further value will be queued (the limit is raised and will not drop again): the
    /// rewriter leaves the pipeline at the next frame boundary once its queue is empty, so that the
    /// connection's later writes pay nothing for it.
    var retireWhenDone = false

    private func retireIfDone(context: ChannelHandlerContext) {
        guard retireWhenDone, queued.isEmpty, holding == nil, remaining == 0, header.isEmpty else { return }
        retireWhenDone = false
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard holding != nil else { return }
        context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(holdMilliseconds * 1_000_000))) { [weak self] in
            self?.release(context: context)
        }
    }

    private func release(context: ChannelHandlerContext) {
        guard let held = holding else { return }
        holding = nil
        for (data, promise) in held { context.write(wrapOutboundOut(data), promise: promise) }
        if flushHeld { context.flush() }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var io = unwrapOutboundIn(data)
        if case var .byteBuffer(buffer) = io {
            if scan(&buffer) { io = .byteBuffer(buffer) }
        } else if case let .fileRegion(region) = io {
            skip(region.readableBytes)
        }
        if holding != nil {
            holding!.append((io, promise))
        } else {
            context.write(wrapOutboundOut(io), promise: promise)
            retireIfDone(context: context)
        }
    }

    func flush(context: ChannelHandlerContext) {
        if holding != nil { flushHeld = true } else { context.flush() }
    }

    /// A file region is never a frame header (the HTTP/2 layer writes headers into byte buffers).
    private func skip(_ n: Int) { remaining = max(0, remaining - n) }

    /// Walks the frames in `buffer`; returns true if it changed a byte.
    private func scan(_ buffer: inout ByteBuffer) -> Bool {
        var changed = false
        var i = buffer.readerIndex
        let end = buffer.writerIndex
        while i < end {
            if remaining == 0 && header.count < 9 {
                header.append(buffer.getInteger(at: i, as: UInt8.self)!)
                i += 1
                if header.count == 9 {
                    remaining = Int(header[0]) << 16 | Int(header[1]) << 8 | Int(header[2])
                    inSettings = header[3] == 0x4 && header[4] & 0x1 == 0
                    settingOffset = 0
                    header.removeAll(keepingCapacity: true)
                }
                continue
            }
            let step = min(remaining, end - i)
            if inSettings {
                // Walk the 6-byte settings: identifier (2), value (4).
                for k in 0..<step {
                    let b = buffer.getInteger(at: i + k, as: UInt8.self)!
                    switch settingOffset {
                    case 0: settingIdentifier = UInt16(b) << 8
                    case 1: settingIdentifier |= UInt16(b)
                    case 2:
                        if settingIdentifier == 0x3, !queued.isEmpty {
                            // Rewrite the four value bytes (they may span writes: set the ones in this buffer).
                            let value = queued.removeFirst()
                            let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
                            for v in 0..<4 where i + k + v < end && k + v < step {
                                buffer.setInteger(bytes[v], at: i + k + v)
                            }
                            changed = true
                        }
                    default: break
                    }
                    settingOffset = (settingOffset + 1) % 6
                }
            }
            i += step
            remaining -= step
            if remaining == 0 { inSettings = false }
        }
        return changed
    }
}
