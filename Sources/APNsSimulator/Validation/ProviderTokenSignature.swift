import APNsCore
import Crypto

// The simulator checks provider tokens as APNs does, with swift-crypto; the client signs them with
// libcrypto (APNsCore), so each side is checked by an implementation it does not share.

extension ParsedProviderToken {
    /// Verifies the ES256 signature with `publicKey`, taking raw r‖s (64 bytes) or DER.
    public func verify(with publicKey: P256.Signing.PublicKey) -> Bool {
        let ecdsa: P256.Signing.ECDSASignature?
        if signature.count == 64 {
            ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        } else {
            ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature)
        }
        guard let ecdsa else { return false }
        return publicKey.isValidSignature(ecdsa, for: signingInput)
    }
}

extension SigningKey {
    /// The key's public part as swift-crypto reads it, for ``RegisteredKey``.
    public var publicKey: P256.Signing.PublicKey {
        // A SigningKey always holds a valid P-256 key, so its point always parses.
        try! P256.Signing.PublicKey(x963Representation: publicKeyX963)
    }
}
