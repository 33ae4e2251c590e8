import CLibcrypto

/// A P-256 public key held by OpenSSL's libcrypto, for checking ES256 signatures (ECDSA over SHA-256) as
/// APNs checks provider tokens.
///
/// Immutable once made: libcrypto verifies with one key from several threads at once, each call with its
/// own digest context.
public final class ES256PublicKey: @unchecked Sendable, CustomStringConvertible {
    private let key: OpaquePointer

    /// A point that is not an uncompressed P-256 point (0x04 ‖ X ‖ Y, on the curve).
    public struct NotAPoint: Error, CustomStringConvertible {
        public var description: String { "not an uncompressed P-256 point (65 bytes, 0x04 ‖ X ‖ Y, on the curve)" }
    }

    /// Reads an uncompressed point, 0x04 ‖ X ‖ Y (65 bytes): the X9.63 form `ES256PrivateKey.publicKeyX963` writes.
    public init(x963 point: [UInt8]) throws {
        guard let made = point.withUnsafeBufferPointer({ clibcrypto_p256_public_from_x963($0.baseAddress, $0.count) }) else {
            throw NotAPoint()
        }
        key = made
    }

    deinit { clibcrypto_p256_public_free(key) }

    /// Whether `signature` is this key's ES256 signature of `message`. The signature is either raw r ‖ s
    /// (exactly 64 bytes, as JWS writes it) or strict DER; anything malformed does not verify.
    public func isValidSignature<Message: Collection>(_ signature: [UInt8], for message: Message) -> Bool where Message.Element == UInt8 {
        let verdict: Int32 = message.withContiguousStorageIfAvailable { m in
            signature.withUnsafeBufferPointer { s in clibcrypto_p256_verify(key, m.baseAddress, m.count, s.baseAddress, s.count) }
        } ?? Array(message).withUnsafeBufferPointer { m in
            signature.withUnsafeBufferPointer { s in clibcrypto_p256_verify(key, m.baseAddress, m.count, s.baseAddress, s.count) }
        }
        return verdict == 1
    }

    public var description: String { "ES256PublicKey(P-256)" }
}
