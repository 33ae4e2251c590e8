@testable import APNsCore
import Foundation
import TestSupport
import XCTest

/// Python `cryptography`'s verdicts on tokens' ES256 signatures, each with a public key (an uncompressed
/// point): the client signs with libcrypto, so an independent implementation checks it (ES256Oracle).
func verifies(_ tokens: [(ParsedProviderToken, publicKeyX963: [UInt8])]) throws -> [Bool] {
    try ES256Oracle.verify(tokens.map { ES256Oracle.Check(publicKeyX963: $0.publicKeyX963, message: $0.0.signingInput, signature: $0.0.signature) })
}

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
        XCTAssertEqual(try verifies([(parsed, key.publicKeyX963), (parsed, ES256PrivateKey().publicKeyX963)]), [true, false],
                       "it verifies with its key's public part, and not with another key's")
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
        // A PKCS#8 key Python's cryptography made (its PEM held in memory only).
        let key = try ES256Oracle.sign([], pem: "pkcs8").key
        let pem = try XCTUnwrap(key.pem)
        let loaded = try SigningKey(p8PEM: pem, keyID: "ABC123DEFG", teamID: "TEAM123456")
        XCTAssertEqual(loaded.publicKeyX963, key.publicKeyX963)
        // A token signed with the loaded key verifies with the original key's public part.
        let parsed = try ParsedProviderToken(jwt: Substring(ProviderTokenCache.makeJWT(key: loaded, issuedAt: 1_700_000_000)))
        XCTAssertEqual(try verifies([(parsed, key.publicKeyX963)]), [true])
        // libcrypto also reads SEC1 (`BEGIN EC PRIVATE KEY`), and finds the public key cryptography finds.
        XCTAssertEqual(try ES256PrivateKey(pem: Self.sec1PEM).publicKeyX963, try ES256Oracle.publicKey(ofPEM: Self.sec1PEM))
        let sec1 = try ES256Oracle.sign([], pem: "sec1").key
        XCTAssertEqual(try ES256PrivateKey(pem: try XCTUnwrap(sec1.pem)).publicKeyX963, sec1.publicKeyX963)
        // Keys that are not P-256 are named as such.
        let p384 = try XCTUnwrap(try ES256Oracle.sign([], curve: "P-384", pem: "pkcs8").key.pem)
        XCTAssertThrowsError(try SigningKey(p8PEM: p384, keyID: "ABC123DEFG", teamID: "TEAM123456", source: "p384.p8")) { e in
            XCTAssertEqual(e as? ProviderTokenError, .badKey(source: "p384.p8", why: "not a P-256 (ES256) private key"))
        }
        // A damaged key is refused, naming the file.
        let damaged = pem.replacingOccurrences(of: "\n", with: "\n!", options: [], range: nil)
        XCTAssertThrowsError(try SigningKey(p8PEM: damaged, keyID: "ABC123DEFG", teamID: "TEAM123456", source: "bad.p8")) { e in
            XCTAssertTrue("\(e)".contains("bad.p8"), "\(e)")
        }
        // An encrypted PKCS#8 key is refused at once; nothing prompts for a passphrase.
        XCTAssertThrowsError(try ES256PrivateKey(pem: Self.encryptedP8)) { e in
            XCTAssertEqual(e as? ES256PrivateKey.LoadError, .notAPrivateKey)
        }
        XCTAssertThrowsError(try SigningKey(p8PEM: "hello", keyID: "ABC123DEFG", teamID: "TEAM123456", source: "AuthKey_X.p8")) { e in
            XCTAssertTrue("\(e)".contains("AuthKey_X.p8"))
        }
        XCTAssertThrowsError(try SigningKey(p8PEM: pem, keyID: "short", teamID: "TEAM123456")) { e in
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
        let der = derSignature(raw: key.privateKey.signature(for: Array(input.utf8)))
        let token = input + "." + Data(der).base64EncodedString()
        let parsed = try ParsedProviderToken(jwt: Substring(token))
        XCTAssertEqual(parsed.issuedAt, 1_700_000_000)
        XCTAssertEqual(parsed.signature, der, "the DER signature, as sent")
        XCTAssertEqual(try verifies([(parsed, key.publicKeyX963)]), [true])
        XCTAssertThrowsError(try ParsedProviderToken(jwt: "a.b"))
        XCTAssertThrowsError(try ParsedProviderToken(jwt: Substring(Base64URL.encode(Data(#"{"alg":"HS256","kid":"x"}"#.utf8)) + ".e30.AA")))
    }

    func testLibcryptoSignaturesVerifyWithPythonCryptographyAndDiffer() throws {
        let key = SigningKey.generate()
        var seen = Set<[UInt8]>()
        var checks: [ES256Oracle.Check] = []
        for i in 0..<200 {
            let message = Array("message \(i)".utf8)
            let raw = key.privateKey.signature(for: message)
            XCTAssertEqual(raw.count, 64)
            checks.append(.init(publicKeyX963: key.publicKeyX963, message: message, signature: raw))
            checks.append(.init(publicKeyX963: key.publicKeyX963, message: message + [0], signature: raw))
            // The same signature in DER, as some clients send it.
            checks.append(.init(publicKeyX963: key.publicKeyX963, message: message, signature: derSignature(raw: raw)))
            seen.insert(raw)
        }
        let verdicts = try ES256Oracle.verify(checks)
        for i in 0..<200 {
            XCTAssertTrue(verdicts[3 * i], "signature \(i)")
            XCTAssertFalse(verdicts[3 * i + 1], "another message \(i)")
            XCTAssertTrue(verdicts[3 * i + 2], "signature \(i) in DER")
        }
        XCTAssertEqual(seen.count, 200, "a fresh nonce for each signature")
    }

    func testGeneratedKeysRoundTripThroughPKCS8PEM() throws {
        let key = ES256PrivateKey()
        XCTAssertTrue(key.pkcs8PEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let again = try ES256PrivateKey(pem: key.pkcs8PEM)
        XCTAssertEqual(again.publicKeyX963, key.publicKeyX963)
        XCTAssertEqual(try ES256Oracle.publicKey(ofPEM: key.pkcs8PEM), key.publicKeyX963, "cryptography reads the PEM libcrypto wrote")
        XCTAssertNotEqual(ES256PrivateKey().publicKeyX963, key.publicKeyX963)
        XCTAssertFalse("\(key)".contains("PRIVATE"))
    }

    func testSHA256MatchesPythonHashlibAndKnownVectors() throws {
        XCTAssertEqual(SHA256Hasher.hex(SHA256Hasher.hash(Array("abc".utf8))),
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256Hasher.hex(SHA256Hasher.hash([UInt8]())),
                       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        var bytes = [UInt8]()
        var inputs: [[UInt8]] = [], digests: [String] = []
        for n in 0..<5000 {
            bytes.append(UInt8(truncatingIfNeeded: n &* 31))
            if n % 997 == 0 || n == 4999 {
                var h = SHA256Hasher()
                h.update(bytes.prefix(bytes.count / 2))
                h.update(bytes.dropFirst(bytes.count / 2))
                inputs.append(bytes)
                digests.append(SHA256Hasher.hex(h.finalize()))
            }
        }
        XCTAssertEqual(digests, try ES256Oracle.sha256(inputs), "\(inputs.map(\.count)) bytes, each in two updates")
    }

    /// A throwaway P-256 key, PKCS#8 encrypted with the passphrase "test" (openssl pkcs8 -topk8 -v2 aes-256-cbc).
    static let encryptedP8 = """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAhBytDjNhbbsQICCAAw
        DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEEJ5bteJv/++pdsqVf5HFVzAEgZBN
        aF6kpeCe3ofYIBLEOBKjQ6Cdts2jjlGrw3FBSc51m0IYu8TAvkg0h/wC78y8dPsL
        frZ2FmDbf7iwXb9tQWO9sfMZRb20heRoguKPP6hs6d4nQ/zrFE7x8LANr6s2aKfS
        d6BiygdVQUZeVxq0lR8vGmW9CVhgxG+qUxWJGKuvQGOu3tq8kixQjU2a8u/SJ8U=
        -----END ENCRYPTED PRIVATE KEY-----
        """

    /// A throwaway P-256 key in SEC1 form (`BEGIN EC PRIVATE KEY`, openssl ecparam -genkey).
    static let sec1PEM = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIPFbc/6VqWRSL7cevuGLpGX59w3CkAtrAsmiov9ztvDnoAoGCCqGSM49
        AwEHoUQDQgAEto7mpi7wjsCKmNhkxAtBqeAfFLQEy285XIy256vEq+p1pK9ZQQa9
        YMIEfknZpBxeO2BXMH6fkX4k54HFsVjPrQ==
        -----END EC PRIVATE KEY-----
        """
}
