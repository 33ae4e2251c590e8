import APNsCore
@testable import APNsSimulator
import NIOCore
import NIOHPACK
import XCTest

/// The validator alone, without sockets: each reason from its real cause.
final class RequestValidatorTests: XCTestCase {
    final class Clock: @unchecked Sendable { var now: Double = 1_700_000_000 }
    let clock = Clock()
    let key = SigningKey.generate()
    let token = String(repeating: "0a", count: 32)
    lazy var validator: RequestValidator = {
        var c = SimulatorConfiguration()
        c.register(RegisteredKey(keyID: key.keyID, teamID: key.teamID, publicKey: key.publicKey))
        c.topicsByTeam[key.teamID] = ["com.example.app"]
        let clock = self.clock
        c.clock = WallClock { clock.now }
        return RequestValidator(configuration: c)
    }()

    func bearer(iat: Int? = nil, with signer: SigningKey? = nil) -> String {
        "bearer " + ProviderTokenCache.makeJWT(key: signer ?? key, issuedAt: iat ?? Int(clock.now))
    }

    func request(method: String = "POST", path: String? = nil, topic: String? = "com.example.app", pushType: String? = "alert",
                 extra: [(String, String)] = [], authorization: String? = "", body: String = #"{"aps":{"alert":"hi"}}"#) -> ReceivedRequest {
        var h: HPACKHeaders = [":method": method, ":scheme": "https", ":path": path ?? "/3/device/\(token)"]
        if let topic { h.add(name: "apns-topic", value: topic) }
        if let pushType { h.add(name: "apns-push-type", value: pushType) }
        if let authorization { h.add(name: "authorization", value: authorization.isEmpty ? bearer() : authorization) }
        for (n, v) in extra { h.add(name: n, value: v) }
        var buffer = ByteBufferAllocator().buffer(capacity: body.utf8.count)
        buffer.writeString(body)
        return ReceivedRequest(headers: h, body: buffer)
    }

    func verdict(_ r: ReceivedRequest, _ auth: inout ConnectionAuthState) -> Verdict { validator.validate(r, auth: &auth) }
    func verdict(_ r: ReceivedRequest) -> Verdict {
        var auth = ConnectionAuthState()
        return validator.validate(r, auth: &auth)
    }

    func testAGoodPushIsAcceptedAndBindsTheConnection() {
        var auth = ConnectionAuthState()
        let token = bearer()
        XCTAssertEqual(verdict(request(authorization: token), &auth), .accept)
        XCTAssertTrue(auth.isAuthenticated)
        XCTAssertEqual(auth.boundTeamID, key.teamID)
        // The same token again is accepted without verifying it again.
        XCTAssertEqual(verdict(request(authorization: token), &auth), .accept)
        XCTAssertEqual(auth.verifications, 1)
        // ES256 signatures are randomized: signing again gives a different token, which on the same
        // connection within 20 minutes is a token update APNs refuses.
        XCTAssertEqual(verdict(request(authorization: bearer()), &auth), .reject(.tooManyProviderTokenUpdates))
    }

    func testRequestShapeReasons() {
        XCTAssertEqual(verdict(request(method: "GET")), .reject(.methodNotAllowed))
        XCTAssertEqual(verdict(request(path: "/3/devices/\(token)")), .reject(.badPath))
        XCTAssertEqual(verdict(request(path: "/3/device/")), .reject(.missingDeviceToken))
        XCTAssertEqual(verdict(request(path: "/3/device/xyz")), .reject(.badDeviceToken))
        XCTAssertEqual(verdict(request(path: "/3/device/" + String(repeating: "a", count: 202))), .reject(.badDeviceToken))
        XCTAssertEqual(verdict(request(path: "/3/device/" + String(repeating: "a", count: 200))), .accept)
        XCTAssertEqual(verdict(request(extra: [("apns-topic", "com.example.app")])), .reject(.duplicateHeaders))
        XCTAssertEqual(verdict(request(extra: [("apns-id", "not-a-uuid")])), .reject(.badMessageId))
        XCTAssertEqual(verdict(request(extra: [("apns-id", "123e4567-e89b-12d3-a456-4266554400a0")])), .accept)
        XCTAssertEqual(verdict(request(extra: [("apns-priority", "7")])), .reject(.badPriority))
        XCTAssertEqual(verdict(request(pushType: "background", extra: [("apns-priority", "10")])), .reject(.badPriority))
        XCTAssertEqual(verdict(request(pushType: "telepathy")), .reject(.invalidPushType))
        XCTAssertEqual(verdict(request(extra: [("apns-expiration", "soon")])), .reject(.badExpirationDate))
        XCTAssertEqual(verdict(request(extra: [("apns-collapse-id", String(repeating: "c", count: 65))])), .reject(.badCollapseId))
        XCTAssertEqual(verdict(request(extra: [("apns-collapse-id", String(repeating: "c", count: 64))])), .accept)
        XCTAssertEqual(verdict(request(topic: nil)), .reject(.missingTopic))
        XCTAssertEqual(verdict(request(topic: "com.example.app", pushType: "liveactivity")), .reject(.badTopic))
        XCTAssertEqual(verdict(request(topic: "com.other.app")), .reject(.topicDisallowed))
    }

    func testProviderTokenReasons() {
        XCTAssertEqual(verdict(request(authorization: nil)), .reject(.missingProviderToken))
        XCTAssertEqual(verdict(request(authorization: "bearer not.a.jwt")), .reject(.invalidProviderToken))
        XCTAssertEqual(verdict(request(authorization: bearer(with: SigningKey.generate(keyID: "OTHERKEY01")))), .reject(.invalidProviderToken),
                       "unknown kid")
        // Right kid, wrong private key: the signature fails.
        let impostor = SigningKey.generate(keyID: key.keyID, teamID: key.teamID)
        XCTAssertEqual(verdict(request(authorization: bearer(with: impostor))), .reject(.invalidProviderToken))
        // Older than an hour.
        XCTAssertEqual(verdict(request(authorization: bearer(iat: Int(clock.now) - 3601))), .reject(.expiredProviderToken))
    }

    func testTokenExpiresOnTheConnectionAfterAnHourByTheMovedClock() {
        var auth = ConnectionAuthState()
        XCTAssertEqual(verdict(request(), &auth), .accept)
        let sameToken = request(authorization: auth.currentToken.map { "bearer " + $0 })
        clock.now += 3599
        XCTAssertEqual(verdict(sameToken, &auth), .accept)
        clock.now += 2
        XCTAssertEqual(verdict(sameToken, &auth), .reject(.expiredProviderToken))
    }

    func testANewTokenAfterTwentyMinutesOnOneConnectionIsAccepted() {
        var auth = ConnectionAuthState()
        XCTAssertEqual(verdict(request(), &auth), .accept)
        clock.now += 20 * 60
        XCTAssertEqual(verdict(request(authorization: bearer()), &auth), .accept)
    }

    func testPayloadReasons() {
        XCTAssertEqual(verdict(request(body: "")), .reject(.payloadEmpty))
        let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#
        XCTAssertEqual(verdict(request(body: big)), .reject(.payloadTooLarge))
        XCTAssertEqual(verdict(request(topic: "com.example.app.voip", pushType: "voip", body: big)), .accept, "voip allows 5120 bytes")
        XCTAssertEqual(verdict(request(body: "[1,2,3]")), .reject(Reason(rawValue: "BadPayload", status: 400, handling: .fixRequest)))
        // What JSONDecoder would take but RFC 8259 does not: a byte-order mark, a trailing comma.
        for body in ["\u{FEFF}{\"aps\":{}}", #"{"aps":{"alert":"x"},}"#] {
            XCTAssertEqual(verdict(request(body: body)), .reject(Reason(rawValue: "BadPayload", status: 400, handling: .fixRequest)), body)
        }
    }

    /// A connection remembers the topic it last pushed to (and the team it was allowed for): changing
    /// topic or push type on the connection must still give each topic's own verdict.
    func testTopicChecksAreRepeatedWhenTheTopicOrPushTypeChangesOnAConnection() {
        var auth = ConnectionAuthState()
        let token = bearer()
        XCTAssertEqual(verdict(request(authorization: token), &auth), .accept)
        XCTAssertEqual(verdict(request(topic: "com.other.app", authorization: token), &auth), .reject(.topicDisallowed))
        XCTAssertEqual(verdict(request(topic: "com.example.app", pushType: "voip", authorization: token), &auth), .reject(.badTopic))
        XCTAssertEqual(verdict(request(topic: "com.example.app.voip", pushType: "voip", authorization: token), &auth), .accept)
        XCTAssertEqual(verdict(request(topic: "com.example.app.voip", pushType: "alert", authorization: token), &auth), .reject(.badTopic))
        XCTAssertEqual(verdict(request(topic: ".com.example.app", authorization: token), &auth), .reject(.badTopic))
        XCTAssertEqual(verdict(request(authorization: token), &auth), .accept)
        XCTAssertEqual(verdict(request(authorization: token), &auth), .accept)
        XCTAssertEqual(verdict(request(topic: "com.other.app", authorization: token), &auth), .reject(.topicDisallowed))
        // A remembered topic is still checked against the token first.
        XCTAssertEqual(verdict(request(authorization: nil), &auth), .reject(.missingProviderToken))
        XCTAssertEqual(verdict(request(authorization: "bearer not.a.jwt"), &auth), .reject(.invalidProviderToken))
    }

    /// The same token on a connection that refuses after TooManyProviderTokenUpdates is refused too.
    func testTheSameTokenIsRefusedWhileTheConnectionRefuses() {
        var auth = ConnectionAuthState()
        let token = bearer()
        XCTAssertEqual(verdict(request(authorization: token), &auth), .accept)
        XCTAssertEqual(verdict(request(authorization: bearer()), &auth), .reject(.tooManyProviderTokenUpdates))
        XCTAssertEqual(verdict(request(authorization: token), &auth), .reject(.tooManyProviderTokenUpdates))
        XCTAssertEqual(verdict(request(authorization: "bearer"), &auth), .reject(.missingProviderToken))
        clock.now += 1201
        XCTAssertEqual(verdict(request(authorization: token), &auth), .accept)
    }

    func testPathReasonsOverBytes() {
        XCTAssertEqual(verdict(request(path: "/3/device")), .reject(.missingDeviceToken))
        XCTAssertEqual(verdict(request(path: "/3/devic")), .reject(.badPath))
        XCTAssertEqual(verdict(request(path: "")), .reject(.badPath))
        XCTAssertEqual(verdict(request(path: "/3/device/\(token)?x=1")), .reject(.badDeviceToken))
        XCTAssertEqual(verdict(request(path: "/3/device/" + token.uppercased())), .accept)
        XCTAssertEqual(verdict(request(path: "/3/device/" + String(token.dropLast()))), .reject(.badDeviceToken), "odd length")
    }

    /// The headers are gathered in one pass: the first of each, duplicates flagged, content-length read
    /// as the HTTP/2 layer reads it.
    func testHeaderFields() {
        let uuid = "123e4567-e89b-12d3-a456-4266554400a0"
        var f = RequestHeaderFields([":method": "POST", "apns-id": uuid, "apns-topic": "a", "content-length": "22"])
        XCTAssertEqual(f.method, "POST")
        XCTAssertEqual(f.apnsID, uuid)
        XCTAssertFalse(f.duplicate)
        XCTAssertEqual(f.contentLength, .length(22))
        f = RequestHeaderFields(HPACKHeaders([("apns-topic", "a"), ("apns-topic", "b")]))
        XCTAssertEqual(f.topic, "a")
        XCTAssertTrue(f.duplicate)
        XCTAssertEqual(f.contentLength, .absent)
        func length(_ values: String...) -> RequestHeaderFields.ContentLength {
            RequestHeaderFields(HPACKHeaders(values.map { ("content-length", $0) })).contentLength
        }
        XCTAssertEqual(length("22", " 22 , 22"), .length(22))
        XCTAssertEqual(length("0"), .length(0))
        XCTAssertEqual(length("+7"), .length(7), "as Int(_:radix:) reads it")
        XCTAssertEqual(length(""), .absent)
        XCTAssertEqual(length("22", "23"), .invalid)
        XCTAssertEqual(length("22,23"), .invalid)
        XCTAssertEqual(length("-1"), .invalid)
        XCTAssertEqual(length("x"), .invalid)
        XCTAssertEqual(length("99999999999999999999"), .invalid)
        XCTAssertEqual(RequestHeaderFields(HPACKHeaders([("Content-Length", "5")])).contentLength, .length(5))
    }

    func testResponseIDsAreVersion4UUIDs() {
        var ids = ResponseIDs()
        var seen = Set<String>()
        for _ in 0..<1000 {
            let id = ids.next()
            XCTAssertTrue(UUIDText.isCanonical(id.utf8), id)
            XCTAssertEqual(id, id.lowercased())
            let u = Array(id.utf8)
            XCTAssertEqual(u[14], UInt8(ascii: "4"), id)
            XCTAssertTrue("89ab".utf8.contains(u[19]), id)
            seen.insert(id)
        }
        XCTAssertEqual(seen.count, 1000)
        XCTAssertEqual(Set(seen.map { $0.prefix(8) }).count, 1000, "the random bits reach every position")
    }
}
