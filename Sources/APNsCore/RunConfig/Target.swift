/// Where pushes go.
public enum Target: Equatable, Sendable, CustomStringConvertible {
    /// The embedded APNs simulator on a free loopback port (the default).
    case simulator
    /// api.sandbox.push.apple.com (needs a .p8 key).
    case sandbox
    /// api.push.apple.com (needs a .p8 key).
    case production
    /// Any APNs-like server: `https://host:port` or `http://host:port` (h2c).
    case url(String)

    /// Parses `simulator`, `sandbox`, `production` or a URL.
    public init?(argument: String) {
        switch argument {
        case "simulator": self = .simulator
        case "sandbox": self = .sandbox
        case "production": self = .production
        default:
            guard argument.hasPrefix("https://") || argument.hasPrefix("http://") else { return nil }
            self = .url(argument.hasSuffix("/") ? String(argument.dropLast()) : argument)
        }
    }

    public var baseURL: String? {
        switch self {
        case .simulator: return nil
        case .sandbox: return "https://api.sandbox.push.apple.com:443"
        case .production: return "https://api.push.apple.com:443"
        case let .url(u): return u
        }
    }

    /// Where the broadcast channel-management API is: Apple's own hosts for sandbox and production
    /// (`api-manage-broadcast[.sandbox].push.apple.com`, ports 2195 and 2196); the target itself otherwise
    /// (the simulator serves both on one port). Nil for the embedded simulator (its URL is known at start).
    public var channelManagementURL: String? {
        switch self {
        case .simulator: return nil
        case .sandbox: return "https://api-manage-broadcast.sandbox.push.apple.com:2195"
        case .production: return "https://api-manage-broadcast.push.apple.com:2196"
        case let .url(u): return u
        }
    }

    public var description: String {
        switch self {
        case .simulator: return "simulator"
        case .sandbox: return "sandbox"
        case .production: return "production"
        case let .url(u): return u
        }
    }
}

/// In `report.json` a target is its description: `simulator`, `sandbox`, `production` or the URL.
extension Target: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let target = Target(argument: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a target"))
        }
        self = target
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
