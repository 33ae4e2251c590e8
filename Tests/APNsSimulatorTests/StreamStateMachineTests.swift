@testable import APNsSimulator
import NIOCore
import NIOHPACK
import NIOHTTP2
import XCTest

/// `StreamStateMachine` on its own: frames in, actions out, no channel.
final class StreamStateMachineTests: XCTestCase {
    /// An action with what the tests read of it (`RequestHeaderFields` is not `Equatable`).
    private enum Seen: Equatable {
        case none, ignore
        case reset(HTTP2StreamID, HTTP2ErrorCode)
        case admit(HTTP2StreamID, path: String?, endStream: Bool)
        case validate(HTTP2StreamID, path: String?, body: String?)

        init(_ action: StreamStateMachine.Action) {
            switch action {
            case .none: self = .none
            case .ignore: self = .ignore
            case let .reset(id, code): self = .reset(id, code)
            case let .admit(id, fields, endStream): self = .admit(id, path: fields.path, endStream: endStream)
            case let .validate(id, fields, body): self = .validate(id, path: fields.path, body: body.map { String(buffer: $0) })
            }
        }
    }

    private static let path = "/3/device/0123"
    private static let one = HTTP2StreamID(1), three = HTTP2StreamID(3), five = HTTP2StreamID(5)

    private func headers(contentLength: [String] = []) -> HPACKHeaders {
        var h: HPACKHeaders = [":method": "POST", ":path": Self.path]
        for value in contentLength { h.add(name: "content-length", value: value) }
        return h
    }

    private func data(_ text: String, end: Bool = false) -> HTTP2Frame.FramePayload.Data {
        .init(data: .byteBuffer(ByteBuffer(string: text)), endStream: end)
    }

    /// HEADERS for a new stream, admitted as the connection's rules would; returns what `admit` returned.
    private func open(_ m: inout StreamStateMachine, _ id: HTTP2StreamID, contentLength: [String] = [],
                      endStream: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> Seen {
        let asked = m.receiveHeaders(headers(contentLength: contentLength), endStream: endStream, streamID: id)
        XCTAssertEqual(Seen(asked), .admit(id, path: Self.path, endStream: endStream), file: file, line: line)
        guard case let .admit(_, fields, end) = asked else { return Seen(asked) }
        return Seen(m.admit(id, fields, endStream: end))
    }

    // MARK: Requests answered

    func testHeadersThatEndTheStreamAreValidatedAtOnceWithNoBody() {
        var m = StreamStateMachine()
        XCTAssertEqual(open(&m, Self.one, endStream: true), .validate(Self.one, path: Self.path, body: nil))
        XCTAssertTrue(m.isOpen(Self.one), "stored until the HTTP/2 layer closes it")
        XCTAssertEqual(open(&m, Self.three, contentLength: ["0"], endStream: true), .validate(Self.three, path: Self.path, body: nil),
                       "content-length 0 on HEADERS that end the stream")
        XCTAssertEqual(m.openStreams, 2)
    }

    func testTheBodyIsGatheredUntilEndStream() {
        var m = StreamStateMachine()
        XCTAssertEqual(open(&m, Self.one), .none)
        XCTAssertEqual(Seen(m.receiveData(data("{\"a\""), streamID: Self.one)), .none)
        XCTAssertEqual(Seen(m.receiveData(data(":1}", end: true), streamID: Self.one)),
                       .validate(Self.one, path: Self.path, body: "{\"a\":1}"))
    }

    func testABodyAsLongAsItsContentLengthIsValidated() {
        var m = StreamStateMachine()
        XCTAssertEqual(open(&m, Self.one, contentLength: ["4", "4"]), .none)
        XCTAssertEqual(Seen(m.receiveData(data("ab"), streamID: Self.one)), .none)
        XCTAssertEqual(Seen(m.receiveData(data("cd", end: true), streamID: Self.one)), .validate(Self.one, path: Self.path, body: "abcd"))
    }

    func testTrailersEndTheBody() {
        var m = StreamStateMachine()
        XCTAssertEqual(open(&m, Self.one, contentLength: ["2"]), .none)
        XCTAssertEqual(Seen(m.receiveData(data("ab"), streamID: Self.one)), .none)
        XCTAssertEqual(Seen(m.receiveHeaders([:], endStream: false, streamID: Self.one)), .none, "trailers that do not end the stream")
        XCTAssertEqual(Seen(m.receiveHeaders([:], endStream: true, streamID: Self.one)), .validate(Self.one, path: Self.path, body: "ab"))

        XCTAssertEqual(open(&m, Self.three), .none)
        XCTAssertEqual(Seen(m.receiveHeaders([:], endStream: true, streamID: Self.three)), .validate(Self.three, path: Self.path, body: nil),
                       "without content-length and without a body")
    }

    func testPastTheKeptSizeTheBodyKeepsItsSizeOverTheLimitOnly() {
        var m = StreamStateMachine()
        let kept = StreamStateMachine.bodyBytesKept
        XCTAssertEqual(open(&m, Self.one), .none)
        XCTAssertEqual(Seen(m.receiveData(data(String(repeating: "x", count: kept)), streamID: Self.one)), .none)
        XCTAssertEqual(Seen(m.receiveData(data("y"), streamID: Self.one)), .none)
        let last = m.receiveData(data("zzz", end: true), streamID: Self.one)
        guard case let .validate(_, _, body) = last else { return XCTFail("\(Seen(last))") }
        XCTAssertEqual(body?.readableBytes, kept + 1, "the frame that crosses the limit is kept, later ones are not")
    }

    // MARK: content-length broken

    func testABrokenContentLengthOnHeadersResetsTheStreamWithoutStoringIt() {
        let table: [(values: [String], endStream: Bool)] = [
            (["x"], false), (["-1"], false), (["2", "3"], false), (["2, 3"], false), (["3"], true),
        ]
        for row in table {
            var m = StreamStateMachine()
            XCTAssertEqual(Seen(m.receiveHeaders(headers(contentLength: row.values), endStream: row.endStream, streamID: Self.one)),
                           .reset(Self.one, .protocolError), "\(row)")
            XCTAssertFalse(m.isOpen(Self.one), "\(row)")
            XCTAssertEqual(Seen(m.receiveData(data("abc", end: true), streamID: Self.one)), .ignore, "\(row): no stream to take it")
        }
    }

    func testABodyLongerThanItsContentLengthResetsTheStream() {
        var m = StreamStateMachine()
        XCTAssertEqual(open(&m, Self.one, contentLength: ["2"]), .none)
        XCTAssertEqual(Seen(m.receiveData(data("abc"), streamID: Self.one)), .reset(Self.one, .protocolError))
        XCTAssertTrue(m.isOpen(Self.one), "reset on DATA: stored as answered until closed")
        XCTAssertEqual(Seen(m.receiveData(data("d", end: true), streamID: Self.one)), .ignore)
    }

    func testABodyShorterThanItsContentLengthResetsTheStream() {
        var m = StreamStateMachine()
        XCTAssertEqual(open(&m, Self.one, contentLength: ["5"]), .none)
        XCTAssertEqual(Seen(m.receiveData(data("ab", end: true), streamID: Self.one)), .reset(Self.one, .protocolError), "END_STREAM on DATA")

        XCTAssertEqual(open(&m, Self.three, contentLength: ["5"]), .none)
        XCTAssertEqual(Seen(m.receiveData(data("ab"), streamID: Self.three)), .none)
        XCTAssertEqual(Seen(m.receiveHeaders([:], endStream: true, streamID: Self.three)), .reset(Self.three, .protocolError), "trailers")
        XCTAssertEqual(Seen(m.receiveHeaders([:], endStream: true, streamID: Self.three)), .ignore)
    }

    // MARK: Frames that change nothing

    func testFramesAfterTheAnswerAreIgnored() {
        var m = StreamStateMachine()
        XCTAssertEqual(open(&m, Self.one, endStream: true), .validate(Self.one, path: Self.path, body: nil))
        XCTAssertEqual(Seen(m.receiveData(data("ab", end: true), streamID: Self.one)), .ignore)
        XCTAssertEqual(Seen(m.receiveHeaders(headers(), endStream: true, streamID: Self.one)), .ignore)
        XCTAssertEqual(m.openStreams, 1)
    }

    func testDataForAStreamNeverAdmittedIsIgnored() {
        var m = StreamStateMachine()
        XCTAssertEqual(Seen(m.receiveData(data("ab", end: true), streamID: Self.three)), .ignore, "unknown stream")
        // Refused by the connection's rules: `admit` is never called.
        XCTAssertEqual(Seen(m.receiveHeaders(headers(), endStream: false, streamID: Self.one)), .admit(Self.one, path: Self.path, endStream: false))
        XCTAssertEqual(Seen(m.receiveData(data("ab", end: true), streamID: Self.one)), .ignore)
        XCTAssertEqual(m.openStreams, 0)
    }

    // MARK: Streams closed, the highest id, the stall

    func testAResetFromThePeerOrAClosedStreamForgetsIt() {
        var m = StreamStateMachine()
        XCTAssertEqual(open(&m, Self.one), .none)
        XCTAssertEqual(open(&m, Self.three), .none)
        XCTAssertEqual(Seen(m.resetByPeer(Self.one)), .none)
        XCTAssertFalse(m.isOpen(Self.one))
        XCTAssertEqual(Seen(m.receiveData(data("ab", end: true), streamID: Self.one)), .ignore)
        XCTAssertEqual(Seen(m.resetByPeer(Self.five)), .none, "an unknown stream")
        m.streamClosed(Self.three)
        XCTAssertFalse(m.isOpen(Self.three))
        XCTAssertEqual(m.openStreams, 0)
    }

    func testTheHighestStreamIDCountsEveryNewStreamsHeaders() {
        var m = StreamStateMachine()
        XCTAssertEqual(m.highestStreamID, .rootStream)
        XCTAssertEqual(open(&m, Self.three), .none)
        XCTAssertEqual(m.highestStreamID, Self.three)
        _ = m.receiveHeaders(headers(), endStream: false, streamID: Self.one)
        XCTAssertEqual(m.highestStreamID, Self.three, "a lower id leaves it")
        _ = m.receiveHeaders(headers(contentLength: ["x"]), endStream: false, streamID: Self.five)
        XCTAssertEqual(m.highestStreamID, Self.five, "a reset stream counts")
        _ = m.receiveHeaders([:], endStream: true, streamID: Self.three)
        XCTAssertEqual(m.highestStreamID, Self.five)
    }

    func testAfterTheStallEveryFrameIsIgnoredAndStreamsStay() {
        var m = StreamStateMachine()
        XCTAssertEqual(open(&m, Self.one), .none)
        XCTAssertFalse(m.isStalled)
        m.stall()
        XCTAssertTrue(m.isStalled)
        XCTAssertEqual(Seen(m.receiveData(data("ab", end: true), streamID: Self.one)), .ignore)
        XCTAssertEqual(Seen(m.receiveHeaders(headers(), endStream: true, streamID: Self.three)), .ignore)
        XCTAssertEqual(Seen(m.resetByPeer(Self.one)), .ignore)
        XCTAssertTrue(m.isOpen(Self.one), "unanswered, still stored")
        XCTAssertEqual(m.highestStreamID, Self.one, "headers after the stall are not read")
    }
}
