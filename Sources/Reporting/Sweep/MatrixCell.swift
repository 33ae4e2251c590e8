import Foundation

/// One run of a tuning matrix (`sweep --vary`) and what it did.
public struct MatrixCell: Codable, Equatable {
    public var settings: [String: String]
    public var directory: String
    public var planned: Int
    public var pushesSent: Int
    public var delivered: Int
    public var devicesReached: Int
    public var connectionsOpened: Int
    public var p50Millis: Double
    public var p99Millis: Double
    /// Priority-10 updates the device would throttle (the Live Activity budget), nil when not counted.
    public var budgetThrottled: Int?
    public var channelCalls: Int
    public var label: String { settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }

    public init(settings: [String: String], directory: String, report r: RunReport) {
        self.settings = settings
        self.directory = directory
        planned = r.pushes.planned
        pushesSent = r.engine.sent
        delivered = r.pushes.delivered
        devicesReached = r.engine.devicesReached
        connectionsOpened = r.engine.connectionsOpened
        p50Millis = Double(r.latency.responseTime.p50) / 1000
        p99Millis = Double(r.latency.responseTime.p99) / 1000
        budgetThrottled = r.liveActivityBudget?.throttled
        channelCalls = r.broadcast?.managementCallCount ?? 0
    }

    /// The side-by-side table, and for a device/broadcast pair the ratio of pushes.
    public static func markdown(_ cells: [MatrixCell]) -> String {
        var out = "| settings | planned | pushes sent | delivered | devices reached | connections | p50 ms | p99 ms | budget-throttled | channel-API calls |\n"
        out += "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
        for c in cells {
            out += "| \(c.label) | \(c.planned) | \(c.pushesSent) | \(c.delivered) | \(c.devicesReached) | \(c.connectionsOpened) | "
                + "\(Format.fixed(c.p50Millis, places: 1)) | \(Format.fixed(c.p99Millis, places: 1)) | \(c.budgetThrottled.map(String.init) ?? "-") | \(c.channelCalls) |\n"
        }
        // Device against broadcast, other settings equal: how many device pushes one broadcast replaced.
        for device in cells where device.settings["delivery"] == "device" {
            var others = device.settings
            others["delivery"] = "broadcast"
            if let b = cells.first(where: { $0.settings == others }), b.pushesSent > 0 {
                let rest = device.settings.filter { $0.key != "delivery" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                out += "\nDevice against broadcast\(rest.isEmpty ? "" : " (\(rest))"): \(device.pushesSent) device pushes against \(b.pushesSent) broadcasts, "
                    + "\(Format.fixed(Double(device.pushesSent) / Double(b.pushesSent), places: 1)) : 1; devices reached \(device.devicesReached) against \(b.devicesReached).\n"
            }
        }
        return out
    }
}
