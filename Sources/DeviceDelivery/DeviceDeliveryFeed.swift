import APNsCore

/// Collects the device model's input during a run: each push APNs accepted, as a ``DeviceDeliveryPush`` on the
/// recording's clock, with what decides its fate on the device read from its kind and its payload (the push
/// type, collapse id and expiration its headers carried; a Live Activity's `aps.event`, `stale-date` and
/// `dismissal-date`). One feed per engine thread, like the recorder it hangs off; the model runs on all
/// feeds' pushes after the run (``DeviceDeliveryFeed/merged(_:)``).
///
/// Cost, only when the device model is on: one stored record a delivered push, and for a Live Activity
/// push one scan of its payload into a kept tape.
public final class DeviceDeliveryFeed {
    /// What each push kind (``OutgoingPush/kind``) sends besides the payload.
    public struct Kind: Sendable, Equatable {
        public var pushType: PushType
        /// The kind's own `apns-collapse-id`; nil: none, or each push's.
        public var collapseID: String?
        /// The kind's `apns-expiration` as seconds after the run's start (0: immediately); nil: none, or each push's.
        public var expirationSeconds: Int?

        public init(pushType: PushType, collapseID: String? = nil, expirationSeconds: Int? = nil) {
            self.pushType = pushType
            self.collapseID = collapseID
            self.expirationSeconds = expirationSeconds
        }
    }

    private let kinds: [Kind]
    /// The run's start (monotonic ns): a push's `apns-expiration` counts from it.
    private let startNanos: UInt64
    private var tape = JSONTape()
    /// The pushes, in the order APNs accepted them.
    public private(set) var pushes: [DeviceDeliveryPush] = []

    public init(kinds: [Kind], startNanos: UInt64) {
        precondition(!kinds.isEmpty, "at least one push kind")
        self.kinds = kinds
        self.startNanos = startNanos
    }

    /// Takes a push APNs accepted.
    public func observe(_ push: OutgoingPush) {
        let kind = kinds[min(Int(push.kind), kinds.count - 1)]
        var device = DeviceDeliveryPush(token: push.deviceToken, atMillis: push.recordedMillis, priority: push.priority,
                                pushType: kind.pushType)
        device.heldMillis = push.heldMillis
        let collapse = push.headers[APNsHeaders.collapseID].text, own = push.headers[APNsHeaders.expiration].seconds
        device.collapseID = collapse.isEmpty ? kind.collapseID : String(decoding: collapse, as: UTF8.self)
        let expiration = own >= 0 ? own : kind.expirationSeconds
        if let seconds = expiration {
            // Seconds after the run's start, as sent: the time it left after its intended send, on the recording's clock.
            let sentAfter = push.intendedNanos > startNanos ? Int64((push.intendedNanos - startNanos) / 1_000_000) : 0
            device.expiration = seconds == 0 ? .immediately : .at(push.recordedMillis + max(0, Int64(seconds) * 1000 - sentAfter))
        }
        if kind.pushType == .liveactivity { push.body.withUnsafeBufferPointer { Self.readActivityKeys($0, tape: &tape, into: &device) } }
        pushes.append(device)
    }

    /// Reads `aps.event`, `aps.stale-date` and `aps.dismissal-date` (epoch seconds, as written) of a Live Activity
    /// payload into `device`, scanning it into `tape`; a payload that does not scan leaves them unset.
    public static func readActivityKeys(_ bytes: UnsafeBufferPointer<UInt8>, tape: inout JSONTape, into device: inout DeviceDeliveryPush) {
        do throws(JSONSyntaxError) { try tape.scan(bytes) } catch { return }
        let nodes = tape.nodes
        guard let aps = member("aps", of: 0, nodes, bytes), nodes[aps].kind == .object else { return }
        if let e = member("event", of: aps, nodes, bytes), nodes[e].kind == .string {
            device.activityEvent = DeviceDeliveryPush.ActivityEvent(rawValue: String(decoding: bytes[nodes[e].start..<nodes[e].end], as: UTF8.self))
        }
        device.staleAtMillis = member("stale-date", of: aps, nodes, bytes).flatMap { millis(nodes[$0], bytes) }
        device.dismissAtMillis = member("dismissal-date", of: aps, nodes, bytes).flatMap { millis(nodes[$0], bytes) }
    }

    /// The index of `key`'s value in the object at `object`, or nil.
    private static func member(_ key: StaticString, of object: Int, _ nodes: [JSONNode], _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard object < nodes.count, nodes[object].kind == .object else { return nil }
        let want = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        var i = object + 1
        for _ in 0..<nodes[object].count {
            let k = nodes[i], value = i + 1
            if k.end - k.start == want.count, bytes[k.start..<k.end].elementsEqual(want) { return value }
            i = nodes[value].next
        }
        return nil
    }

    /// An integer number of epoch seconds, as milliseconds.
    private static func millis(_ node: JSONNode, _ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard node.kind == .number, let seconds = Int64(String(decoding: bytes[node.start..<node.end], as: UTF8.self)) else { return nil }
        return seconds * 1000
    }

    /// Every feed's pushes in recorded order; pushes recorded at the same time keep the order they were accepted in.
    public static func merged(_ feeds: [DeviceDeliveryFeed]) -> [DeviceDeliveryPush] {
        var all = feeds.flatMap(\.pushes)
        let order = all.indices.sorted { all[$0].atMillis != all[$1].atMillis ? all[$0].atMillis < all[$1].atMillis : $0 < $1 }
        all = order.map { all[$0] }
        return all
    }
}
