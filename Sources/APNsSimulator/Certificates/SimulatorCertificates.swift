import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority and a server certificate signed by it, made in-process for the simulator's
/// TLS. Clients trust `caPEM` (and only it); the server presents `serverCertificatePEM`.
public struct SimulatorCertificates: Sendable {
    /// The CA certificate clients should trust (PEM).
    public let caPEM: String
    /// The server certificate (PEM), valid for `localhost`, 127.0.0.1 and ::1 plus any extra names.
    public let serverCertificatePEM: String
    /// The server's private key (PEM, PKCS#8). Never printed.
    public let serverKeyPEM: String

    /// Makes a fresh CA and server certificate valid from an hour ago for `days` days.
    public static func generate(extraDNSNames: [String] = [], days: Int = 30) throws -> SimulatorCertificates {
        let now = Date()
        let notBefore = now.addingTimeInterval(-3600)
        let notAfter = now.addingTimeInterval(Double(days) * 86_400)

        let caKey = P256.Signing.PrivateKey()
        let caPublic = Certificate.PublicKey(caKey.publicKey)
        let caName = try DistinguishedName {
            OrganizationName("apnsbench")
            CommonName("apnsbench simulator CA")
        }
        let caSKI = SubjectKeyIdentifier(hash: caPublic)
        let ca = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: caPublic,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: caName,
            subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                caSKI
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )

        let serverKey = P256.Signing.PrivateKey()
        let serverPublic = Certificate.PublicKey(serverKey.publicKey)
        let serverName = try DistinguishedName {
            OrganizationName("apnsbench")
            CommonName("localhost")
        }
        var names: [GeneralName] = [
            .dnsName("localhost"),
            .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
            .ipAddress(ASN1OctetString(contentBytes: ArraySlice([UInt8](repeating: 0, count: 15) + [1]))),
        ]
        names += extraDNSNames.map { GeneralName.dnsName($0) }
        let server = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: serverPublic,
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: caName,
            subject: serverName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names)
                SubjectKeyIdentifier(hash: serverPublic)
                AuthorityKeyIdentifier(keyIdentifier: caSKI.keyIdentifier)
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )
        return SimulatorCertificates(
            caPEM: try ca.serializeAsPEM().pemString,
            serverCertificatePEM: try server.serializeAsPEM().pemString,
            serverKeyPEM: serverKey.pemRepresentation
        )
    }
}
