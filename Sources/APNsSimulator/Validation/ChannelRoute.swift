import APNsCore

/// What a broadcast-API request asks for, read from `:path` and `:method` (the contract is in
/// `ChannelRequests.swift`). The path is read first: which methods are allowed depends on it.
enum ChannelRoute: Equatable {
    /// `POST /1/apps/<bundle>/channels`
    case create(bundleID: String)
    /// `GET /1/apps/<bundle>/channels`
    case read(bundleID: String)
    /// `DELETE /1/apps/<bundle>/channels`
    case delete(bundleID: String)
    /// `GET /1/apps/<bundle>/all-channels`
    case list(bundleID: String)
    /// `POST /4/broadcasts/apps/<bundle>`
    case broadcast(bundleID: String)

    var bundleID: String {
        switch self {
        case let .create(b), let .read(b), let .delete(b), let .list(b), let .broadcast(b): return b
        }
    }

    /// Which of the two APIs a path belongs to: it decides how the request is counted.
    enum API: Equatable {
        /// Channel management, `/1/...` (APNs serves it on its own hosts, ports 2195/2196).
        case management
        /// Broadcast sends, `/4/...`.
        case broadcast
    }

    /// Whether the handler routes `path` here rather than to the `/3/device` validator: `/1/…` or `/4/…`.
    /// Reads three bytes (it runs for every request).
    @inline(__always)
    static func api(ofPath path: String?) -> API? {
        guard let path else { return nil }
        var u = path.utf8.makeIterator()
        guard u.next() == UInt8(ascii: "/"), let v = u.next(), u.next() == UInt8(ascii: "/") else { return nil }
        if v == UInt8(ascii: "1") { return .management }
        if v == UInt8(ascii: "4") { return .broadcast }
        return nil
    }

    static let appsPrefix = "/1/apps/"
    static let broadcastPrefix = "/4/broadcasts/apps/"

    /// The route, or why there is none: `BadPath` for a path neither API has, `MethodNotAllowed` for a
    /// method its path does not take.
    static func parse(method: String?, path: String) -> Checked<ChannelRoute> {
        if path.hasPrefix(broadcastPrefix) {
            let bundle = path.dropFirst(broadcastPrefix.count)
            guard !bundle.isEmpty, !bundle.contains("/") else { return .refused(.badPath) }
            return method == "POST" ? .valid(.broadcast(bundleID: String(bundle))) : .refused(.methodNotAllowed)
        }
        guard path.hasPrefix(appsPrefix) else { return .refused(.badPath) }
        let rest = path.dropFirst(appsPrefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return .refused(.badPath) }
        let bundle = String(rest[..<slash])
        guard !bundle.isEmpty else { return .refused(.badPath) }
        switch rest[rest.index(after: slash)...] {
        case "channels":
            switch method {
            case "POST": return .valid(.create(bundleID: bundle))
            case "GET": return .valid(.read(bundleID: bundle))
            case "DELETE": return .valid(.delete(bundleID: bundle))
            default: return .refused(.methodNotAllowed)
            }
        case "all-channels":
            return method == "GET" ? .valid(.list(bundleID: bundle)) : .refused(.methodNotAllowed)
        default:
            return .refused(.badPath)
        }
    }
}
