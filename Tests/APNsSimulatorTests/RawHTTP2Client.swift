import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHPACK
import NIOPosix
import XCTest

/// A deliberately dumb HTTP/2 client over h2c for tests: it writes exactly the frames it is told to
/// (so it can open more streams than allowed, or reset every stream) and records every frame the
/// server sends, decoded. Waiting is on a condition variable with a deadline, never a sleep.
final class RawHTTP2Client {
    enum Frame: CustomStringConvertible {
        case settings(ack: Bool, values: [(UInt16, UInt32)])
        case headers(stream: UInt32, headers: HPACKHeaders, endStream: Bool)
        case data(stream: UInt32, bytes: [UInt8], endStream: Bool)
        case rstStream(stream: UInt32, code: UInt32)
        case goAway(lastStream: UInt32, code: UInt32, debug: String)
        case other(type: UInt8, stream: UInt32)

        var description: String {
            switch self {
            case let .settings(ack, values): return "SETTINGS\(ack ? " ACK" : "") \(values)"
            case let .headers(s, h, e): return "HEADERS[\(s)] \(h)\(e ? " END" : "")"
            case let .data(s, b, e): return "DATA[\(s)] \(String(decoding: b, as: UTF8.self))\(e ? " END" : "")"
            case let .rstStream(s, c): return "RST_STREAM[\(s)] \(c)"
            case let .goAway(l, c, d): return "GOAWAY last \(l) code \(c) \(d)"
            case let .other(t, s): return "frame type \(t) [\(s)]"
            }
        }
    }

    /// A finished response.
    struct Response {
        var status: Int
        var headers: HPACKHeaders
        var body: String
        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
    }

    static let refusedStream: UInt32 = 0x7
    static let enhanceYourCalm: UInt32 = 0xB

    private let channel: Channel
    private let state = NIOLockedValueBox(State())
    /// Signalled on every frame batch and on close; `generation` counts them.
    private let condition = NSCondition()
    private var encoder = HPACKEncoder(allocator: ByteBufferAllocator())
    private(set) var nextStreamID: UInt32 = 1
    let autoAckSettings: Bool

    struct State {
        var frames: [Frame] = []
        var closed = false
        var decoder = HPACKDecoder(allocator: ByteBufferAllocator())
        var pending: [UInt8] = []
        var generation = 0
    }

    init(port: Int, group: EventLoopGroup, autoAckSettings: Bool = true) throws {
        self.autoAckSettings = autoAckSettings
        let box = state
        let condition = self.condition
        let reader = Reader(onBytes: { bytes, channel in
            var acks = 0
            box.withLockedValue { s in
                s.pending += bytes
                for f in Self.parse(&s) {
                    if case .settings(false, _) = f { acks += 1 }
                    s.frames.append(f)
                }
            }
            if autoAckSettings {
                for _ in 0..<acks { channel.writeAndFlush(Self.frame(type: 4, flags: 1, stream: 0, payload: []), promise: nil) }
            }
            condition.lock()
            box.withLockedValue { $0.generation += 1 }
            condition.broadcast()
            condition.unlock()
        }, onClose: {
            condition.lock()
            box.withLockedValue { $0.closed = true; $0.generation += 1 }
            condition.broadcast()
            condition.unlock()
        })
        channel = try ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { $0.pipeline.addHandler(reader) }
            .connect(host: "127.0.0.1", port: port).wait()
    }

    func close() { try? channel.close().wait() }

    // MARK: Sending

    /// Opens a stream with `headers` (and `body` as one DATA frame if given); returns its id.
    @discardableResult
    func send(_ headers: [(String, String)], body: String? = nil, endStream: Bool = true) throws -> UInt32 {
        let id = nextStreamID
        nextStreamID += 2
        var block = ByteBuffer()
        try encoder.encode(headers: HPACKHeaders(headers), to: &block)
        var out = Self.frame(type: 1, flags: 0x4 | (body == nil && endStream ? 0x1 : 0), stream: id, payload: Array(block.readableBytesView))
        if let body {
            var data = Self.frame(type: 0, flags: 0x1, stream: id, payload: Array(body.utf8))
            out.writeBuffer(&data)
        }
        try channel.writeAndFlush(out).wait()
        return id
    }

    /// One DATA frame, ending the stream unless told otherwise.
    func sendData(_ stream: UInt32, _ body: String, endStream: Bool = true) throws {
        try channel.writeAndFlush(Self.frame(type: 0, flags: endStream ? 0x1 : 0, stream: stream, payload: Array(body.utf8))).wait()
    }

    func reset(stream: UInt32, code: UInt32 = 0x8) throws {
        var p = ByteBuffer()
        p.writeInteger(code)
        try channel.writeAndFlush(Self.frame(type: 3, flags: 0, stream: stream, payload: Array(p.readableBytesView))).wait()
    }

    func ackSettings() throws { try channel.writeAndFlush(Self.frame(type: 4, flags: 1, stream: 0, payload: [])).wait() }

    // MARK: Waiting

    var frames: [Frame] { state.withLockedValue { $0.frames } }
    var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Waits until `predicate` holds over the frames so far (or the connection closed, when
    /// `orClose`); fails the test after `timeout` seconds.
    @discardableResult
    func wait(timeout: Double = 10, orClose: Bool = false, file: StaticString = #filePath, line: UInt = #line,
              _ what: String, until predicate: ([Frame]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let (frames, closed, generation) = state.withLockedValue { ($0.frames, $0.closed, $0.generation) }
            if predicate(frames) { return true }
            if closed && orClose { return false }
            if closed || Date() > deadline {
                XCTFail("\(what): \(closed ? "connection closed" : "timed out"); frames: \(frames.suffix(8))", file: file, line: line)
                return false
            }
            condition.lock()
            if state.withLockedValue({ $0.generation }) == generation {
                _ = condition.wait(until: min(deadline, Date().addingTimeInterval(0.5)))
            }
            condition.unlock()
        }
    }

    /// The response on `stream`, once it ended.
    func response(_ stream: UInt32, file: StaticString = #filePath, line: UInt = #line) -> Response? {
        var result: Response?
        wait(file: file, line: line, "response on stream \(stream)") { frames in
            var headers: HPACKHeaders?
            var body: [UInt8] = []
            for f in frames {
                switch f {
                case let .headers(s, h, e) where s == stream:
                    headers = headers ?? h
                    if e, let headers { result = Response(status: Int(headers.first(name: ":status") ?? "") ?? 0, headers: headers, body: ""); return true }
                case let .data(s, b, e) where s == stream:
                    body += b
                    if e, let headers {
                        result = Response(status: Int(headers.first(name: ":status") ?? "") ?? 0, headers: headers,
                                          body: String(decoding: body, as: UTF8.self))
                        return true
                    }
                case let .rstStream(s, c) where s == stream:
                    result = Response(status: -Int(c), headers: [:], body: "RST_STREAM \(c)")
                    return true
                default: break
                }
            }
            return false
        }
        return result
    }

    /// MAX_CONCURRENT_STREAMS values of the server's SETTINGS frames, in order.
    var advertisedLimits: [UInt32] {
        frames.compactMap { f -> UInt32? in
            if case let .settings(false, values) = f { return values.last(where: { $0.0 == 3 })?.1 }
            return nil
        }
    }

    var goAway: (lastStream: UInt32, code: UInt32, debug: String)? {
        for f in frames { if case let .goAway(l, c, d) = f { return (l, c, d) } }
        return nil
    }

    // MARK: Frames

    static func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) -> ByteBuffer {
        var b = ByteBuffer()
        b.writeInteger(UInt8(payload.count >> 16 & 0xFF))
        b.writeInteger(UInt16(payload.count & 0xFFFF))
        b.writeInteger(type)
        b.writeInteger(flags)
        b.writeInteger(stream & 0x7FFF_FFFF)
        b.writeBytes(payload)
        return b
    }

    private static func parse(_ s: inout State) -> [Frame] {
        var out: [Frame] = []
        while s.pending.count >= 9 {
            let length = Int(s.pending[0]) << 16 | Int(s.pending[1]) << 8 | Int(s.pending[2])
            guard s.pending.count >= 9 + length else { break }
            let type = s.pending[3], flags = s.pending[4]
            let stream = UInt32(s.pending[5] & 0x7F) << 24 | UInt32(s.pending[6]) << 16 | UInt32(s.pending[7]) << 8 | UInt32(s.pending[8])
            let payload = Array(s.pending[9..<(9 + length)])
            s.pending.removeFirst(9 + length)
            func u32(_ i: Int) -> UInt32 { UInt32(payload[i]) << 24 | UInt32(payload[i + 1]) << 16 | UInt32(payload[i + 2]) << 8 | UInt32(payload[i + 3]) }
            switch type {
            case 0: out.append(.data(stream: stream, bytes: payload, endStream: flags & 1 != 0))
            case 1:
                var block = ByteBuffer(bytes: payload)
                let headers = (try? s.decoder.decodeHeaders(from: &block)) ?? [:]
                out.append(.headers(stream: stream, headers: headers, endStream: flags & 1 != 0))
            case 3: out.append(.rstStream(stream: stream, code: u32(0)))
            case 4:
                var values: [(UInt16, UInt32)] = []
                var i = 0
                while i + 6 <= payload.count {
                    values.append((UInt16(payload[i]) << 8 | UInt16(payload[i + 1]), u32(i + 2)))
                    i += 6
                }
                out.append(.settings(ack: flags & 1 != 0, values: values))
            case 7: out.append(.goAway(lastStream: u32(0) & 0x7FFF_FFFF, code: u32(4), debug: String(decoding: payload[8...], as: UTF8.self)))
            default: out.append(.other(type: type, stream: stream))
            }
        }
        return out
    }

    private final class Reader: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let onBytes: ([UInt8], Channel) -> Void
        let onClose: () -> Void
        init(onBytes: @escaping ([UInt8], Channel) -> Void, onClose: @escaping () -> Void) {
            self.onBytes = onBytes
            self.onClose = onClose
        }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            onBytes(Array(unwrapInboundIn(data).readableBytesView), context.channel)
        }
        func channelInactive(context: ChannelHandlerContext) { onClose() }
        /// The preface goes first, before any ACK of the server's SETTINGS can be written.
        func channelActive(context: ChannelHandlerContext) {
            var preface = ByteBuffer(string: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
            var settings = RawHTTP2Client.frame(type: 4, flags: 0, stream: 0, payload: [])
            preface.writeBuffer(&settings)
            context.writeAndFlush(NIOAny(preface), promise: nil)
            context.fireChannelActive()
        }
        func errorCaught(context: ChannelHandlerContext, error: Error) { context.close(promise: nil) }
    }
}
