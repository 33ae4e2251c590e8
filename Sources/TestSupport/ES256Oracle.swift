import Foundation

/// Python's `cryptography` package (scripts/install-deps.sh --test installs it) as the independent check of
/// apnsbench's cryptography: the client signs provider tokens and the simulator verifies them and makes its
/// certificates with OpenSSL's libcrypto through apnsbench's own C wrappers, so a test asks another
/// implementation (es256_oracle.py, beside this file) what it makes of them.
///
/// Each call runs the script once with a batch of operations. A missing python3 or `cryptography` is an
/// error that fails the test, never a skip.
public enum ES256Oracle {
    /// The oracle could not answer (no python3, no `cryptography`, the script failed); the message says which.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One signature to check: a P-256 public key (uncompressed point), the message, and the signature
    /// (64 bytes raw r ‖ s, anything else read as DER).
    public struct Check: Sendable {
        public var publicKeyX963: [UInt8]
        public var message: [UInt8]
        public var signature: [UInt8]
        public init(publicKeyX963: [UInt8], message: [UInt8], signature: [UInt8]) {
            self.publicKeyX963 = publicKeyX963
            self.message = message
            self.signature = signature
        }
    }

    /// A key `cryptography` made: its public point and, when asked for, its private key as PEM (for a test
    /// to read into apnsbench; never printed or written).
    public struct Key: Sendable {
        public let index: Int
        public let publicKeyX963: [UInt8]
        public let pem: String?
    }

    /// The signature format to ask `cryptography` for.
    public enum SignatureForm: String, Sendable { case raw, der }

    /// `cryptography`'s verdict on each check, in order.
    public static func verify(_ checks: [Check]) throws -> [Bool] {
        try run(checks.map { ["op": "verify", "public": hex($0.publicKeyX963), "message": hex($0.message), "signature": hex($0.signature)] })
            .map { try cast($0, Bool.self) }
    }

    /// Makes a key with `cryptography` (P-256 unless `curve` says "P-384") and signs each message with it (ECDSA
    /// with SHA-256), in one run. `pem`: "pkcs8" or "sec1" to have the private key back as PEM.
    public static func sign(_ messages: [[UInt8]], form: SignatureForm = .raw, curve: String = "P-256", pem: String? = nil) throws
        -> (key: Key, signatures: [[UInt8]]) {
        var ops: [[String: Any]] = [["op": "new_key", "curve": curve, "format": pem ?? "pkcs8", "pem": pem != nil]]
        ops += messages.map { ["op": "sign", "key": 0, "message": hex($0), "form": form.rawValue] }
        let results = try run(ops)
        let made = try cast(results[0], [String: Any].self)
        let key = Key(index: try cast(made["key"], Int.self), publicKeyX963: try unhex(try cast(made["public"], String.self)),
                      pem: made["pem"] as? String)
        return (key, try results.dropFirst().map { try unhex(try cast($0, String.self)) })
    }

    /// The public point of a PEM private key, as `cryptography` reads it.
    public static func publicKey(ofPEM pem: String) throws -> [UInt8] {
        try unhex(try cast(try run([["op": "public_of", "pem": pem]])[0], String.self))
    }

    /// SHA-256 digests (lower-case hex) of each input, by Python's hashlib.
    public static func sha256(_ inputs: [[UInt8]]) throws -> [String] {
        try run(inputs.map { ["op": "sha256", "data": hex($0)] }).map { try cast($0, String.self) }
    }

    /// What `cryptography` reads in a CA, a server certificate and the server's key (see es256_oracle.py's
    /// `certificates`), with RFC 5280 path validation of the server certificate for each of `names`, 127.0.0.1
    /// and ::1. The JSON object as Foundation decodes it.
    public static func certificateFacts(caPEM: String, serverPEM: String, keyPEM: String, names: [String]) throws -> [String: Any] {
        try cast(try run([["op": "certificates", "ca": caPEM, "server": serverPEM, "key": keyPEM, "names": names]])[0], [String: Any].self)
    }

    /// Runs the script with `operations` on its standard input; its results, in order.
    public static func run(_ operations: [[String: Any]]) throws -> [Any] {
        guard let python = findOnPath("python3") else {
            throw Failure(description: "python3 is not installed: run scripts/install-deps.sh --test")
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("es256_oracle.py").path
        let input = try JSONSerialization.data(withJSONObject: operations)
        let child = try ChildProcess(python, [script], separateErrors: true, input: input)
        let status = try child.wait(bound: 120)
        guard status == 0 else {
            let errors = child.errors?.text ?? ""
            if errors.contains("No module named 'cryptography'") {
                throw Failure(description: "the Python package cryptography is not installed: run scripts/install-deps.sh --test")
            }
            throw Failure(description: "es256_oracle.py exited \(status): \(errors.suffix(2000))")
        }
        let text = child.output.text
        guard let results = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any], results.count == operations.count else {
            throw Failure(description: "es256_oracle.py answered \(text.prefix(200)) to \(operations.count) operations")
        }
        return results
    }

    /// Lower-case hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func unhex(_ text: String) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { throw Failure(description: "odd-length hex from the oracle") }
        return try stride(from: 0, to: digits.count, by: 2).map { i in
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else {
                throw Failure(description: "not hex from the oracle: \(text.prefix(20))")
            }
            return byte
        }
    }

    static func cast<T>(_ value: Any?, _ type: T.Type) throws -> T {
        guard let value = value as? T else { throw Failure(description: "the oracle answered \(String(describing: value)), not \(T.self)") }
        return value
    }

    static func findOnPath(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

/// The DER form (an ECDSA-Sig-Value: a SEQUENCE of the INTEGERs r and s) of a raw r ‖ s signature, the form
/// some APNs clients send. Written here, not with a crypto library, so tests need none.
public func derSignature(raw: [UInt8]) -> [UInt8] {
    precondition(raw.count == 64, "a raw ES256 signature is 64 bytes")
    func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty { value = [0] }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02, UInt8(value.count)] + value
    }
    let body = integer(raw[0..<32]) + integer(raw[32..<64])
    return [0x30, UInt8(body.count)] + body
}
