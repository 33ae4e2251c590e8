import APNsCore

/// Every answer `RequestValidator` can give a push request, one row a rule, in the order it checks them,
/// each with the request that gets it: a change to one good request (`ValidationRules.goodRequest`) under
/// one setup (`ValidationRules.baseSetup`, or the row's own configuration). docs/simulator.md's validation
/// table is rendered from these rows (``markdownTable``), and a test sends every row's request through the
/// validator and gets the row's reason, and finds every reason the validator's source names in a row.
public struct ValidationRule: Sendable {
    public enum Step: Int, Sendable, CaseIterable {
        case method = 1, path, headers, providerToken, topicForTeam, payload, deviceRegistry

        public var title: String {
            switch self {
            case .method: return "method"
            case .path: return "path and device token"
            case .headers: return "headers"
            case .providerToken: return "provider token"
            case .topicForTeam: return "topic for the token's team"
            case .payload: return "payload"
            case .deviceRegistry: return "device registry"
            }
        }
    }

    public let step: Step
    public let reason: Reason
    /// The rule, in words.
    public let rule: String
    /// The changes to the good request that make the request that gets `reason`.
    public let changes: [RequestChange]
    /// A request sent first on the same connection (accepted), when the rule is about what came before.
    public let first: [RequestChange]?
    /// `simulate --config` YAML the rule needs besides the base setup (a `devices:` section replaces the base's).
    public let config: String?

    init(_ step: Step, _ reason: Reason, _ rule: String, _ changes: [RequestChange], first: [RequestChange]? = nil, config: String? = nil) {
        self.step = step
        self.reason = reason
        self.rule = rule
        self.changes = changes
        self.first = first
        self.config = config
    }
}

/// One change to the good request.
public enum RequestChange: Sendable, Equatable {
    /// The header set to this value (replacing the good request's), or removed (nil).
    case header(String, HeaderText?)
    /// The header sent a second time, with the same value.
    case headerTwice(String)
    case body(BodyText)
    case token(TokenForm)
    /// The device token in `:path`.
    case deviceToken(String)

    /// What the change touches, so that two changes to the same thing are not combined.
    public var slot: String {
        switch self {
        case let .header(name, _), let .headerTwice(name): return name
        case .body: return "body"
        case .token: return "authorization"
        case .deviceToken: return ":path"
        }
    }
}

/// A header's value: a text, or a character repeated.
public enum HeaderText: Sendable, Equatable {
    case text(String)
    case repeated(Character, count: Int)

    public var value: String {
        switch self {
        case let .text(t): return t
        case let .repeated(c, n): return String(repeating: String(c), count: n)
        }
    }

    var markdown: String {
        switch self {
        case let .text(t): return "`\(t)`"
        case let .repeated(c, n): return "\(n) × `\(c)`"
        }
    }
}

/// A body: a text, none, or an alert padded to a size in bytes.
public enum BodyText: Sendable, Equatable {
    case text(String)
    case empty
    case alertOfBytes(Int)

    public var value: String {
        switch self {
        case let .text(t): return t
        case .empty: return ""
        case let .alertOfBytes(n):
            let frame = #"{"aps":{"alert":""}}"#
            return #"{"aps":{"alert":""# + String(repeating: "x", count: max(0, n - frame.utf8.count)) + #""}}"#
        }
    }
}

/// The provider token a request carries, against the base setup's keys: A and B of team `TEAMA00001`, C of
/// team `TEAMC00001`.
public enum TokenForm: String, Sendable, Equatable, CaseIterable {
    case absent, notBearer, notAJWT, unknownKey, otherTeamsKeyID, badSignature, issuedOverAnHourAgo
    case otherTeamAfterFirst, otherKeyAfterFirst, newSigningAfterFirst

    var markdown: String {
        switch self {
        case .absent: return "no `authorization`"
        case .notBearer: return "`authorization: Basic dXNlcg==`"
        case .notAJWT: return "`authorization: bearer abc`"
        case .unknownKey: return "a token of a key the simulator does not know"
        case .otherTeamsKeyID: return "key A's id with team `TEAMC00001` as its issuer"
        case .badSignature: return "key A's id and team, signed by another private key"
        case .issuedOverAnHourAgo: return "key A's token issued 3,601 s ago"
        case .otherTeamAfterFirst: return "key C's token (another team)"
        case .otherKeyAfterFirst: return "key B's token (the same team, another key)"
        case .newSigningAfterFirst: return "key A's token signed again (a new token)"
        }
    }
}

extension ValidationRule {
    /// The request as a table cell: the changes, after the first request and under the configuration.
    var requestMarkdown: String {
        var parts: [String] = []
        if let config { parts.append("with `\(config)`:") }
        if let first { parts.append(first.isEmpty ? "after a good push on the connection," : "after \(Self.describe(first)),") }
        parts.append(changes.isEmpty ? "the good push" : Self.describe(changes))
        return parts.joined(separator: " ")
    }

    static func describe(_ changes: [RequestChange]) -> String {
        changes.map { change in
            switch change {
            case let .header(name, nil): return "no `\(name)`"
            case let .header(name, value?): return "`\(name)`: \(value.markdown)"
            case let .headerTwice(name): return "`\(name)` twice"
            case .body(.empty): return "an empty body"
            case let .body(.alertOfBytes(n)):
                return "an alert of " + (n < 1000 ? "\(n)" : "\(n / 1000),\(String(n % 1000 + 1000).dropFirst())") + " bytes"
            case let .body(.text(t)): return "body `\(t)`"
            case let .token(form): return form.markdown
            case let .deviceToken(token): return "device token `\(token.prefix(6))…` (\(ValidationRules.tokenNote(token)))"
            }
        }.joined(separator: ", ")
    }

    /// `| n. step | Reason | status | rule | request |`.
    public var markdownRow: String {
        "| \(step.rawValue). \(step.title) | `\(reason.rawValue)` | \(reason.status) | \(rule) | \(requestMarkdown) |"
    }
}
