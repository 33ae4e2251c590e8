import CLibcrypto

/// A P-256 private key held by OpenSSL's libcrypto, for ES256 signatures (ECDSA over SHA-256).
///
/// Immutable once made: OpenSSL signs with one key from several threads at once, each call with its own
/// digest context. Its `description` never shows the key.
public final class ES256PrivateKey: @unchecked Sendable, CustomStringConvertible {
    private let key: OpaquePointer

    /// Why a PEM was refused (the cause only, never the key material).
    public enum LoadError: Error, Equatable {
        case notAPrivateKey, notEllipticCurve, notP256
    }

    /// Reads a PEM private key: PKCS#8 (`BEGIN PRIVATE KEY`, as in an `AuthKey_<KEYID>.p8`) or SEC1. An
    /// encrypted key is refused, never prompted for.
    public init(pem: String) throws {
        var status = CLIBCRYPTO_KEY_OK
        let made: OpaquePointer? = pem.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.withMemoryRebound(to: CChar.self) { clibcrypto_p256_from_pem($0.baseAddress, $0.count, &status) }
        } ?? Array(pem.utf8CString).withUnsafeBufferPointer { clibcrypto_p256_from_pem($0.baseAddress, $0.count - 1, &status) }
        guard let made else {
            switch status {
            case CLIBCRYPTO_KEY_NOT_EC: throw LoadError.notEllipticCurve
            case CLIBCRYPTO_KEY_NOT_P256: throw LoadError.notP256
            default: throw LoadError.notAPrivateKey
            }
        }
        key = made
    }

    /// A fresh random key.
    public init() {
        guard let made = clibcrypto_p256_generate() else { fatalError("libcrypto could not generate a P-256 key") }
        key = made
    }

    deinit { clibcrypto_p256_free(key) }

    /// The public key as an uncompressed point, 0x04 ‖ X ‖ Y (65 bytes): the X9.63 form other libraries read.
    public var publicKeyX963: [UInt8] {
        var out = [UInt8](repeating: 0, count: 65)
        guard clibcrypto_p256_public_x963(key, &out) == 1 else { fatalError("libcrypto could not export a P-256 public key") }
        return out
    }

    /// The key as PKCS#8 PEM (`BEGIN PRIVATE KEY`), the form of a `.p8` file. For writing a generated demo
    /// key that a later process reads; never print it.
    public var pkcs8PEM: String {
        var buffer: UnsafeMutablePointer<CChar>?
        let length = clibcrypto_p256_pkcs8_pem(key, &buffer)
        guard let buffer, length > 0 else { fatalError("libcrypto could not write a P-256 key as PEM") }
        defer { clibcrypto_free(buffer) }
        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
    }

    /// The ES256 signature of `message` as JWS writes it: r ‖ s, 32 bytes each. A fresh random nonce each
    /// time, so two signatures of one message differ.
    public func signature<Bytes: Collection>(for message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var out = [UInt8](repeating: 0, count: 64)
        let ok: Int32 = message.withContiguousStorageIfAvailable { m in
            clibcrypto_p256_sign(key, m.baseAddress, m.count, &out)
        } ?? Array(message).withUnsafeBufferPointer { m in clibcrypto_p256_sign(key, m.baseAddress, m.count, &out) }
        guard ok == 1 else { fatalError("libcrypto could not sign with a P-256 key") }
        return out
    }

    public var description: String { "ES256PrivateKey(P-256)" }
}

/// SHA-256 through libcrypto.
public struct SHA256Hasher: ~Copyable {
    private let state: OpaquePointer

    public init() {
        guard let s = clibcrypto_sha256_new() else { fatalError("libcrypto could not start a SHA-256") }
        state = s
    }

    deinit { clibcrypto_sha256_free(state) }

    public mutating func update<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let ok: Int32 = bytes.withContiguousStorageIfAvailable { b in clibcrypto_sha256_update(state, b.baseAddress, b.count) }
            ?? Array(bytes).withUnsafeBufferPointer { b in clibcrypto_sha256_update(state, b.baseAddress, b.count) }
        precondition(ok == 1, "libcrypto SHA-256 update failed")
    }

    /// The 32-byte digest; the hasher is used up.
    public consuming func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        precondition(clibcrypto_sha256_final(state, &out) == 1, "libcrypto SHA-256 final failed")
        return out
    }

    /// The digest of `bytes` in one call.
    public static func hash<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var h = SHA256Hasher()
        h.update(bytes)
        return h.finalize()
    }

    /// Lower-case hex of a digest.
    public static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for b in digest { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
