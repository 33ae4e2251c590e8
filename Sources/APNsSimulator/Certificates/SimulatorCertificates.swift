import CLibcrypto
import Foundation

/// A certificate authority and a server certificate signed by it, made in-process for the simulator's
/// TLS with OpenSSL's libcrypto. Clients trust `caPEM` (and only it); the server presents
/// `serverCertificatePEM`.
///
/// Both are X.509 v3 with P-256 keys, signed ECDSA with SHA-256, random serial numbers, issuer
/// O=apnsbench, CN=apnsbench simulator CA. The CA: basic constraints critical CA (path length 0), key
/// usage critical (digital signature, certificate and CRL signing), a subject key identifier. The server
/// certificate: subject O=apnsbench, CN=localhost; basic constraints critical not a CA, key usage critical
/// digital signature, extended key usage server authentication, the subject alternative names below, a
/// subject key identifier and the CA's as authority key identifier.
public struct SimulatorCertificates: Sendable {
    /// The CA certificate clients should trust (PEM).
    public let caPEM: String
    /// The server certificate (PEM), valid for `localhost`, 127.0.0.1 and ::1 plus any extra names.
    public let serverCertificatePEM: String
    /// The server's private key (PEM, PKCS#8). Never printed.
    public let serverKeyPEM: String

    /// A certificate the library could not make (it names the step; no key material).
    public struct GenerationError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes a fresh CA and server certificate valid from an hour ago for `days` days.
    public static func generate(extraDNSNames: [String] = [], days: Int = 30) throws -> SimulatorCertificates {
        let now = Int64(Date().timeIntervalSince1970)
        let notBefore = now - 3600
        let notAfter = now + Int64(days) * 86_400
        func fail(_ step: String) -> GenerationError { GenerationError(description: "libcrypto could not \(step)") }

        guard let caKey = clibcrypto_p256_generate(), let serverKey = clibcrypto_p256_generate() else { throw fail("generate a P-256 key") }
        defer { clibcrypto_p256_free(caKey); clibcrypto_p256_free(serverKey) }

        guard let ca = clibcrypto_certificate_new(caKey, "apnsbench", "apnsbench simulator CA", notBefore, notAfter) else {
            throw fail("start the CA certificate")
        }
        defer { clibcrypto_certificate_free(ca) }
        guard clibcrypto_certificate_sign_ca(ca, caKey) == 1 else { throw fail("sign the CA certificate") }

        guard let server = clibcrypto_certificate_new(serverKey, "apnsbench", "localhost", notBefore, notAfter) else {
            throw fail("start the server certificate")
        }
        defer { clibcrypto_certificate_free(server) }
        let ipv4: [UInt8] = [127, 0, 0, 1]
        let ipv6: [UInt8] = [UInt8](repeating: 0, count: 15) + [1]
        var added = clibcrypto_certificate_add_dns_name(server, "localhost") == 1
        added = added && clibcrypto_certificate_add_ip_address(server, ipv4, ipv4.count) == 1
        added = added && clibcrypto_certificate_add_ip_address(server, ipv6, ipv6.count) == 1
        for name in extraDNSNames where added {
            added = clibcrypto_certificate_add_dns_name(server, name) == 1
        }
        guard added else { throw fail("add the server certificate's names (\((["localhost"] + extraDNSNames).joined(separator: ", ")))") }
        guard clibcrypto_certificate_sign_server(server, ca, caKey) == 1 else { throw fail("sign the server certificate") }

        return SimulatorCertificates(
            caPEM: try pem(fail("write the CA certificate as PEM")) { clibcrypto_certificate_pem(ca, $0) },
            serverCertificatePEM: try pem(fail("write the server certificate as PEM")) { clibcrypto_certificate_pem(server, $0) },
            serverKeyPEM: try pem(fail("write the server key as PEM")) { clibcrypto_p256_pkcs8_pem(serverKey, $0) }
        )
    }

    /// The PEM text a libcrypto writer puts in a buffer of its own.
    private static func pem(_ failure: GenerationError, _ write: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int) throws -> String {
        var buffer: UnsafeMutablePointer<CChar>?
        let length = write(&buffer)
        guard let buffer, length > 0 else { throw failure }
        defer { clibcrypto_free(buffer) }
        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
    }
}
