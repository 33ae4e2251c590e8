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
    /// By kind: which headers each push carries itself, linked in front of the kind's list.
    private let perPush: [HeaderSlots]
    /// The run's start in epoch seconds, which a push's own expiration counts from.
    let expirationBase: Int

    init(configuration: EngineConfiguration, bearer: String, issuedAt: Int) throws {
        self.issuedAt = issuedAt
        expirationBase = configuration.startedAtEpochSeconds
        perPush = configuration.kinds.map(\.perPush)
        lists = Array(repeating: nil, count: configuration.kinds.count * 11)
        let kinds = configuration.kinds.map { $0.onWire(startedAtEpochSeconds: expirationBase) }
        for (k, kind) in kinds.enumerated() {
            for priority in Priority.allCases {
                lists[k * 11 + priority.rawValue] = try Self.build(Self.lines(kind, priority: priority, bearer: bearer))
            }
        }
        let channelExpiration = kinds[0].number(APNsHeaders.expiration) ?? 0
        channelLists.reserveCapacity(configuration.broadcastChannels.count * 3)
        for id in configuration.broadcastChannels {
            for priority in [Priority.powerFirst, .powerAware, .immediate] {
                // APNs takes broadcasts of push type liveactivity only, with apns-expiration required (0 on a channel that stores nothing).
                let lines = [
                    "apns-push-type: liveactivity",
                    "apns-channel-id: \(id)",
                    "apns-priority: \(priority.rawValue)",
                    "apns-expiration: \(channelExpiration)",
                    "authorization: \(bearer)",
                    "content-type: application/json",
                    "Accept:",
                    "Expect:",
                ]
                channelLists.append(try Self.build(lines))
            }
        }
    }

    /// A kind's list at one priority: the rows carried by kind and priority, the request's own headers, then
    /// the kind's constants of the rows a push may carry itself (left out where each push carries its own).
    static func lines(_ kind: HeaderConstants, priority: Priority, bearer: String) -> [String] {
        var values = kind
        values[APNsHeaders.priority] = .number(priority.rawValue)
        func rows(_ lead: Bool) -> [String] {
            APNsHeaders.all.filter { ($0.slot == nil) == lead }.compactMap { row in values.sent(row).map(row.line) }
        }
        // libcurl adds `Accept` and `Expect` by default; APNs needs neither.
        return rows(true) + ["authorization: \(bearer)", "content-type: application/json", "Accept:", "Expect:"] + rows(false)
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
    func perPushHeaders(kind: Int32) -> HeaderSlots { perPush[Int(kind)] }

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
