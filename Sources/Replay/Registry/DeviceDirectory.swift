/// Devices and the groups they follow, as a push backend keeps them (the Order Manager app's backend): `device.register` upserts
/// by `device_id` — a new push token replaces the old one, which is never used again — and an event for a
/// group (a store, the parents of a family) fans out to every device that follows it.
///
/// Memory grows with the number of devices and follows, not with the number of events.
public struct DeviceDirectory<Group: Hashable> {
    public struct Device {
        public var token: String
        public var groups: [Group]
    }

    private var devices: [String: Device] = [:]
    /// Group → device ids following it, in registration order (deterministic fan-out order).
    private var followers: [Group: [String]] = [:]
    /// Tokens replaced by a newer one: never pushed to again.
    public private(set) var retiredTokens = 0

    public init() {}

    public var deviceCount: Int { devices.count }

    /// Registers or updates a device. Returns true if the device already existed.
    @discardableResult
    public mutating func upsert(deviceID: String, token: String, groups: [Group]) -> Bool {
        let existed: Bool
        if let old = devices[deviceID] {
            existed = true
            if old.token != token { retiredTokens += 1 }
            for g in old.groups where !groups.contains(g) {
                followers[g]?.removeAll { $0 == deviceID }
            }
            for g in groups where !old.groups.contains(g) {
                followers[g, default: []].append(deviceID)
            }
        } else {
            existed = false
            for g in Set(groups) { followers[g, default: []].append(deviceID) }
        }
        devices[deviceID] = Device(token: token, groups: groups)
        return existed
    }

    /// Removes a device (its token is not used again).
    public mutating func remove(deviceID: String) {
        guard let old = devices.removeValue(forKey: deviceID) else { return }
        for g in old.groups { followers[g]?.removeAll { $0 == deviceID } }
    }

    public func device(_ id: String) -> Device? { devices[id] }

    /// The device ids following `group`, in registration order.
    public func followers(of group: Group) -> [String] { followers[group] ?? [] }

    /// The current tokens of the devices following `group`.
    public func tokens(following group: Group) -> [String] {
        (followers[group] ?? []).compactMap { devices[$0]?.token }
    }
}

/// Keeps `aps.timestamp` strictly increasing per activity token, as ActivityKit needs (the device keeps
/// the update with the newest timestamp, so the backend must always increase it): when recorded times
/// collide or go back within a second, the next timestamp is the last one plus 1.
public struct MonotonicTimestamps {
    private var last: [String: Int] = [:]

    public init() {}

    /// The timestamp (epoch seconds) to send to `token` for an event recorded at `seconds`.
    public mutating func next(for token: String, recordedSeconds seconds: Int) -> Int {
        let value = max(seconds, (last[token] ?? Int.min) &+ 1)
        last[token] = value
        return value
    }

    /// Forgets a token (after its activity ended or it was replaced).
    public mutating func forget(_ token: String) { last.removeValue(forKey: token) }
}
