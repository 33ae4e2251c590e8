/// The `apns-push-type` values and the topic suffix each one needs (Apple's "Sending notification requests to APNs": the topic is the bundle id plus a suffix
/// for some push types).
public enum PushType: String, CaseIterable, Codable, Sendable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk, widgets, controls

    /// What must follow the bundle id in `apns-topic` for this push type (empty: the bare bundle id).
    public var topicSuffix: String {
        switch self {
        case .alert, .background, .mdm: return ""
        case .location: return ".location-query"
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .liveactivity: return ".push-type.liveactivity"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        case .controls: return ".push-type.controls"
        }
    }

    /// The largest payload APNs accepts for this push type, in bytes.
    public var payloadLimit: Int { self == .voip ? 5120 : 4096 }

    /// `apns-topic` for a bundle id.
    public func topic(bundleID: String) -> String { bundleID + topicSuffix }

    /// The suffixes that can end a topic, longest first, so `.voip-ptt` is not read as `.voip`.
    public static let suffixesLongestFirst: [(suffix: String, type: PushType)] = allCases
        .filter { !$0.topicSuffix.isEmpty }
        .map { ($0.topicSuffix, $0) }
        .sorted { $0.suffix.count > $1.suffix.count }

    /// The push type a topic's suffix names, or nil for a bare bundle id.
    public static func suffixType(ofTopic topic: String) -> PushType? {
        suffixesLongestFirst.first { topic.hasSuffix($0.suffix) }?.type
    }
}

/// `apns-priority`: 10 immediate, 5 power-aware, 1 power first.
public enum Priority: Int, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case powerFirst = 1
    case powerAware = 5
    case immediate = 10

    public var description: String { String(rawValue) }
}
