import APNsCore
@testable import APNsSimulator
import XCTest

/// content-length is checked against the body, as HTTP/2 requires: a stream whose content-length is
/// malformed or disagrees with its DATA is reset with PROTOCOL_ERROR and gets no answer, as NIOHTTP2's
/// own check (off: the handler does it) would; the connection goes on.
final class ContentLengthTests: XCTestCase {
    static let protocolError = -1

    func testAMatchingContentLengthIsAccepted() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let n = SimulatorHarness.alert.utf8.count
        XCTAssertAccepted(try h.push(c, h.headers(extra: [("content-length", "\(n)")])))
        XCTAssertAccepted(try h.push(c, h.headers(extra: [("content-length", "\(n), \(n)")])))
    }

    func testAMismatchedOrMalformedContentLengthResetsTheStreamOnly() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        let n = SimulatorHarness.alert.utf8.count
        XCTAssertAccepted(try h.push(c, h.headers()))
        for bad in ["\(n + 1)", "\(n - 1)", "-1", "x", "\(n), \(n + 1)"] {
            let r = try h.push(c, h.headers(extra: [("content-length", bad)]))
            XCTAssertEqual(r.status, Self.protocolError, "content-length \(bad): RST_STREAM PROTOCOL_ERROR")
        }
        let twice = try h.push(c, h.headers(extra: [("content-length", "\(n)"), ("content-length", "\(n + 2)")]))
        XCTAssertEqual(twice.status, Self.protocolError, "two content-lengths that disagree")
        // HEADERS that end the stream announce no body.
        let id = try c.send(h.headers(extra: [("content-length", "5")]), body: nil, endStream: true)
        XCTAssertEqual(c.response(id)?.status, Self.protocolError)
        // A body split over two DATA frames is counted as a whole.
        let open = try c.sendOpen(h.headers(extra: [("content-length", "\(n)")]))
        try c.sendData(open, SimulatorHarness.alert, endStream: false)
        try c.sendData(open, "", endStream: true)
        XCTAssertAccepted(try XCTUnwrap(c.response(open)))
        // The connection goes on; reset streams were never requests.
        XCTAssertAccepted(try h.push(c, h.headers()))
        XCTAssertNil(c.goAway)
        XCTAssertEqual(h.simulator.counterSnapshot.requests, 3)
    }
}
