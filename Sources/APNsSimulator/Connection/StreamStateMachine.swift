import NIOCore
import NIOHPACK
import NIOHTTP2

/// The streams of one `APNsConnectionHandler` connection, without its I/O: each request stream's headers
/// gathered, its body accumulated, the body bytes its `content-length` still announces, and whether it is
/// answered; the highest stream id seen (GOAWAY's last stream id); whether the stall fault has silenced
/// the connection.
///
/// Why a value type apart from the handler: the handler writes frames, validates requests, keeps counters
/// and runs the connection's rules (`ConnectionPolicy`); the streams' bookkeeping is decided here, where a
/// test can drive it without a channel. Each frame the handler reads is a mutating method that returns an
/// `Action`; the handler carries it out. A new stream takes two steps, because the connection's rules
/// decide whether it is taken: `receiveHeaders` returns `.admit` for well-formed request headers, the
/// handler asks `ConnectionPolicy.streamOpened`, then either calls `admit` or refuses the stream (which is
/// then never stored).
///
/// A stream stays stored from its admission until the HTTP/2 layer closes it (`streamClosed`), answered or
/// not, so that frames after its answer are recognised and ignored. A stream reset for a broken
/// `content-length` on its HEADERS is never stored; one reset on a later frame stays stored as answered.
///
/// Speed: one dictionary entry per stream and no allocation of its own. DATA and trailers update the
/// stored entry in place (`receive(_:_:)`): the entry is set to `.answered` while its body is extended, so
/// that the body's storage has one owner and grows without a copy.
struct StreamStateMachine {
    /// One request stream: receiving its request, or done with it.
    private enum StreamState {
        /// Headers gathered when the HEADERS frame arrived (what the validator reads), the body so far, and
        /// the body bytes `content-length` still announces (nil without one).
        case receiving(RequestHeaderFields, body: ByteBuffer?, remaining: Int?)
        /// Answered, or reset for a broken `content-length`: later frames are ignored.
        case answered

        init(fields: RequestHeaderFields) {
            if case let .length(n) = fields.contentLength {
                self = .receiving(fields, body: nil, remaining: n)
            } else {
                self = .receiving(fields, body: nil, remaining: nil)
            }
        }
    }

    /// What the handler does after a frame.
    enum Action {
        /// Nothing yet: the stream waits for more frames.
        case none
        /// The frame changes nothing: its stream is answered or reset, unknown, or the connection is stalled.
        case ignore
        /// RST_STREAM with this code, and no answer.
        case reset(HTTP2StreamID, HTTP2ErrorCode)
        /// A new stream's request headers, well-formed: ask the connection's rules, then `admit` it or
        /// refuse it.
        case admit(HTTP2StreamID, RequestHeaderFields, endStream: Bool)
        /// The request is complete: validate it and answer it on this stream.
        case validate(HTTP2StreamID, RequestHeaderFields, ByteBuffer?)
    }

    /// Past this many bytes gathered the body is too large for any push type: the size is kept over the
    /// limit, not the further bytes.
    static let bodyBytesKept = 8192

    private var streams: [HTTP2StreamID: StreamState] = [:]
    /// The highest stream id a HEADERS frame opened (refused and reset ones too).
    private(set) var highestStreamID: HTTP2StreamID = .rootStream
    /// Set by the stall fault: nothing is read or written on the connection any more.
    private(set) var isStalled = false

    /// Streams stored: admitted and not yet closed by the HTTP/2 layer, answered or not.
    var openStreams: Int { streams.count }

    /// Whether `streamID` is stored (admitted and not yet closed).
    func isOpen(_ streamID: HTTP2StreamID) -> Bool { streams[streamID] != nil }

    // MARK: Frames

    /// A HEADERS frame: a new stream's request headers, or trailers on a stored stream. `headers` are read
    /// only for a new stream. A new stream's `content-length` is checked first: a malformed one, or one
    /// other than 0 on HEADERS that end the stream, resets it. Trailers end the body: it must have been as
    /// long as announced.
    mutating func receiveHeaders(_ headers: HPACKHeaders, endStream: Bool, streamID: HTTP2StreamID) -> Action {
        guard !isStalled else { return .ignore }
        if let index = streams.index(forKey: streamID) {
            return Self.receiveTrailers(endStream: endStream, streamID: streamID, &streams.values[index])
        }
        if streamID > highestStreamID { highestStreamID = streamID }
        let fields = RequestHeaderFields(headers)
        switch fields.contentLength {
        case .absent: break
        case let .length(n): if endStream, n != 0 { return .reset(streamID, .protocolError) }
        case .invalid: return .reset(streamID, .protocolError)
        }
        return .admit(streamID, fields, endStream: endStream)
    }

    /// The connection's rules took the stream `receiveHeaders` returned as `.admit`: it is stored, and
    /// answered at once when its HEADERS ended it.
    mutating func admit(_ streamID: HTTP2StreamID, _ fields: RequestHeaderFields, endStream: Bool) -> Action {
        streams[streamID] = endStream ? .answered : StreamState(fields: fields)
        return endStream ? .validate(streamID, fields, nil) : .none
    }

    /// A DATA frame. Its bytes count against `content-length`: more than announced, or END_STREAM before
    /// all of it, resets the stream.
    mutating func receiveData(_ data: HTTP2Frame.FramePayload.Data, streamID: HTTP2StreamID) -> Action {
        guard !isStalled, let index = streams.index(forKey: streamID) else { return .ignore }
        return Self.receive(data, streamID: streamID, &streams.values[index])
    }

    /// RST_STREAM from the client: the stream is forgotten, answered or not.
    mutating func resetByPeer(_ streamID: HTTP2StreamID) -> Action {
        guard !isStalled else { return .ignore }
        streams[streamID] = nil
        return .none
    }

    /// The HTTP/2 layer closed the stream (answered, reset either way, or the connection ended).
    mutating func streamClosed(_ streamID: HTTP2StreamID) {
        streams[streamID] = nil
    }

    /// The stall fault: every frame from now on is ignored. Stored streams stay stored, unanswered.
    mutating func stall() {
        isStalled = true
    }

    // MARK: In place

    private static func receive(_ d: HTTP2Frame.FramePayload.Data, streamID: HTTP2StreamID, _ stream: inout StreamState) -> Action {
        guard case .receiving(let fields, var body, var remaining) = stream else { return .ignore }
        stream = .answered  // until the end: `body` is then the one owner of its storage
        if let left = remaining {
            let now = left - d.data.readableBytes
            if now < 0 || (d.endStream && now != 0) { return .reset(streamID, .protocolError) }
            remaining = now
        }
        if case var .byteBuffer(buffer) = d.data, (body?.readableBytes ?? 0) <= bodyBytesKept {
            if body == nil {
                body = buffer
            } else {
                body!.writeBuffer(&buffer)
            }
        }
        guard d.endStream else {
            stream = .receiving(fields, body: body, remaining: remaining)
            return .none
        }
        return .validate(streamID, fields, body)
    }

    private static func receiveTrailers(endStream: Bool, streamID: HTTP2StreamID, _ stream: inout StreamState) -> Action {
        guard case let .receiving(fields, body, remaining) = stream else { return .ignore }
        if let left = remaining, left != 0 {
            stream = .answered
            return .reset(streamID, .protocolError)
        }
        guard endStream else { return .none }
        stream = .answered
        return .validate(streamID, fields, body)
    }
}
