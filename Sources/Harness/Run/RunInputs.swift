import APNsCore
import APNsEngine
import DeviceContract
import Foundation
import Replay

/// What a run reads before anything starts, so bad input fails first, with its source named: libcurl
/// itself, the payload template, the ActivityKit model, the stream, the dead-token list and the provider key.
struct RunInputs {
    let libcurl: LibcurlInfo
    /// The recipes (each with its payload templates), by part of the workload (one unless it is a mix).
    let recipes: [Recipe]
    /// The run's push kinds, by ``OutgoingPush/kind``: each part's recipe constants over the run's, resolved
    /// here once for the engine, the send tally, the device feeds and the report.
    let kinds: [PushKind]
    /// The device-contract check of each push kind (its part's, where the kind sends the part's push type), from the
    /// ActivityKit model the part names; nil where it names none.
    let contractChecks: [PayloadCheck?]
    /// The push type each push kind (as ``contractChecks``) sends: the Live Activity budget counts the Live
    /// Activity kinds, a priority override reaches the kinds in its scope.
    let kindTypes: [PushType]
    let key: SigningKey
    /// Device tokens the stream plants as dead (the embedded simulator answers them 410).
    let deadTokens: [String]
    /// SHA-256 of the stream file: which recording this run replayed (compare refuses two that differ). A mix's
    /// is the digest of its parts' (``FileDigest/sha256(parts:)``).
    let streamSHA256: String
    /// The CA certificate (PEM) to trust for the target instead of the system's (`--ca-cert`).
    let trustedCertificatePEM: String?

    init(_ config: RunConfig, credentials: Credentials, caCertificatePath: String? = nil) throws {
        libcurl = LibcurlInfo.loaded()
        try libcurl.requireUsable()
        let w = config.workload
        recipes = try Workloads.recipes(for: config)
        let checks = try w.parts.map { part in try part.activityModel.map { try ActivityKitModelLoader.check($0, profile: config.profilePath) } }
        kinds = config.pushKinds(recipes.map(\.pushKinds))
        // By push kind: its part's check where the kind still sends the part's push type.
        contractChecks = kinds.map { k in k.pushType == w.parts[k.part].pushType ? checks[k.part] : nil }
        kindTypes = kinds.map(\.pushType)
        let digests = try w.parts.map { (name: $0.name, sha256: try Self.digest(stream: $0.stream, profile: config.profilePath)) }
        for (part, recipe) in zip(w.parts, recipes) {
            try RecordingCheck.requireEvent(stream: part.stream, shape: recipe.recordShape, profile: config.profilePath)
        }
        streamSHA256 = w.mix == nil ? digests[0].sha256 : FileDigest.sha256(parts: digests)
        deadTokens = try w.deadTokens.map(Self.readTokenList) ?? []
        key = try Self.signingKey(credentials, target: config.target)
        trustedCertificatePEM = try caCertificatePath.map { path in
            guard config.target != .simulator else {
                throw RunError("--ca-cert \(path) goes with a URL, sandbox or production target; the embedded simulator's CA is trusted already")
            }
            return try Self.readCertificate(path)
        }
    }

    /// The SHA-256 of a stream file; an error naming the file and the profile when it cannot be read.
    static func digest(stream path: String, profile: String) throws -> String {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw RunError("stream \(path) (from \(profile)) cannot be read")
        }
        do { return try FileDigest.sha256(path: path) } catch {
            throw RunError("stream \(path) (from \(profile)) cannot be read: \(error.localizedDescription)")
        }
    }

    /// A PEM file with at least one certificate; an error naming the file otherwise.
    static func readCertificate(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunError("CA certificate \(path) (--ca-cert or APNS_CA_CERT) cannot be read")
        }
        let pem = String(decoding: data, as: UTF8.self)
        guard pem.contains("-----BEGIN CERTIFICATE-----"), pem.contains("-----END CERTIFICATE-----") else {
            throw RunError("CA certificate \(path) (--ca-cert or APNS_CA_CERT) is not a PEM certificate (no BEGIN/END CERTIFICATE block)")
        }
        return pem
    }

    /// A provider token cache for one engine (each worker signs its own), on `clock`: the embedded
    /// simulator's, which its clock-step fault moves, as it would move every clock of one machine.
    func makeTokens(_ config: RunConfig, clock: WallClock = .system) throws -> ProviderTokenCache {
        try ProviderTokenCache(key: key, refreshInterval: config.auth.tokenRefreshMinutes * 60, clock: clock)
    }

    /// One token a line; blank lines and `#` comments skipped; a line that is not a token is an error
    /// naming the file and the line.
    static func readTokenList(_ path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunError("dead-token list \(path) cannot be read")
        }
        var tokens: [String] = []
        for (i, raw) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard DeviceToken.isValid(line) else {
                throw RunError("\(path):\(i + 1): '\(DeviceToken.redacted(line))' is not a device token (even-length hex, 64-200 characters)")
            }
            tokens.append(line)
        }
        return tokens
    }

    /// The key from --key-path/--key-id/--team-id (or APNS_* variables); against the simulator a fresh
    /// key is made when none is given.
    static func signingKey(_ c: Credentials, target: Target) throws -> SigningKey {
        if let path = c.keyPath {
            guard let keyID = c.keyID, let teamID = c.teamID else {
                throw RunError("--key-path needs --key-id and --team-id (or APNS_KEY_ID and APNS_TEAM_ID)")
            }
            return try SigningKey(p8Path: path, keyID: keyID, teamID: teamID)
        }
        guard target == .simulator else {
            throw RunError("target \(target) needs a provider key: --key-path AuthKey_XXXXXXXXXX.p8 --key-id XXXXXXXXXX --team-id XXXXXXXXXX (or "
                + "APNS_KEY_PATH, APNS_KEY_ID, APNS_TEAM_ID)")
        }
        return SigningKey.generate()
    }
}
