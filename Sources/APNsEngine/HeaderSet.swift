import APNsCore
import CCurl

/// Prebuilt request header lists, one per push kind (push type and topic) and priority, shared by every
/// transfer that uses them; with broadcast
/// channels also one per channel and priority (`apns-channel-id` differs), so no list is built per push. A
/// new set is built when the provider token is re-signed; transfers still in flight keep the old set alive
/// through their reference, and the lists are freed when the last one completes.
final class HeaderSet {
    /// Indexed by kind × 11 + `Priority.rawValue` (1, 5, 10); other entries are nil.
    private var lists: [OpaquePointer?]
    /// Broadcast: indexed by channel × 3 + the priority's place (1, 5, 10).
    private var channelLists: [OpaquePointer?] = []
    /// `iat` of the provider token in these headers.
    let issuedAt: Int
    /// By kind: which headers each push carries itself (``PerPushHeaders``), linked in front of the kind's list.
    private let perPush: [PerPushHeaders]
    /// The run's start in epoch seconds, which a push's own expiration counts from.
    let expirationBase: Int

    init(configuration: EngineConfiguration, bearer: String, issuedAt: Int) throws {
        self.issuedAt = issuedAt
        expirationBase = configuration.startedAtEpochSeconds
        perPush = configuration.kinds.map { PerPushHeaders(expiration: $0.expirationPerPush, collapseID: $0.collapseIDPerPush) }
        lists = Array(repeating: nil, count: configuration.kinds.count * 11)
        for (k, kind) in configuration.kinds.enumerated() {
            for priority in Priority.allCases {
                var lines = [
                    "apns-push-type: \(kind.pushType.rawValue)",
                    "apns-topic: \(kind.topic)",
                    "apns-priority: \(priority.rawValue)",
                    "authorization: \(bearer)",
                    "content-type: application/json",
                    // libcurl adds these by default; APNs needs neither.
                    "Accept:",
                    "Expect:",
                ]
                if !kind.expirationPerPush, let expiration = kind.expiration ?? configuration.expiration { lines.append("apns-expiration: \(expiration)") }
                if !kind.collapseIDPerPush, let collapseID = kind.collapseID ?? configuration.collapseID { lines.append("apns-collapse-id: \(collapseID)") }
                lists[k * 11 + priority.rawValue] = try Self.build(lines)
            }
        }
        channelLists.reserveCapacity(configuration.broadcastChannels.count * 3)
        for id in configuration.broadcastChannels {
            for priority in [Priority.powerFirst, .powerAware, .immediate] {
                // APNs takes broadcasts of push type liveactivity only, with apns-expiration required (0 on a channel that stores nothing).
                let lines = [
                    "apns-push-type: liveactivity",
                    "apns-channel-id: \(id)",
                    "apns-priority: \(priority.rawValue)",
                    "apns-expiration: \(configuration.expiration ?? 0)",
                    "authorization: \(bearer)",
                    "content-type: application/json",
                    "Accept:",
                    "Expect:",
                ]
                channelLists.append(try Self.build(lines))
            }
        }
    }

    private static func build(_ lines: [String]) throws -> OpaquePointer? {
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for line in lines {
            guard let appended = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw EngineError.curlSetup("curl_slist_append failed")
            }
            list = appended
        }
        return OpaquePointer(list)
    }

    /// The list for a broadcast to channel `index` at `priority`.
    @inline(__always)
    func list(channel index: Int, priority: Priority) -> UnsafeMutablePointer<curl_slist>? {
        let place = priority == .powerFirst ? 0 : priority == .powerAware ? 1 : 2
        return UnsafeMutablePointer<curl_slist>(channelLists[index * 3 + place])
    }

    /// Which headers a device push of `kind` carries itself.
    @inline(__always)
    func perPushHeaders(kind: Int32) -> PerPushHeaders { perPush[Int(kind)] }

    /// The list for a device push of `kind` at `priority`.
    @inline(__always)
    func list(kind: Int32, priority: Priority) -> UnsafeMutablePointer<curl_slist>? {
        UnsafeMutablePointer<curl_slist>(lists[Int(kind) * 11 + priority.rawValue])
    }

    deinit {
        for l in lists where l != nil { curl_slist_free_all(UnsafeMutablePointer<curl_slist>(l)) }
        for l in channelLists where l != nil { curl_slist_free_all(UnsafeMutablePointer<curl_slist>(l)) }
    }
}

/// The headers a push kind takes from each push rather than from its prebuilt list.
struct PerPushHeaders: Equatable {
    var expiration = false
    var collapseID = false
    var any: Bool { expiration || collapseID }
}
