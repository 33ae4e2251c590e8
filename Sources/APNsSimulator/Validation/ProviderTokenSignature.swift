import APNsCore

// The simulator checks provider tokens as APNs does, with libcrypto (ES256PublicKey). The client signs them
// with libcrypto too (APNsCore's ES256PrivateKey), so the tests check each side against another
// implementation: Python's `cryptography` verifies what the client signs and signs what the simulator
// verifies (TestSupport's ES256Oracle).

extension ParsedProviderToken {
    /// Verifies the ES256 signature with `publicKey`, taking raw r‖s (64 bytes) or DER.
    public func verify(with publicKey: ES256PublicKey) -> Bool {
        publicKey.isValidSignature(signature, for: signingInput)
    }
}

extension SigningKey {
    /// The key's public part, for ``RegisteredKey``.
    public var publicKey: ES256PublicKey {
        // A SigningKey always holds a valid P-256 key, so its point always parses.
        try! ES256PublicKey(x963: publicKeyX963)
    }
}
