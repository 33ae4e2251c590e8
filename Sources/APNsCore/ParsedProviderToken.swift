import Foundation

/// A provider token as APNs reads it: the parts of a JWS, decoded with the leniencies APNs is known to
/// accept: base64url or padded standard base64, a raw r‖s or DER signature,
/// `iat` as a number or a string, `kid` repeated in the claims.
public struct ParsedProviderToken: Sendable {
    public let keyID: String
    public let teamID: String
    public let issuedAt: Int
    public let signingInput: [UInt8]
    public let signature: [UInt8]

    /// Why a token could not be read; every case maps to `InvalidProviderToken`.
    public enum ParseError: Error, Equatable {
        case notThreeParts, badBase64, badHeaderJSON, unsupportedAlgorithm(String), missingKeyID
        case badClaimsJSON, missingIssuer, missingIssuedAt
    }

    /// Parses the text after `bearer `.
    public init(jwt: Substring) throws {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw ParseError.notThreeParts }
        guard let headerData = Base64URL.decode(parts[0]), let claimsData = Base64URL.decode(parts[1]),
              let sig = Base64URL.decode(parts[2]) else { throw ParseError.badBase64 }
        guard let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any] else {
            throw ParseError.badHeaderJSON
        }
        let alg = header["alg"] as? String ?? ""
        guard alg == "ES256" else { throw ParseError.unsupportedAlgorithm(alg) }
        guard let kid = header["kid"] as? String, !kid.isEmpty else { throw ParseError.missingKeyID }
        guard let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any] else {
            throw ParseError.badClaimsJSON
        }
        guard let iss = claims["iss"] as? String, !iss.isEmpty else { throw ParseError.missingIssuer }
        let iat: Int
        if let n = claims["iat"] as? Int {
            iat = n
        } else if let s = claims["iat"] as? String, let n = Int(s) {
            iat = n
        } else {
            throw ParseError.missingIssuedAt
        }
        self.keyID = kid
        self.teamID = iss
        self.issuedAt = iat
        self.signingInput = Array(jwt.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = Array(sig)
    }
}
