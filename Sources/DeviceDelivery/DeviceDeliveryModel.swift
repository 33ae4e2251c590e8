import APNsCore

/// The device side of delivery, in recorded time: for each push APNs accepted, what the device does with it
/// — shown on time or late, replaced (collapse id, or a newer push stored for an offline device), dropped
/// (expired, not stored, its activity ended) or throttled (past a Live Activity budget).
///
/// A pure state machine: pushes go in, in the order of their intended send on the recording's clock, and
/// every push comes out exactly once through the sink, when its fate is known (a priority-5 push waits for
/// the device's next wake, and may be replaced before it). ``finish(_:)`` plays out what is still held. The
/// draws (wakes, offline periods) are seeded per device token, so that the outcomes depend on the recording
/// alone, never on the replay's speed or the order the answers came back in.
public struct DeviceDeliveryModel {
    public let parameters: DeviceDeliveryParameters
    private var devices: [String: DeviceState] = [:]
    /// Pushes taken, and outcomes given.
    public private(set) var received = 0
    public private(set) var decided = 0

    public init(parameters: DeviceDeliveryParameters = DeviceDeliveryParameters()) {
        self.parameters = parameters
    }

    /// Takes one push APNs accepted; `id` comes back with its outcome. Each token's pushes must come in
    /// recorded order (one earlier than its token's last is taken as sent at that time); how the tokens'
    /// pushes interleave does not matter, since devices are independent.
    public mutating func receive(_ push: DeviceDeliveryPush, id: Int, _ sink: (Int, DeviceDeliveryOutcome) -> Void) {
        received += 1
        let p = parameters
        var decidedHere = 0
        let counted: (Int, DeviceDeliveryOutcome) -> Void = { i, o in decidedHere += 1; sink(i, o) }
        devices[push.token, default: DeviceState(token: push.token, firstMillis: push.atMillis, parameters: p)]
            .receive(push, id: id, p, counted)
        decided += decidedHere
    }

    /// Plays out every push still held (waiting for a wake, or stored for an offline device), in token order,
    /// so that every push taken has had exactly one outcome.
    public mutating func finish(_ sink: (Int, DeviceDeliveryOutcome) -> Void) {
        let p = parameters
        var decidedHere = 0
        let counted: (Int, DeviceDeliveryOutcome) -> Void = { i, o in decidedHere += 1; sink(i, o) }
        for token in devices.keys.sorted() where !devices[token]!.isIdle {
            devices[token]!.settle(until: Int64.max - 1, p, counted)
        }
        decided += decidedHere
    }
}
