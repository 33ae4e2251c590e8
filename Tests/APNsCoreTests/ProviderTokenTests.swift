@testable import APNsCore
import Crypto
import Foundation
import XCTest

/// A clock tests can move.
final class TestClock: @unchecked Sendable {
    var seconds: Double
    init(_ s: Double) { seconds = s }
    var wall: WallClock { WallClock { [unowned self] in self.seconds } }
}

final class ProviderTokenTests: XCTestCase {
    func testTokenVerifiesWithThePublicKeyAndHasTheAPNsShape() throws {
        let key = SigningKey.generate(keyID: "ABC123DEFG", teamID: "TEAM123456")
        let clock = TestClock(1_700_000_000)
        let cache = try ProviderTokenCache(key: key, clock: clock.wall)
        let bearer = cache.bearer()
        XCTAssertTrue(bearer.hasPrefix("bearer "))
        let jwt = bearer.dropFirst(7)
        let parts = jwt.split(separator: ".")
        XCTAssertEqual(parts.count, 3)
        XCTAssertFalse(jwt.contains("="), "base64url without padding")
        let header = try JSONSerialization.jsonObject(with: Base64URL.decode(parts[0])!) as! [String: Any]
        XCTAssertEqual(header["alg"] as? String, "ES256")
        XCTAssertEqual(header["kid"] as? String, "ABC123DEFG")
        let claims = try JSONSerialization.jsonObject(with: Base64URL.decode(parts[1])!) as! [String: Any]
        XCTAssertEqual(claims["iss"] as? String, "TEAM123456")
        XCTAssertEqual(claims["iat"] as? Int, 1_700_000_000)
        XCTAssertEqual(Base64URL.decode(parts[2])?.count, 64, "raw r||s signature")

        let parsed = try ParsedProviderToken(jwt: jwt)
        XCTAssertTrue(parsed.verify(with: key.publicKey))
        XCTAssertFalse(parsed.verify(with: P256.Signing.PrivateKey().publicKey), "another key must not verify it")
    }

    func testTokenIsReusedUntilTheRefreshIntervalThenResigned() throws {
        let clock = TestClock(1_700_000_000)
        let cache = try ProviderTokenCache(key: .generate(), refreshInterval: 50 * 60, clock: clock.wall)
        let first = cache.bearer()
        for _ in 0..<1000 { XCTAssertEqual(cache.bearer(), first) }
        clock.seconds += 49 * 60
        XCTAssertEqual(cache.bearer(), first)
        XCTAssertEqual(cache.signings, 1)
        clock.seconds += 61
        let second = cache.bearer()
        XCTAssertNotEqual(second, first)
        XCTAssertEqual(cache.signings, 2)
        XCTAssertEqual(cache.issuedAt, 1_700_000_000 + 50 * 60 + 1)
    }

    func testRefreshIntervalOutsideTwentyToSixtyMinutesIsRefused() {
        for bad: Double in [0, 19 * 60, 60 * 60, 90 * 60] {
            XCTAssertThrowsError(try ProviderTokenCache(key: .generate(), refreshInterval: bad)) { error in
                XCTAssertEqual(error as? ProviderTokenError, .refreshIntervalOutOfRange(seconds: bad))
            }
        }
        XCTAssertNoThrow(try ProviderTokenCache(key: .generate(), refreshInterval: 20 * 60))
    }

    func testP8KeysAreReadAndBadOnesNamed() throws {
        let key = P256.Signing.PrivateKey()
        let loaded = try SigningKey(p8PEM: key.pemRepresentation, keyID: "ABC123DEFG", teamID: "TEAM123456")
        XCTAssertEqual(loaded.publicKey.rawRepresentation, key.publicKey.rawRepresentation)
        XCTAssertThrowsError(try SigningKey(p8PEM: "hello", keyID: "ABC123DEFG", teamID: "TEAM123456", source: "AuthKey_X.p8")) { e in
            XCTAssertTrue("\(e)".contains("AuthKey_X.p8"))
        }
        XCTAssertThrowsError(try SigningKey(p8PEM: key.pemRepresentation, keyID: "short", teamID: "TEAM123456")) { e in
            XCTAssertEqual(e as? ProviderTokenError, .badIdentifier(name: "key id", value: "short"))
        }
        // The description never shows key material.
        XCTAssertFalse("\(loaded)".contains("PRIVATE"))
    }

    func testLenientFormsAPNsAcceptsAreParsed() throws {
        let key = SigningKey.generate()
        // DER signature, standard base64 with padding, iat as a string: the a2 / APNSwift forms.
        let header = Data(#"{"alg":"ES256","kid":"\#(key.keyID)","typ":"JWT"}"#.utf8).base64EncodedString()
        let claims = Data(#"{"iss":"\#(key.teamID)","iat":"1700000000","kid":"\#(key.keyID)"}"#.utf8).base64EncodedString()
        let input = header + "." + claims
        let der = try key.privateKey.signature(for: Data(input.utf8)).derRepresentation
        let token = input + "." + der.base64EncodedString()
        let parsed = try ParsedProviderToken(jwt: Substring(token))
        XCTAssertEqual(parsed.issuedAt, 1_700_000_000)
        XCTAssertTrue(parsed.verify(with: key.publicKey))
        XCTAssertThrowsError(try ParsedProviderToken(jwt: "a.b"))
        XCTAssertThrowsError(try ParsedProviderToken(jwt: Substring(Base64URL.encode(Data(#"{"alg":"HS256","kid":"x"}"#.utf8)) + ".e30.AA")))
    }
}
