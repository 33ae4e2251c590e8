import APNsCore
@testable import APNsSimulator
import Foundation
import TestSupport
import XCTest

/// The simulator's ES256 verification (libcrypto, ES256PublicKey) against another implementation: Python's
/// `cryptography` signs, and judges the same signatures, so the simulator's verdicts are checked against
/// verdicts it did not compute. The client's signatures are checked the other way in APNsCoreTests.
final class ProviderTokenSignatureTests: XCTestCase {
    func testSignaturesFromPythonCryptographyVerifyAndTamperedOnesDoNot() throws {
        let messages = (0..<40).map { Array("header.claims \($0)".utf8) }
        let (key, raw) = try ES256Oracle.sign(messages)
        let (_, der) = try ES256Oracle.sign(messages, form: .der)  // another key: must not verify with `key`
        let publicKey = try ES256PublicKey(x963: key.publicKeyX963)
        let otherKey = ES256PrivateKey()

        // Each case: public key, message, signature; every verdict is compared with cryptography's.
        var checks: [ES256Oracle.Check] = []
        for (i, message) in messages.enumerated() {
            let r = raw[i]
            var flipped = r
            flipped[i % 64] ^= 0x01
            var trailing = derSignature(raw: r)
            trailing.append(0)
            var longForm = derSignature(raw: r)  // the SEQUENCE's length in the non-minimal long form
            longForm.replaceSubrange(1..<2, with: [0x81, longForm[1]])
            checks += [
                .init(publicKeyX963: key.publicKeyX963, message: message, signature: r),
                .init(publicKeyX963: key.publicKeyX963, message: message, signature: derSignature(raw: r)),
                .init(publicKeyX963: key.publicKeyX963, message: message + [0x2E], signature: r),
                .init(publicKeyX963: key.publicKeyX963, message: message, signature: flipped),
                .init(publicKeyX963: otherKey.publicKeyX963, message: message, signature: r),
                .init(publicKeyX963: key.publicKeyX963, message: message, signature: der[i]),
                .init(publicKeyX963: key.publicKeyX963, message: message, signature: trailing),
                .init(publicKeyX963: key.publicKeyX963, message: message, signature: longForm),
                .init(publicKeyX963: key.publicKeyX963, message: message, signature: Array(r.prefix(63))),
                .init(publicKeyX963: key.publicKeyX963, message: message, signature: [UInt8](repeating: 0, count: 64)),
            ]
        }
        let theirs = try ES256Oracle.verify(checks)
        var ours: [Bool] = []
        for c in checks {
            let k = c.publicKeyX963 == key.publicKeyX963 ? publicKey : try ES256PublicKey(x963: c.publicKeyX963)
            ours.append(k.isValidSignature(c.signature, for: c.message))
        }
        let kinds = ["raw", "DER", "another message", "a flipped bit", "another key", "another key's DER", "DER with a byte after it",
                     "DER with a long-form length", "63 bytes", "r = s = 0"]
        for (i, (o, t)) in zip(ours, theirs).enumerated() {
            XCTAssertEqual(o, t, "message \(i / kinds.count), \(kinds[i % kinds.count]): the simulator says \(o), cryptography \(t)")
        }
        // What the cases are for: the genuine signatures verify, every other one does not.
        XCTAssertEqual(ours.enumerated().filter(\.element).map { $0.offset % kinds.count }, Array(repeating: [0, 1], count: messages.count).flatMap { $0 })
    }

    func testPointsThatAreNotOnTheCurveAreRefused() throws {
        var point = ES256PrivateKey().publicKeyX963
        XCTAssertNoThrow(try ES256PublicKey(x963: point))
        XCTAssertThrowsError(try ES256PublicKey(x963: Array(point.prefix(64))))
        point[64] ^= 0x01
        XCTAssertThrowsError(try ES256PublicKey(x963: point), "off the curve")
        XCTAssertThrowsError(try ES256PublicKey(x963: [0x02] + point.dropFirst().prefix(32)), "compressed")
    }

    /// A provider token that Python's cryptography signed, sent to the simulator on the wire: accepted with
    /// the key's public part registered; with one bit of its signature changed, InvalidProviderToken.
    func testTheSimulatorAcceptsTokensPythonCryptographySigned() throws {
        let keyID = "PYKEY00001", teamID = "TEAM000001"
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"\#(teamID)","iat":1700000000}"#.utf8))
        let input = header + "." + claims
        let (key, signatures) = try ES256Oracle.sign([Array(input.utf8)])
        let h = try SimulatorHarness { c in
            c.register(RegisteredKey(keyID: keyID, teamID: teamID, publicKey: try! ES256PublicKey(x963: key.publicKeyX963)))
        }
        var tampered = signatures[0]
        tampered[10] ^= 0x80
        XCTAssertRejected(try h.push(try h.client(), h.headers(authorization: "bearer " + input + "." + Base64URL.encode(tampered))),
                          .invalidProviderToken)
        XCTAssertAccepted(try h.push(try h.client(), h.headers(authorization: "bearer " + input + "." + Base64URL.encode(signatures[0]))))
    }
}
