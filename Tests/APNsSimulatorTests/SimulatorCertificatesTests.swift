@testable import APNsSimulator
import Foundation
import TestSupport
import XCTest

/// The simulator's CA and server certificate (made with libcrypto), read by another implementation: Python's
/// `cryptography` lists their properties and validates the server certificate's path (RFC 5280) for each
/// name a client may connect to. libcurl and NIOSSL accepting them is what the TLS tests show.
final class SimulatorCertificatesTests: XCTestCase {
    func testTheCertificatesHaveTheirPropertiesAndTheServerVerifiesForItsNames() throws {
        let before = Int(Date().timeIntervalSince1970)
        let made = try SimulatorCertificates.generate(extraDNSNames: ["apns.simulator.test", "sim-0.sim.default.svc"], days: 7)
        let after = Int(Date().timeIntervalSince1970)
        let facts = try ES256Oracle.certificateFacts(caPEM: made.caPEM, serverPEM: made.serverCertificatePEM, keyPEM: made.serverKeyPEM,
                                                     names: ["localhost", "apns.simulator.test", "sim-0.sim.default.svc"])
        let ca = try XCTUnwrap(facts["ca"] as? [String: Any]), server = try XCTUnwrap(facts["server"] as? [String: Any])

        for (name, c) in [("CA", ca), ("server", server)] {
            XCTAssertEqual(c["version"] as? String, "v3", name)
            XCTAssertGreaterThan(c["serial_bits"] as? Int ?? 0, 64, "\(name): a random serial number")
            XCTAssertEqual(c["issuer"] as? String, "CN=apnsbench simulator CA,O=apnsbench", name)
            XCTAssertEqual(c["signature_algorithm"] as? String, "ecdsa-with-SHA256", name)
            XCTAssertEqual(c["curve"] as? String, "secp256r1", name)
            let notBefore = try XCTUnwrap(c["not_before"] as? Int), notAfter = try XCTUnwrap(c["not_after"] as? Int)
            XCTAssert((before - 3600 - 1...after - 3600).contains(notBefore), "\(name): valid from an hour ago (\(notBefore))")
            XCTAssert((before + 7 * 86_400 - 1...after + 7 * 86_400).contains(notAfter), "\(name): valid for 7 days (\(notAfter))")
        }
        XCTAssertEqual(ca["subject"] as? String, "CN=apnsbench simulator CA,O=apnsbench")
        XCTAssertEqual(ca["ca"] as? Bool, true)
        XCTAssertEqual(ca["path_length"] as? Int, 0)
        XCTAssertEqual(ca["key_usage"] as? [String], ["crl_sign", "digital_signature", "key_cert_sign"])
        XCTAssertEqual(extensions(ca), ["basicConstraints critical", "keyUsage critical", "subjectKeyIdentifier"])

        XCTAssertEqual(server["subject"] as? String, "CN=localhost,O=apnsbench")
        XCTAssertEqual(server["ca"] as? Bool, false)
        XCTAssertEqual(server["key_usage"] as? [String], ["digital_signature"])
        XCTAssertEqual(server["extended_key_usage"] as? [String], ["serverAuth"])
        XCTAssertEqual(server["dns_names"] as? [String], ["localhost", "apns.simulator.test", "sim-0.sim.default.svc"])
        XCTAssertEqual(server["ip_addresses"] as? [String], ["127.0.0.1", "::1"])
        XCTAssertEqual(extensions(server), ["basicConstraints critical", "keyUsage critical", "extendedKeyUsage", "subjectAltName",
                                            "subjectKeyIdentifier", "authorityKeyIdentifier"])
        XCTAssertEqual(server["authority_key_identifier"] as? String, ca["subject_key_identifier"] as? String)
        XCTAssertNotEqual(server["subject_key_identifier"] as? String, ca["subject_key_identifier"] as? String)

        XCTAssertEqual(facts["signatures_verify"] as? Bool, true, "\(facts["signatures_verify"] ?? "")")
        XCTAssertEqual(facts["key_matches_server"] as? Bool, true)
        XCTAssertEqual(facts["key_is_pkcs8"] as? Bool, true)
        let verified = try XCTUnwrap(facts["server_verifies_for"] as? [String: Any])
        for name in ["localhost", "apns.simulator.test", "sim-0.sim.default.svc", "127.0.0.1", "::1"] {
            XCTAssertEqual(verified[name] as? Bool, true, "\(name): \(verified[name] ?? "not checked")")
        }
        XCTAssertTrue(made.caPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        XCTAssertTrue(made.serverCertificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
    }

    func testEachGenerationIsAFreshCAAndKey() throws {
        let a = try SimulatorCertificates.generate(), b = try SimulatorCertificates.generate()
        XCTAssertNotEqual(a.caPEM, b.caPEM)
        XCTAssertNotEqual(a.serverKeyPEM, b.serverKeyPEM)
        // NIOSSL loads them: the simulator starts its TLS server with them.
        let simulator = try APNsSimulator(configuration: SimulatorConfiguration(), certificates: a)
        try simulator.start()
        simulator.stop()
    }

    private func extensions(_ c: [String: Any]) -> [String] {
        (c["extensions"] as? [[Any]] ?? []).map { e in "\(e[0])" + ((e[1] as? Bool) == true ? " critical" : "") }
    }
}
