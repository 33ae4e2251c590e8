import APNsCore
@testable import APNsSimulator
import Foundation
import TestSupport
import XCTest

/// Every reason a request can cause, triggered by its real cause over a real HTTP/2 connection, with
/// status and body asserted (Apple's "Handling notification responses from APNs").
final class SimulatorReasonTests: XCTestCase {
    func testRequestShapeReasons() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        XCTAssertRejected(try h.push(c, h.headers(method: "GET")), .methodNotAllowed)
        XCTAssertRejected(try h.push(c, h.headers(path: "/3/devices/\(SimulatorHarness.deviceToken)")), .badPath)
        XCTAssertRejected(try h.push(c, h.headers(path: "/3/device/")), .missingDeviceToken)
        XCTAssertRejected(try h.push(c, h.headers(token: "xyz")), .badDeviceToken)
        XCTAssertRejected(try h.push(c, h.headers(token: String(repeating: "a", count: 63))), .badDeviceToken)
        XCTAssertRejected(try h.push(c, h.headers(token: String(repeating: "a", count: 65))), .badDeviceToken)
        XCTAssertRejected(try h.push(c, h.headers(token: String(repeating: "a", count: 202))), .badDeviceToken)
        XCTAssertRejected(try h.push(c, h.headers(extra: [("apns-topic", "com.example.app")])), .duplicateHeaders)
        XCTAssertRejected(try h.push(c, h.headers(extra: [("apns-priority", "10"), ("apns-priority", "5")])), .duplicateHeaders)
        XCTAssertRejected(try h.push(c, h.headers(extra: [("apns-id", "not-a-uuid")])), .badMessageId)
        XCTAssertRejected(try h.push(c, h.headers(extra: [("apns-priority", "7")])), .badPriority)
        XCTAssertRejected(try h.push(c, h.headers(pushType: "background", extra: [("apns-priority", "10")])), .badPriority)
        XCTAssertRejected(try h.push(c, h.headers(pushType: "telepathy")), .invalidPushType)
        XCTAssertRejected(try h.push(c, h.headers(extra: [("apns-expiration", "tomorrow")])), .badExpirationDate)
        XCTAssertRejected(try h.push(c, h.headers(extra: [("apns-collapse-id", String(repeating: "c", count: 65))])), .badCollapseId)
        XCTAssertRejected(try h.push(c, h.headers(topic: nil)), .missingTopic)
        XCTAssertRejected(try h.push(c, h.headers(topic: "com.example.app", pushType: "liveactivity")), .badTopic)
        XCTAssertRejected(try h.push(c, h.headers(topic: "com.other.app")), .topicDisallowed)
        XCTAssertRejected(try h.push(c, h.headers(), body: nil), .payloadEmpty)
        XCTAssertAccepted(try h.push(c, h.headers(), body: payload(size: 4096)))
        XCTAssertRejected(try h.push(c, h.headers(), body: payload(size: 4097)), .payloadTooLarge)
        let voip = h.headers(topic: "com.example.voip.voip", pushType: "voip")
        XCTAssertAccepted(try h.push(c, voip, body: payload(size: 5120)), "voip allows 5120 bytes")
        XCTAssertRejected(try h.push(c, voip, body: payload(size: 5121)), .payloadTooLarge)
        XCTAssertRejected(try h.push(c, h.headers(), body: "[1,2]"), SimulatorConfiguration.simulatorBadPayload)
        XCTAssertRejected(try h.push(c, h.headers(), body: #"{"aps":"#), SimulatorConfiguration.simulatorBadPayload)
    }

    func testEveryEvenHexLengthFrom64To200IsADeviceToken() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        for n in stride(from: 64, through: 200, by: 2) {
            XCTAssertAccepted(try h.push(c, h.headers(token: String(repeating: "A1", count: n / 2))))
        }
    }

    func testProviderTokenReasons() throws {
        let h = try SimulatorHarness()
        let c = try h.client()
        XCTAssertRejected(try h.push(c, h.headers(authorization: nil)), .missingProviderToken)
        XCTAssertRejected(try h.push(c, h.headers(authorization: "bearer ")), .missingProviderToken)
        XCTAssertRejected(try h.push(c, h.headers(authorization: "bearer not.a.jwt")), .invalidProviderToken)
        XCTAssertRejected(try h.push(c, h.headers(authorization: h.bearer(SigningKey.generate(keyID: "UNKNOWN001", teamID: "TEAM000001")))),
                          .invalidProviderToken)
        // The right kid signed by another private key: the signature does not verify.
        XCTAssertRejected(try h.push(c, h.headers(authorization: h.bearer(SigningKey.generate(keyID: h.key.keyID, teamID: h.key.teamID)))),
                          .invalidProviderToken)
        XCTAssertRejected(try h.push(c, h.headers(authorization: h.bearer(iat: Int(h.clock.now) - 3601))), .expiredProviderToken)
        XCTAssertEqual(h.simulator.counterSnapshot.accepted, 0)
    }

    func testEnvironmentScopedKeyIsRefusedInTheOtherEnvironment() throws {
        let prod = SigningKey.generate(keyID: "PRODKEY001", teamID: "TEAM000001")
        let h = try SimulatorHarness { c in
            c.register(RegisteredKey(keyID: prod.keyID, teamID: prod.teamID, publicKey: prod.publicKey, scope: .production))
        }
        let c = try h.client()
        XCTAssertRejected(try h.push(c, h.headers(authorization: h.bearer(prod))), .badEnvironmentKeyIdInToken)
    }

    func testConnectionBindingReasons() throws {
        let sameTeam = SigningKey.generate(keyID: "KEY0000002", teamID: "TEAM000001")
        let otherTeam = SigningKey.generate(keyID: "KEY0000003", teamID: "TEAM000002")
        let h = try SimulatorHarness { c in
            for k in [sameTeam, otherTeam] { c.register(RegisteredKey(keyID: k.keyID, teamID: k.teamID, publicKey: k.publicKey)) }
            c.topicsByTeam[otherTeam.teamID] = ["com.example.app"]
        }
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.headers()))
        h.clock.advance(25 * 60)  // past the 20-minute rule, so only the binding can refuse
        XCTAssertRejected(try h.push(c, h.headers(authorization: h.bearer(otherTeam))), .forbidden)
        XCTAssertRejected(try h.push(c, h.headers(authorization: h.bearer(sameTeam))), .unrelatedKeyIdInToken)
        // Each key works on a connection of its own.
        XCTAssertAccepted(try h.push(try h.client(), h.headers(authorization: h.bearer(otherTeam))))
        XCTAssertAccepted(try h.push(try h.client(), h.headers(authorization: h.bearer(sameTeam))))
    }

    func testTokenLeniencies() throws {
        let h = try SimulatorHarness()
        let iat = Int(h.clock.now)
        // DER signature, padded standard base64 in all three parts, iat as a string, kid repeated in the claims.
        let header = Data(#"{"alg":"ES256","kid":"\#(h.key.keyID)","typ":"JWT"}"#.utf8).base64EncodedString()
        let claims = Data(#"{"iss":"\#(h.key.teamID)","iat":"\#(iat)","kid":"\#(h.key.keyID)"}"#.utf8).base64EncodedString()
        let input = header + "." + claims
        let der = derSignature(raw: h.key.privateKey.signature(for: Array(input.utf8)))
        let token = input + "." + Data(der).base64EncodedString()
        XCTAssertAccepted(try h.push(try h.client(), h.headers(authorization: "bearer " + token)))
    }

    func testRegistryReasons() throws {
        let mine = String(repeating: "11", count: 32), theirs = String(repeating: "22", count: 32)
        let gone = String(repeating: "33", count: 32), expired = String(repeating: "44", count: 80)
        let h = try SimulatorHarness { c in
            c.deviceRegistry.register(token: mine, bundleID: "com.example.app")
            c.deviceRegistry.register(token: theirs, bundleID: "com.example.voip")
            c.deviceRegistry.kill(token: gone, .init(reason: .unregistered, timestampMilliseconds: 1_600_000_000_123))
            c.deviceRegistry.kill(token: expired, .init(reason: .expiredToken))
        }
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.headers(token: mine.uppercased())))
        XCTAssertRejected(try h.push(c, h.headers(token: theirs)), .deviceTokenNotForTopic)
        let r410 = try h.push(c, h.headers(token: gone))
        XCTAssertRejected(r410, .unregistered)
        XCTAssertEqual(r410.body, #"{"reason":"Unregistered","timestamp":1600000000123}"#)
        let e410 = try h.push(c, h.headers(token: expired))
        XCTAssertRejected(e410, .expiredToken)
        XCTAssertEqual(e410.json["timestamp"] as? Int, Int(h.clock.now * 1000), "milliseconds of the simulator's clock")
    }

    func testPerTokenRateLimitAnswersTooManyRequestsUntilTheWindowPasses() throws {
        let h = try SimulatorHarness { $0.deviceRegistry.rateLimit = .init(pushes: 2, windowSeconds: 60) }
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.headers()))
        XCTAssertAccepted(try h.push(c, h.headers()))
        XCTAssertRejected(try h.push(c, h.headers()), .tooManyRequests)
        XCTAssertAccepted(try h.push(c, h.headers(token: String(repeating: "cd", count: 32))), "other tokens are not limited")
        h.clock.advance(60)
        XCTAssertAccepted(try h.push(c, h.headers()))
    }

    func testInjectedServerErrors() throws {
        for (reason, configure) in [
            (Reason.internalServerError, { (f: inout FaultInjection) in f.requestFaults[.internalServerError] = 1 }),
            (Reason.serviceUnavailable, { (f: inout FaultInjection) in f.requestFaults[.serviceUnavailable] = 1 }),
        ] {
            let h = try SimulatorHarness { configure(&$0.faults) }
            XCTAssertRejected(try h.push(try h.client(), h.headers()), reason)
        }
    }

    func testShutdownAnswersThenGoAwayWithShutdownReason() throws {
        let h = try SimulatorHarness { $0.faults.requestFaults[.shutdown] = 1 }
        let c = try h.client()
        let id = try c.send(h.headers(), body: SimulatorHarness.alert)
        XCTAssertRejected(try XCTUnwrap(c.response(id)), .shutdown)
        c.wait("GOAWAY") { _ in c.goAway != nil }
        XCTAssertEqual(c.goAway?.debug, #"{"reason":"Shutdown"}"#)
        XCTAssertEqual(c.goAway?.code, 0)
        XCTAssertEqual(c.goAway?.lastStream, id)
    }

    func testGoAwayShutdownAfterNStreams() throws {
        let h = try SimulatorHarness { $0.faults.goAwayAfterStreams = 3 }
        let c = try h.client()
        for _ in 0..<3 { XCTAssertAccepted(try h.push(c, h.headers())) }
        c.wait("GOAWAY") { _ in c.goAway != nil }
        XCTAssertEqual(c.goAway?.debug, #"{"reason":"Shutdown"}"#)
        XCTAssertEqual(c.goAway?.lastStream, 5)
        c.wait("close") { _ in c.isClosed }
        XCTAssertEqual(h.simulator.counterSnapshot.goAwaysSent, ["Shutdown": 1])
    }

    func testGoAwayShutdownAfterSeconds() throws {
        let h = try SimulatorHarness { $0.faults.goAwayAfterSeconds = 0.05 }
        let c = try h.client()
        c.wait("GOAWAY") { _ in c.goAway != nil }
        XCTAssertEqual(c.goAway?.debug, #"{"reason":"Shutdown"}"#)
    }

    func testIdleConnectionGetsGoAwayIdleTimeout() throws {
        let h = try SimulatorHarness { $0.faults.idleTimeoutSeconds = 0.1 }
        let c = try h.client()
        XCTAssertAccepted(try h.push(c, h.headers()))
        c.wait("GOAWAY") { _ in c.goAway != nil }
        XCTAssertEqual(c.goAway?.debug, #"{"reason":"IdleTimeout"}"#)
        XCTAssertEqual(c.goAway?.code, 0)
        let counters = h.simulator.counterSnapshot
        XCTAssertEqual(counters.goAwaysSent, ["IdleTimeout": 1])
    }

    func testConnectionResetInjectionClosesWithoutAnswer() throws {
        let h = try SimulatorHarness { $0.faults.requestFaults[.connectionReset] = 1 }
        let c = try h.client()
        _ = try c.send(h.headers(), body: SimulatorHarness.alert)
        c.wait("close") { _ in c.isClosed }
        XCTAssertNil(c.goAway)
        XCTAssertFalse(c.frames.contains { if case .headers = $0 { return true } else { return false } })
        XCTAssertEqual(h.simulator.counterSnapshot.connectionsReset, 1)
    }

    func testSandboxAddsUniqueIDAndProductionDoesNot() throws {
        let sandbox = try SimulatorHarness()
        let id = "123e4567-e89b-12d3-a456-4266554400a0"
        let r = try sandbox.push(try sandbox.client(), sandbox.headers(extra: [("apns-id", id)]))
        XCTAssertAccepted(r)
        XCTAssertEqual(r.headers.first(name: "apns-id"), id, "echoes the request's apns-id")
        XCTAssertTrue(UUIDText.isCanonical(try XCTUnwrap(r.headers.first(name: "apns-unique-id")).utf8))
        let production = try SimulatorHarness { $0.environment = .production }
        let p = try production.push(try production.client(), production.headers())
        XCTAssertAccepted(p)
        XCTAssertNil(p.headers.first(name: "apns-unique-id"))
        XCTAssertTrue(UUIDText.isCanonical(try XCTUnwrap(p.headers.first(name: "apns-id")).utf8), "generated when absent")
    }
}

/// A push body of exactly `size` bytes.
func payload(size: Int) -> String {
    let head = #"{"aps":{"alert":""#, tail = #""}}"#
    return head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail
}
