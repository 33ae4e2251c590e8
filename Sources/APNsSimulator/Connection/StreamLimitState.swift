/// The stream limit one connection advertises and the one it enforces. APNs advertises MAX_CONCURRENT_STREAMS 1 on a new connection and
/// raises it (to about 1000) once a request with a valid provider token has been posted.
///
/// SETTINGS take effect for the client when it receives them, and the server knows that only from the
/// ACK: a raised limit is enforced at once, a lowered one only once acknowledged, so a client is never
/// refused for honouring the limit it last saw. Before the client acknowledged the first SETTINGS the
/// limit is unknown to it and nothing is refused (the HTTP/2 layer's hard limit still applies).
/// A value type: `ConnectionPolicy` owns it, tests drive it directly.
struct StreamLimitState {
    /// The value the client last acknowledged (nil before the first ACK).
    private(set) var acknowledged: Int?
    /// Values sent and not yet acknowledged, oldest first (ACKs come in order).
    private(set) var pending: [Int] = []
    /// The value last advertised.
    private(set) var advertised: Int

    /// `initial` is the value of the preamble SETTINGS (sent by the HTTP/2 layer).
    init(initial: Int) {
        advertised = initial
        pending = [initial]
    }

    /// Records that a SETTINGS with this MAX_CONCURRENT_STREAMS is being sent.
    mutating func advertise(_ value: Int) {
        advertised = value
        pending.append(value)
    }

    /// Records a SETTINGS ACK from the client: the oldest value sent and not yet acknowledged is now in
    /// force on its side. ACKs come in the order the SETTINGS frames went out, and every SETTINGS frame
    /// the simulator sends carries MAX_CONCURRENT_STREAMS, so each ACK settles one queued value.
    mutating func acknowledge() {
        guard !pending.isEmpty else { return }
        acknowledged = pending.removeFirst()
    }

    /// The number of open streams beyond which a new stream is refused; nil: no limit of ours.
    var enforced: Int? {
        guard let acknowledged else { return nil }
        return max(acknowledged, pending.max() ?? 0)
    }

    /// Whether a new stream must be refused when `open` streams are already open.
    func refuses(open: Int) -> Bool {
        guard let limit = enforced else { return false }
        return open >= limit
    }
}
