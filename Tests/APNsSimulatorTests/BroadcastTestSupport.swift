import APNsCore
@testable import APNsSimulator
import XCTest

/// Requests of the broadcast APIs (`ChannelRequests.swift`) for `SimulatorHarness`.
extension SimulatorHarness {
    static let liveActivityUpdate = #"{"aps":{"timestamp":1714042800,"event":"update","content-state":{"score":"1-0"}}}"#

    /// A channel-management request: `path` defaults to `/1/apps/<bundle>/channels`; a nil
    /// `channelID` or `requestID` leaves the header out; `authorization` "" is the harness's token.
    func channelHeaders(method: String, path: String? = nil, bundle: String? = nil, channelID: String? = nil,
                        requestID: String? = nil, authorization: String? = "", extra: [(String, String)] = []) -> [(String, String)] {
        var h: [(String, String)] = [(":method", method), (":scheme", "http"),
                                     (":path", path ?? "/1/apps/\(bundle ?? bundleID)/channels"), (":authority", "127.0.0.1")]
        if let channelID { h.append(("apns-channel-id", channelID)) }
        if let requestID { h.append(("apns-request-id", requestID)) }
        if let authorization { h.append(("authorization", authorization.isEmpty ? providerToken : authorization)) }
        return h + extra
    }

    /// A good broadcast to `channelID`, with overrides: a nil value leaves the header out.
    func broadcastHeaders(channelID: String?, bundle: String? = nil, pushType: String? = "liveactivity", priority: String? = "10",
                          expiration: String? = "0", requestID: String? = nil, authorization: String? = "",
                          extra: [(String, String)] = []) -> [(String, String)] {
        var h = channelHeaders(method: "POST", path: "/4/broadcasts/apps/\(bundle ?? bundleID)", channelID: channelID,
                               requestID: requestID, authorization: authorization)
        if let pushType { h.append(("apns-push-type", pushType)) }
        if let priority { h.append(("apns-priority", priority)) }
        if let expiration { h.append(("apns-expiration", expiration)) }
        return h + extra
    }

    static func createBody(policy: Int = 1) -> String { #"{"message-storage-policy": \#(policy), "push-type": "LiveActivity"}"# }

    /// Creates a channel over `client` and returns its id (failing the test if it is not created).
    func createChannel(_ client: RawHTTP2Client, policy: Int = 1, bundle: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try push(client, channelHeaders(method: "POST", bundle: bundle), body: Self.createBody(policy: policy), file: file, line: line)
        XCTAssertEqual(r.status, 201, "create: \(r.body)", file: file, line: line)
        return try XCTUnwrap(r.headers.first(name: "apns-channel-id"), "create answers apns-channel-id", file: file, line: line)
    }
}

/// A Live Activity broadcast payload of exactly `size` bytes.
func broadcastPayload(size: Int) -> String {
    let head = #"{"aps":{"timestamp":1714042800,"event":"update","content-state":{"s":""#, tail = #""}}}"#
    return head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail
}

/// Asserts a broadcast-API error: status, `{"reason": …}`, JSON content type and an `apns-request-id`.
func XCTAssertChannelRejected(_ r: RawHTTP2Client.Response, _ reason: Reason, _ message: String = "",
                              file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(r.status, reason.status, "status for \(reason) (body \(r.body)) \(message)", file: file, line: line)
    XCTAssertEqual(r.body, reason.responseBody, message, file: file, line: line)
    XCTAssertEqual(r.headers.first(name: "content-type"), "application/json", file: file, line: line)
    XCTAssertTrue(UUIDText.isCanonical((r.headers.first(name: "apns-request-id") ?? "").utf8), "apns-request-id", file: file, line: line)
    XCTAssertNil(r.headers.first(name: "apns-id"), "the broadcast APIs answer apns-request-id, not apns-id", file: file, line: line)
}
